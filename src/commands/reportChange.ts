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
  if (outcome.noChange || outcome.unchanged?.length) {
    const { describeUnchanged } = await import("../output/changeResult.js");
    // An edit saved unchanged names no values: it gave none that differ.
    const held = outcome.unchanged?.length
      ? describeUnchanged(outcome.imageId, outcome.unchanged)
      : `intake ${outcome.imageId} already holds every value of the edit`;
    const dryRun = outcome.noChange?.dryRun ?? outcome.dryRun !== null;
    // Nothing to send, as kubectl apply leaves an unchanged object alone (docs/cli.md, changing an intake).
    if (outcome.noChange) {
      const note = `no change: ${held}; nothing ${dryRun ? "would be" : "was"} sent`;
      if (options.curl) ctx.info(note);
      else await ctx.print({ json: noChangeDocument(outcome, dryRun), note });
      return EXIT.ok;
    }
    ctx.info(`${held}: left out of the request`);
  }
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
      text: (stream, color) => renderDiff(diff, stream, color, outcome.overwritten),
      ...(!diff.changed && !outcome.overwritten.length && !ctx.io.stdout.isTTY && { note: `intake ${outcome.imageId}: no change` }),
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

/** --json of a change with nothing to send: what the intake holds already, and that nothing was sent. */
function noChangeDocument(outcome: UpdateOutcome, dryRun: boolean): object {
  const unchanged = (outcome.unchanged ?? []).map(({ position, field, value }) => ({ position, field, value }));
  return { ...(dryRun && { dry_run: true, request: null }), image_id: outcome.imageId, status: "unchanged", changed: false, unchanged };
}

/** How a --dry-run ends when the real run would be refused for the token's role: as the real run would (exit 5). */
export function wouldBeRefused(refusal: CliError): CliError {
  return new CliError(refusal.code, refusal.exitCode, `dry run: the service would refuse this: ${refusal.message}`, {
    hint: "nothing was sent; the token's claims name its role",
  });
}
