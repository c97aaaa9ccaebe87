/** How a single changing command reports: dry run, --json intake, or the before → after. */
import type { UpdateOutcome } from "../change/pipeline.js";
import type { Context } from "../context.js";
import { EXIT, rejectedError } from "../errors.js";
import { jsonBody, jsonDocument } from "../sanitize.js";

export interface ReportOptions {
  strict: boolean;
  action: string;
  /** `--curl`: a dry run's request as a curl command. */
  curl?: boolean;
  /** The file a display image's curl command uploads (`-`: stdin). */
  uploadPath?: string;
}

export async function reportChange(ctx: Context, outcome: UpdateOutcome, options: ReportOptions): Promise<number> {
  if (outcome.dryRun && options.curl) {
    const { curlCommand, tokenReference } = await import("./curl.js");
    ctx.io.stdout.write(curlCommand({ request: outcome.dryRun, uploadPath: options.uploadPath }, tokenReference(ctx)));
    if (options.uploadPath === "-") ctx.info("the curl command reads the image from its stdin: pipe the image into it");
    ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
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
