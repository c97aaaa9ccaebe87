/**
 * `foodctl smoke <image_id>`: checks the intake API end to end on one intake and leaves it as it
 * was found (the check: src/change/smoke/). Prints the steps, then writes the JUnit report.
 */
import { fstatSync, statSync } from "node:fs";
import type { Context } from "../../context.js";
import { failure, usageError } from "../../errors.js";
import { writeFileAtomic } from "../../files.js";
import { buildRestoreFields, describeState } from "../../intake/editable.js";
import { readItems } from "../../intake/items.js";
import { renderJunit, renderRestoreFailure, renderSmokeJson, renderSmokeSteps, type RestoreFailure } from "../../output/smoke.js";
import { jsonLine, shellQuote } from "../../sanitize.js";
import { parseImageIdArg } from "../args.js";
import { checkReportPath } from "./reportFile.js";
import { runSmoke } from "../../change/smoke/run.js";
import type { SmokeState } from "../../change/smoke/steps.js";
import { openJournal } from "../journaled.js";

/** What the command line gives `foodctl smoke` (declared in ./index.ts). */
export interface SmokeInput {
  imageId: string;
  readOnly: boolean;
  displayImage: boolean;
  force: boolean;
  junit: string | undefined;
}

export async function smokeCommand(ctx: Context, input: SmokeInput): Promise<number> {
  const imageId = parseImageIdArg(input.imageId);
  const junit = input.junit;
  if (junit !== undefined) await checkReportPath(junit);
  // --json's stdout is one JSON document: a report there too would break every reader of it.
  if (junit !== undefined && ctx.json && isOwnStdout(ctx, junit))
    throw usageError(`--junit ${junit} is this run's stdout, which --json keeps for its one JSON document`, {
      hint: "give --junit a file (--junit smoke.xml), or leave out --json",
    });
  ctx.apiUrl(); // a missing or refused API URL is a usage error (exit 2), not a failed step

  const state: SmokeState = {
    ctx,
    openJournal: () => openJournal(ctx, "smoke"),
    imageId,
    options: { readOnly: input.readOnly, displayImage: input.displayImage, force: input.force },
  };
  const { report, error } = await runSmoke(state, junit);
  const restore = report.steps.find((step) => step.step === "restore");
  if (restore?.error && state.original) report.restoreFailed = describeRestore(ctx, state);
  const xml = junit === undefined ? "" : renderJunit(report);
  // A report to this run's own stdout follows the steps there (never --json's: refused above); any other is a file.
  const toStdout = junit !== undefined && isOwnStdout(ctx, junit);
  const after = toStdout ? xml : "";
  await ctx.print({
    jsonBody: renderSmokeJson(report),
    text: (stream, color) => renderSmokeSteps(report, stream, color) + after,
  });
  if (report.restoreFailed) ctx.io.stderr.write(renderRestoreFailure(imageId, report.restoreFailed, ctx.io.color.stderr));
  try {
    // Atomic, so a reader never sees half a report; a pipe or a device is written in place.
    if (junit !== undefined && !toStdout) writeFileAtomic(junit, xml, { mode: 0o644 });
  } catch (thrown) {
    const message = `could not write the JUnit report ${junit}: ${(thrown as Error).message}`;
    if (error === null) throw failure(message);
    ctx.warn(message);
  }
  if (error) throw error;
  return 0;
}

/** The original values and one command that sends them back (an `intake apply` line, so levels per item fit in one). */
function describeRestore(ctx: Context, state: SmokeState): RestoreFailure {
  const original = state.original!;
  const fields = buildRestoreFields(original);
  const line = jsonLine({ image_id: state.imageId, ...fields });
  const settings = ctx.settings();
  // What the run was given on its command line; the environment and the profile are there for the next command too.
  const globals = [
    ctx.globals.profile ? `--profile ${shellQuote(ctx.globals.profile)}` : "",
    settings.apiUrl?.source === "flag" ? `--api-url ${shellQuote(settings.apiUrl.value)}` : "",
    settings.user !== undefined ? `--user ${settings.user}` : "",
  ].filter(Boolean);
  const command = `echo ${shellQuote(line)} | foodctl ${[...globals, "intake apply - --format jsonl"].join(" ")}`;
  const undo = state.changeEntry ? `foodctl ${[...globals, "undo", state.changeEntry].join(" ")}` : null;
  return { original: describeState(readItems(original)), fields, command, undo };
}

/** Whether `path` is this run's own stdout (`/dev/stdout`, `/dev/fd/1`), which may be a socket no path opens. */
function isOwnStdout(ctx: Context, path: string): boolean {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (typeof fd !== "number") return false;
  try {
    const output = fstatSync(fd);
    const target = statSync(path);
    return output.dev === target.dev && output.ino === target.ino;
  } catch {
    return false;
  }
}
