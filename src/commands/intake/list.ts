import type { Context } from "../../context.js";
import { MAX_RESPONSE_BYTES } from "../../api/client.js";
import { readPeriodTotals } from "../../api/answers.js";
import { TransportError } from "../../api/transport.js";
import { CliError, failure, usageError } from "../../errors.js";
import { formatApiDateTime, windowToSend, type SentWindow } from "../../intake/dates.js";
import { describeWindow, windowHeading } from "../../output/time.js";

export interface ListOptions {
  from?: unknown;
  to?: unknown;
  days?: number | undefined;
  language?: unknown;
}

/** Flags to the window sent, refused (exit 2, nothing sent) when they cannot make one; `instant` is the real now. */
export async function historyWindowFrom(options: ListOptions, instant: number, zone: string | null) {
  const clockZone = zone ?? "UTC";
  const { readDateOption, wallOf } = await import("../dateOption.js");
  // How a date that could be read two ways was read, for stderr.
  const notes: string[] = [];
  const read = (flag: string, text: unknown, edge: "start" | "end") => {
    if (typeof text !== "string") return undefined;
    const reading = readDateOption(flag, text, edge, clockZone, instant);
    if (reading.note) notes.push(`${flag} ${reading.note}`);
    return wallOf(reading, clockZone);
  };
  const input = { from: read("--from", options.from, "start"), to: read("--to", options.to, "end"), days: options.days };
  const window = windowToSend(input, wallOf({ instant: Math.floor(instant / 1000) * 1000 }, clockZone), zone);
  if ("problem" in window) throw usageError(window.problem, { hint: "nothing was sent" });
  return { ...window, notes };
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
