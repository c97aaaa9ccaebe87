/** How a single changing command reports: dry run, --json intake, or the before → after. */
import type { UpdateOutcome } from "../change/pipeline.js";
import type { Context } from "../context.js";
import { EXIT, rejectedError } from "../errors.js";

export async function reportChange(ctx: Context, outcome: UpdateOutcome, options: { strict: boolean; action: string }): Promise<number> {
  const { describeIgnored, renderDryRun, renderDiff } = await import("../output/changeResult.js");
  const dryRun = outcome.dryRun;
  if (dryRun) {
    await ctx.print({ jsonBody: renderDryRun(dryRun, true), text: () => renderDryRun(dryRun, false), note: "dry run: nothing was sent" });
    return EXIT.ok;
  }
  if (outcome.ignored.length) ctx.warn(describeIgnored(outcome.imageId, outcome.ignored));
  const diff = outcome.diff;
  const json =
    outcome.afterRaw !== null
      ? { jsonBody: outcome.afterRaw }
      : { json: { image_id: outcome.imageId, status: "applied", verified: false, response: outcome.response ?? null } };
  if (!diff) await ctx.print({ ...json, note: `${options.action} sent for intake ${outcome.imageId} (not verified: --no-verify)` });
  else
    await ctx.print({
      ...json,
      text: (stream, color) => renderDiff(diff, stream, color),
      ...(!diff.changed && !ctx.io.stdout.isTTY && { note: `intake ${outcome.imageId}: no change` }),
    });
  if (options.strict && outcome.ignored.length) {
    throw rejectedError(`intake ${outcome.imageId}: requested modifiers did not take effect (--strict)`);
  }
  return EXIT.ok;
}
