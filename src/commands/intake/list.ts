import type { Context } from "../../context.js";
import { MAX_RESPONSE_BYTES } from "../../api/client.js";
import { TransportError } from "../../api/transport.js";
import { CliError, failure, usageError } from "../../errors.js";
import {
  formatApiDateTime,
  formatDateTime,
  looksLikeDate,
  resolveHistoryWindow,
  toWallClock,
  type HistoryWindow,
} from "../../intake/dates.js";

export interface ListOptions {
  from?: unknown;
  to?: unknown;
  days?: number | undefined;
}

const DATE_FORMS = 'a date (YYYY-MM-DD), an ISO 8601 time, a length back from now (3d, 12h, 2w) or words such as "yesterday" or "monday"';

/**
 * A --from or --to on the user's wall clock (`now` is that clock's): a date, an ISO time
 * (converted into `zone` when it has an offset), a length such as `3d`, or words (chrono-node).
 */
async function readDateOption(flag: string, text: unknown, edge: "start" | "end", zone: string, now: Date): Promise<Date | undefined> {
  if (typeof text !== "string") return undefined;
  if (looksLikeDate(text)) {
    const date = toWallClock(text, edge, zone);
    if (date === null) throw usageError(`${flag}: "${text}" is not a date in the calendar`);
    return date;
  }
  const { readDateWords } = await import("../../intake/dateWords.js");
  const date = text.trim() === "" ? null : await readDateWords(text, edge, now);
  if (date === null) throw usageError(`${flag} must be ${DATE_FORMS}, got "${text}"`);
  return date;
}

/** The window as sent, and the clock it is read on: a zone's name, or null for the user's unnamed one. */
export interface SentWindow extends HistoryWindow {
  zone: string | null;
  /** What date_to says: `to`, or without a zone and up to now, the latest clock anywhere (UTC+14). */
  sentTo: Date;
}

/**
 * Flags to the window sent, refused (exit 2, nothing sent) when they cannot make one. `instant`
 * is the real now; with a zone, the window is on that zone's clock. Without one, dates are sent
 * as they are (the service reads them on the user's clock) and a window up to now runs to the
 * latest clock of any zone, so it never misses the newest intake.
 */
export async function historyWindowFrom(options: ListOptions, instant: Date, zone: string | null): Promise<SentWindow> {
  const clockZone = zone ?? "UTC";
  const { wallClockAt, EARLIEST_ZONE_AHEAD_MS } = await import("../../intake/zones.js");
  const now = clockZone === "UTC" ? instant : wallClockAt(instant, clockZone);
  const from = await readDateOption("--from", options.from, "start", clockZone, now);
  const to = await readDateOption("--to", options.to, "end", clockZone, now);
  const window = resolveHistoryWindow({ from, to, days: options.days }, now);
  if ("problem" in window) throw usageError(window.problem, { hint: "nothing was sent" });
  const sentTo = window.toNow && zone === null ? new Date(window.to.getTime() + EARLIEST_ZONE_AHEAD_MS) : window.to;
  return { ...window, zone, sentTo };
}

/** A heading's time: to the minute when its seconds are :00 ("2026-11-01 00:00"), else to the second. */
const headingTime = (date: Date) => formatDateTime(date).replace(/:00$/, "");

/**
 * The window in words, for the terminal's heading (80 columns): on the clock it is read on, named;
 * without a zone, the user's own clock, and a window up to now reaches now in every zone.
 */
export function describeWindow(window: SentWindow): string {
  // A --to date reaches 23:59:59, a second short of whole days: rounded to a tenth first.
  const days = Math.round((window.to.getTime() - window.from.getTime()) / 8_640_000) / 10;
  const length = Number.isInteger(days) ? `${days} day${days === 1 ? "" : "s"}` : `${days.toFixed(1)} days`;
  const clock = window.zone ?? "user's clock";
  if (!window.toNow) return `${headingTime(window.from)} to ${headingTime(window.to)} ${clock} (${length})`;
  return `${headingTime(window.from)} ${clock} to now${window.zone === null ? " in every zone" : ""} (${length})`;
}

/** An answer over the client's size cap: the window holds too many intakes to read at once (exit 1, as any unreadable answer). */
function tooManyIntakes(error: unknown, window: SentWindow): unknown {
  if (!(error instanceof CliError) || !(error.cause instanceof TransportError) || error.cause.kind !== "too_large") return error;
  return failure(
    `the window ${describeWindow(window)} holds too many intakes to read at once: the answer is over the ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB limit`,
    {
      status: error.status,
      hint: "narrow the window: a later --from, an earlier --to, or fewer --days (e.g. a week at a time)",
      cause: error,
    },
  );
}

function warnUnreadable(ctx: Context, unreadable: readonly { imageId: number | null; index: number; problem: string }[]): void {
  for (const record of unreadable) {
    const which = record.imageId === null ? `record ${record.index + 1}` : `intake ${record.imageId}`;
    ctx.warn(`${which} of the list is unreadable and is shown as such: ${record.problem}`);
  }
}

export async function listCommand(ctx: Context, options: ListOptions): Promise<number> {
  const zone = await ctx.timeZone();
  const window = await historyWindowFrom(options, new Date(ctx.services.clock?.now() ?? Date.now()), zone);
  const client = await ctx.client();
  const result = await client
    .listIntakes({ from: formatApiDateTime(window.from), to: formatApiDateTime(window.sentTo) })
    .catch((error: unknown) => {
      throw tooManyIntakes(error, window);
    });
  if (!ctx.json) warnUnreadable(ctx, result.unreadable);
  const intakes = result.data.intakes_list;
  if (!ctx.json && intakes.length === 0 && result.unreadable.length === 0) {
    ctx.info(`no intakes from ${describeWindow(window)}`);
    return 0;
  }
  await ctx.print({
    jsonBody: result.raw,
    text: async (stream, color) => {
      const { renderIntakeList } = await import("../../output/intake.js");
      const heading = stream.isTTY ? `Intakes from ${describeWindow(window)}\n` : "";
      return heading + renderIntakeList(intakes, stream, color, { zone, unreadable: result.unreadable });
    },
    paged: true,
  });
  return 0;
}
