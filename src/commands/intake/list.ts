import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { parseApiDateTime, toApiDateTime } from "../../intake/dates.js";
import { jsonBody } from "../../output/sanitize.js";

function convert(flag: string, text: string | undefined, edge: "start" | "end"): string | undefined {
  if (text === undefined) return undefined;
  const converted = toApiDateTime(text, edge);
  if (converted === null) throw usageError(`${flag} must be a date (YYYY-MM-DD) or an ISO 8601 time, got "${text}"`);
  return converted;
}

export async function listCommand(ctx: Context, options: { from?: string | undefined; to?: string | undefined }): Promise<number> {
  const from = convert("--from", options.from, "start");
  const to = convert("--to", options.to, "end");
  if (from && to && parseApiDateTime(from)! > parseApiDateTime(to)!) throw usageError(`--from (${options.from}) is after --to (${options.to})`);
  const client = await ctx.client();
  const result = await client.listIntakes({ from, to });
  if (ctx.json) {
    ctx.io.stdout.write(jsonBody(result.raw));
    return 0;
  }
  const intakes = result.data.intakes_list;
  if (intakes.length === 0) {
    ctx.info("no intakes in this range");
    return 0;
  }
  const { renderIntakeList } = await import("../../output/intake.js");
  ctx.io.stdout.write(renderIntakeList(intakes, ctx.io.stdout, ctx.io.color.stdout));
  return 0;
}
