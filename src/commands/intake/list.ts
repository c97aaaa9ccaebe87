import type { Context } from "../../context.js";
import { MAX_RESPONSE_BYTES } from "../../api/client.js";
import { TransportError } from "../../api/transport.js";
import { CliError, failure, usageError } from "../../errors.js";
import { formatApiDateTime, formatDateTime, MAX_WINDOW_DAYS, resolveHistoryWindow, type HistoryWindow } from "../../intake/dates.js";
import { parseDateOption } from "../args.js";
import { jsonBody } from "../../sanitize.js";

export interface ListOptions {
  from?: unknown;
  to?: unknown;
  days?: unknown;
}

const convert = (flag: string, text: unknown, edge: "start" | "end"): Date | undefined =>
  typeof text === "string" ? parseDateOption(flag, text, edge) : undefined;

function parseDays(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  if (!/^[1-9][0-9]{0,5}$/.test(text)) {
    // The hint only where the number was too large for a window at all.
    const tooLarge = /^[0-9]{7,}$/.test(text);
    throw usageError(`--days must be a whole number of days from 1, got "${text}"`, {
      ...(tooLarge && { hint: `windows over ${MAX_WINDOW_DAYS} days need both --from and --to` }),
    });
  }
  return Number(text);
}

/** Flags to the window sent, refused (exit 2, nothing sent) when they cannot make one. */
export function historyWindowFrom(options: ListOptions, now: Date): HistoryWindow {
  const from = convert("--from", options.from, "start");
  const to = convert("--to", options.to, "end");
  const window = resolveHistoryWindow({ from, to, days: parseDays(options.days) }, now);
  if ("problem" in window) throw usageError(window.problem, { hint: "nothing was sent" });
  return window;
}

/** The window in words, for the terminal's heading: UTC, to the minute unless seconds matter. */
export function describeWindow(window: HistoryWindow): string {
  // A --to date reaches 23:59:59, a second short of whole days: rounded to a tenth first.
  const days = Math.round((window.to.getTime() - window.from.getTime()) / 8_640_000) / 10;
  const length = Number.isInteger(days) ? `${days} day${days === 1 ? "" : "s"}` : `${days.toFixed(1)} days`;
  return `${formatDateTime(window.from)} to ${formatDateTime(window.to)} UTC (${length})`;
}

/** An answer over the client's size cap: the window holds too many intakes to read at once (exit 1, as any unreadable answer). */
function tooManyIntakes(error: unknown, window: HistoryWindow): unknown {
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

export async function listCommand(ctx: Context, options: ListOptions): Promise<number> {
  const window = historyWindowFrom(options, new Date());
  const client = await ctx.client();
  const result = await client
    .listIntakes({ from: formatApiDateTime(window.from), to: formatApiDateTime(window.to) })
    .catch((error: unknown) => {
      throw tooManyIntakes(error, window);
    });
  if (ctx.json) {
    ctx.io.stdout.write(jsonBody(result.raw));
    return 0;
  }
  const intakes = result.data.intakes_list;
  if (intakes.length === 0) {
    ctx.info(`no intakes from ${describeWindow(window)}`);
    return 0;
  }
  const { renderIntakeList } = await import("../../output/intake.js");
  if (ctx.io.stdout.isTTY) ctx.io.stdout.write(`Intakes from ${describeWindow(window)}\n`);
  ctx.io.stdout.write(renderIntakeList(intakes, ctx.io.stdout, ctx.io.color.stdout));
  return 0;
}
