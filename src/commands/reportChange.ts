/** How a single changing command reports: dry run, --json intake, or the before → after. */
import type { UpdateOutcome } from "../change/pipeline.js";
import type { Context } from "../context.js";
import { CliError, EXIT, rejectedError } from "../errors.js";
import { jsonBody, jsonDocument } from "../sanitize.js";

export async function reportChange(ctx: Context, outcome: UpdateOutcome, options: { strict: boolean; action: string }): Promise<number> {
  const { describeIgnored, describeOthersChanged, describeOverwritten, renderDryRun, renderDiff } =
    await import("../output/changeResult.js");
  if (outcome.dryRun) {
    ctx.io.stdout.write(renderDryRun(outcome.dryRun, ctx.json));
    if (outcome.wouldBeRefused) throw wouldBeRefused(outcome.wouldBeRefused);
    if (!ctx.json) ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  if (outcome.ignored.length) ctx.warn(describeIgnored(outcome.imageId, outcome.ignored));
  if (outcome.othersChanged.length) ctx.warn(describeOthersChanged(outcome.imageId, outcome.othersChanged));
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
  if (outcome.overwritten.length) {
    // Applied, then overwritten: like any change that did not take effect (docs/journal.md, concurrent writers).
    throw rejectedError(describeOverwritten(outcome.imageId, outcome.overwritten), {
      hint: `the journal keeps it as overwritten and undo refuses it; see the intake now with \`foodctl intake show ${outcome.imageId}\``,
    });
  }
  if (options.strict && outcome.ignored.length) {
    throw rejectedError(`intake ${outcome.imageId}: requested modifiers did not take effect (--strict)`);
  }
  return EXIT.ok;
}

/** How a --dry-run ends when the real run would be refused for the token's role: as the real run would (exit 5). */
export function wouldBeRefused(refusal: CliError): CliError {
  return new CliError(refusal.code, refusal.exitCode, `dry run: the service would refuse this: ${refusal.message}`, {
    hint: "nothing was sent; the token's claims name its role",
  });
}
