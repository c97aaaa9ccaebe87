import type { Context } from "../../context.js";
import { MAX_RESPONSE_BYTES } from "../../api/client.js";
import { readPeriodTotals } from "../../api/answers.js";
import { TransportError } from "../../api/transport.js";
import { CliError, failure, usageError } from "../../errors.js";
import { DEFAULT_WINDOW_DAYS, formatApiDateTime, resolveHistoryWindow, type HistoryWindow } from "../../intake/dates.js";

export interface ListOptions {
  from?: unknown;
  to?: unknown;
  days?: number | undefined;
  language?: unknown;
}

/** The window as sent, and the clock it is read on: a zone's name, or null for the user's unnamed one. */
export interface SentWindow extends HistoryWindow {
  zone: string | null;
  /** What date_to says: `to`, or without a zone and up to now, the latest clock anywhere (UTC+14). */
  sentTo: Date;
  /** The days of a window that ends now and was given no --from or --to ("the last 7 days"), else null. */
  lastDays: number | null;
  /** How a date that could be read two ways was read, for stderr. */
  notes: string[];
}

/**
 * Flags to the window sent, refused (exit 2, nothing sent) when they cannot make one. `instant`
 * is the real now; with a zone, the window is on that zone's clock. Without one, dates are sent
 * as they are (the service reads them on the user's clock) and a window up to now runs to the
 * latest clock of any zone, so it never misses the newest intake.
 */
export async function historyWindowFrom(options: ListOptions, instant: number, zone: string | null): Promise<SentWindow> {
  const clockZone = zone ?? "UTC";
  const { wallClockAt, EARLIEST_ZONE_AHEAD_MS } = await import("../../intake/zones.js");
  const { readDateOption, wallOf } = await import("../dateOption.js");
  const now = clockZone === "UTC" ? new Date(Math.floor(instant / 1000) * 1000) : wallClockAt(new Date(instant), clockZone);
  const notes: string[] = [];
  const read = (flag: string, text: unknown, edge: "start" | "end") => {
    if (typeof text !== "string") return undefined;
    const reading = readDateOption(flag, text, edge, clockZone, instant);
    if (reading.note) notes.push(`${flag} ${reading.note}`);
    return wallOf(reading, clockZone);
  };
  const from = read("--from", options.from, "start");
  const to = read("--to", options.to, "end");
  const days = options.days;
  const window = resolveHistoryWindow({ from, to, days }, now);
  if ("problem" in window) throw usageError(window.problem, { hint: "nothing was sent" });
  const sentTo = window.toNow && zone === null ? new Date(window.to.getTime() + EARLIEST_ZONE_AHEAD_MS) : window.to;
  const lastDays = from === undefined && to === undefined ? (days ?? DEFAULT_WINDOW_DAYS) : null;
  return { ...window, zone, sentTo, lastDays, notes };
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const secondsOfDay = (date: Date) => Math.floor(date.getTime() / 1000) % 86_400;

/** One end of a window in words: "Mon 3 Nov", the year when asked, the time when it is not the day's edge ("14:05"). */
function windowEnd(date: Date, year: boolean, edge: "start" | "end"): string {
  const day = `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}${year ? ` ${date.getUTCFullYear()}` : ""}`;
  if (secondsOfDay(date) === (edge === "start" ? 0 : 86_399)) return day;
  const time = date.toISOString().slice(11, 19).replace(/:00$/, "");
  return `${day} ${time}`;
}

/**
 * The window in plain words, for the terminal's heading and messages: "Mon 3 Nov – Sat 8 Nov 2026
 * (Europe/Berlin)", "the last 7 days (Asia/Tokyo)"; without a zone, the rows' times are in UTC and
 * it says so. The window as sent is in --verbose and --json.
 */
export function describeWindow(window: SentWindow, heading = true): string {
  const unnamed = heading ? ", times in UTC (the user's zone is not known: --tz names it)" : "";
  const clock = window.zone === null ? unnamed : ` (${window.zone})`;
  if (window.lastDays !== null) return `the last ${window.lastDays === 1 ? "day" : `${window.lastDays} days`}${clock}`;
  const { from, to } = window;
  if (window.toNow) return `${windowEnd(from, true, "start")} – now${clock}`;
  const sameYear = from.getUTCFullYear() === to.getUTCFullYear();
  const wholeDays = secondsOfDay(from) === 0 && secondsOfDay(to) === 86_399;
  if (wholeDays && from.toISOString().slice(0, 10) === to.toISOString().slice(0, 10)) return `${windowEnd(from, true, "start")}${clock}`;
  return `${windowEnd(from, !sameYear, "start")} – ${windowEnd(to, true, "end")}${clock}`;
}

/** The heading over the rows; wider than the terminal, its last parenthesis goes on a line of its own. */
function windowHeading(window: SentWindow, columns: number): string {
  const heading = `Intakes of ${describeWindow(window)}`;
  const split = heading.lastIndexOf(" (");
  return heading.length <= columns || split < 0 ? `${heading}\n` : `${heading.slice(0, split)}\n${heading.slice(split + 1)}\n`;
}

/** An answer over the client's size cap: the window holds too many intakes to read at once (exit 1, as any unreadable answer). */
function tooManyIntakes(error: unknown, window: SentWindow): unknown {
  if (!(error instanceof CliError) || !(error.cause instanceof TransportError) || error.cause.kind !== "too_large") return error;
  return failure(
    `the window ${describeWindow(window, false)} holds too many intakes to read at once: the answer is over the ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB limit`,
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
  const window = await historyWindowFrom(options, ctx.now(), zone);
  for (const note of window.notes) ctx.info(note);
  const language = await ctx.language(options.language);
  const client = language === undefined ? await ctx.client() : (await ctx.client()).derive({ language });
  const sent = { from: formatApiDateTime(window.from), to: formatApiDateTime(window.sentTo) };
  ctx.trace(`* window sent: date_from "${sent.from}", date_to "${sent.to}" (${window.zone ?? "the user's clock at the service"})`);
  const result = await client.listIntakes(sent).catch((error: unknown) => {
    throw tooManyIntakes(error, window);
  });
  if (!ctx.json) warnUnreadable(ctx, result.unreadable);
  const intakes = result.data.intakes_list;
  if (!ctx.json && intakes.length === 0 && result.unreadable.length === 0) {
    ctx.info(`no intakes of ${describeWindow(window, false)}`);
    return 0;
  }
  await ctx.print({
    jsonBody: result.raw,
    text: async (stream, color) => {
      const { renderIntakeList, renderPeriodTotals } = await import("../../output/intake.js");
      const heading = stream.isTTY ? windowHeading(window, stream.columns ?? 80) : "";
      // The period's totals, as the answer gives them: under the table on a terminal; piped, rows stay one per intake (--json has them).
      const totals = stream.isTTY ? readPeriodTotals(result.data) : null;
      const table = renderIntakeList(intakes, stream, color, { zone, unreadable: result.unreadable });
      return heading + table + (totals ? `\n${renderPeriodTotals(totals, stream, color)}` : "");
    },
    paged: true,
  });
  return 0;
}
