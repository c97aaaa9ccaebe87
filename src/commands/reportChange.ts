/** How a single changing command reports: dry run, --json intake, or the before → after. */
import type { UpdateOutcome } from "../change/pipeline.js";
import type { Context } from "../context.js";
import { CliError, EXIT, rejectedError } from "../errors.js";

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
    const { curlCommand, tokenReference } = await import("../output/curl.js");
    ctx.printRaw(curlCommand({ request: outcome.dryRun, uploadPath: options.uploadPath }, tokenReference(ctx)));
    if (outcome.wouldBeRefused) throw wouldBeRefused(outcome.wouldBeRefused);
    if (options.uploadPath === "-") ctx.info("the curl command reads the image from its stdin: pipe the image into it");
    ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  const { describeIgnored, describeOthersChanged, describeOverwritten, renderDryRun, renderDiff } =
    await import("../output/changeResult.js");
  const dryRun = outcome.dryRun;
  if (dryRun) {
    const note = outcome.wouldBeRefused ? undefined : "dry run: nothing was sent";
    await ctx.print({ jsonBody: renderDryRun(dryRun, true), text: () => renderDryRun(dryRun, false), ...(note && { note }) });
    if (outcome.wouldBeRefused) throw wouldBeRefused(outcome.wouldBeRefused);
    return EXIT.ok;
  }
  if (outcome.ignored.length) ctx.warn(describeIgnored(outcome.imageId, outcome.ignored));
  if (outcome.othersChanged.length) ctx.warn(describeOthersChanged(outcome.imageId, outcome.othersChanged));
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
