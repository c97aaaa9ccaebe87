/** How a single changing command reports: dry run, --json intake, or the before → after. */
import type { UpdateOutcome } from "../change/pipeline.js";
import type { Context } from "../context.js";
import { EXIT, rejectedError } from "../errors.js";
import { jsonBody, jsonDocument } from "../sanitize.js";

export async function reportChange(ctx: Context, outcome: UpdateOutcome, options: { strict: boolean; action: string }): Promise<number> {
  const { describeIgnored, renderDryRun, renderDiff } = await import("../output/changeResult.js");
  if (outcome.dryRun) {
    ctx.io.stdout.write(renderDryRun(outcome.dryRun, ctx.json));
    if (!ctx.json) ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  if (outcome.ignored.length) ctx.warn(describeIgnored(outcome.imageId, outcome.ignored));
  if (ctx.json) {
    if (outcome.afterRaw !== null) ctx.io.stdout.write(jsonBody(outcome.afterRaw));
    else
      ctx.io.stdout.write(
        jsonDocument({ image_id: outcome.imageId, status: "applied", verified: false, response: outcome.response ?? null }),
      );
  } else if (outcome.diff) {
    ctx.io.stdout.write(renderDiff(outcome.diff, ctx.io.stdout, ctx.io.color.stdout));
    if (!outcome.diff.changed && !ctx.io.stdout.isTTY) ctx.info(`intake ${outcome.imageId}: no change`);
  } else {
    ctx.info(`${options.action} sent for intake ${outcome.imageId} (not verified: --no-verify)`);
  }
  if (options.strict && outcome.ignored.length) {
    throw rejectedError(`intake ${outcome.imageId}: requested modifiers did not take effect (--strict)`);
  }
  return EXIT.ok;
}
