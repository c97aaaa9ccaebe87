/**
 * `foodctl smoke <image_id>`: checks the intake API end to end on one intake and leaves it as it
 * was found. Steps run in order; after a failure the rest are skipped, except the restore,
 * which runs whenever a change may have reached the server. Exit code: the first failed step's,
 * or the restore's when the restore failed; 130 after Ctrl-C or SIGTERM, whatever step it hit.
 */
import { fstatSync, lstatSync, statSync } from "node:fs";
import type { Context } from "../../context.js";
import { CliError, errorJson, EXIT, failure, interruptedError, toCliError } from "../../errors.js";
import { writeFileAtomic } from "../../files.js";
import { buildRestoreFields, describeState } from "../../intake/editable.js";
import { readItems } from "../../intake/items.js";
import type { RestoreFailure, SmokeReport, SmokeStepReport } from "../../output/smoke.js";
import { redactSecrets } from "../../secrets.js";
import { jsonLine, shellQuote } from "../../sanitize.js";
import { parseImageIdArg } from "../args.js";
import { checkReportPath } from "./reportFile.js";
import * as steps from "../../change/smoke.js";
import type { SmokeOptions, SmokeState, StepName, StepOutcome } from "../../change/smoke.js";
import { openJournal } from "../journaled.js";

/** What the command line gives `foodctl smoke` (declared in ./index.ts). */
export interface SmokeInput {
  imageId: string;
  readOnly: boolean;
  displayImage: boolean;
  force: boolean;
  junit: string | undefined;
}

interface StepRun {
  report: SmokeStepReport;
  error: CliError | null;
}

export async function smokeCommand(ctx: Context, input: SmokeInput): Promise<number> {
  const imageId = parseImageIdArg(input.imageId);
  const junit = input.junit;
  const smokeOptions: SmokeOptions = { readOnly: input.readOnly, displayImage: input.displayImage, force: input.force };
  if (junit !== undefined) await checkReportPath(junit);
  ctx.apiUrl(); // a missing or refused API URL is a usage error (exit 2), not a failed step

  const startedAt = new Date(ctx.now()).toISOString();
  const state: SmokeState = {
    ctx,
    openJournal: () => openJournal(ctx, "smoke"),
    imageId,
    options: smokeOptions,
    client: null,
    original: null,
    change: null,
    changeSent: false,
    changeVerified: false,
  };
  const cleanup = watchInterrupt(state);
  const output = await import("../../output/smoke.js");
  // Before each step, a report that says it did not finish: what a CI job collects if the process is killed there.
  const provisional = junit !== undefined && provisionalReportFits(junit) ? junit : undefined;
  const beforeStep = (done: StepRun[], next: StepName) => {
    if (provisional === undefined) return;
    const report = unfinishedReport(imageId, startedAt, done, next, smokeOptions.readOnly);
    try {
      writeFileAtomic(provisional, output.renderJunit(report), { mode: 0o644 });
    } catch {
      // The final write says what is wrong with the file.
    }
  };
  let runs: StepRun[];
  try {
    runs = await runSteps(state, beforeStep);
  } finally {
    cleanup.stop();
  }
  const restore = runs.find((run) => run.report.step === "restore");
  const failed = restore?.error ?? runs.find((run) => run.error !== null)?.error ?? null;
  const interrupted = ctx.signal.aborted;
  const report: SmokeReport = {
    imageId,
    passed: failed === null && !interrupted,
    exitCode: interrupted ? EXIT.interrupted : (failed?.exitCode ?? 0),
    steps: runs.map((run) => run.report),
    restoreFailed: restore?.error && state.original ? describeRestore(ctx, state) : null,
    startedAt,
    signalDuring: state.signalDuring ?? null,
  };
  await ctx.print({ jsonBody: output.renderSmokeJson(report), text: (stream, color) => output.renderSmokeSteps(report, stream, color) });
  if (report.restoreFailed) ctx.io.stderr.write(output.renderRestoreFailure(imageId, report.restoreFailed, ctx.io.color.stderr));
  if (junit !== undefined) writeReport(ctx, junit, output.renderJunit(report), failed !== null || interrupted);
  if (interrupted) throw interruptedSmoke(state, runs);
  if (failed === null) return 0;
  const step = runs.find((run) => run.error === failed)!.report.step;
  throw new CliError(failed.code, failed.exitCode, `smoke check of intake ${imageId} failed at step "${step}": ${failed.message}`, {
    status: failed.status,
    hint: finalHint(runs, failed),
  });
}

/**
 * On Ctrl-C or SIGTERM: says at once when the intake is changed and is being put back, and gives
 * the restore (and the display image's removal) the request time limit to finish, then ends them.
 */
function watchInterrupt(state: SmokeState): { stop: () => void } {
  const { ctx } = state;
  const controller = new AbortController();
  state.cleanupSignal = controller.signal;
  let cancelDeadline = () => {};
  const onAbort = () => {
    state.signalDuring ??= state.running;
    const timeoutMs = ctx.settings().timeoutSeconds * 1000;
    cancelDeadline = ctx.clock.deadline(timeoutMs, () => controller.abort());
    if (!state.changeSent || state.restored || ctx.json) return;
    const undo = state.changeEntry ? `: undo it then with \`foodctl undo ${state.changeEntry}\`` : "";
    ctx.info(
      `interrupted: putting intake ${state.imageId} back first (at most ${timeoutMs / 1000} s); a second Ctrl-C stops at once and leaves it changed${undo}`,
    );
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    stop: () => {
      ctx.signal.removeEventListener("abort", onAbort);
      cancelDeadline();
    },
  };
}

/** The error of an interrupted check: the step it hit, and whether the intake is back as it was. */
function interruptedSmoke(state: SmokeState, runs: StepRun[]): CliError {
  const hit = runs.find((run) => run.report.result === "interrupted") ?? runs.find((run) => run.report.detail === INTERRUPTED);
  const where = hit ? ` at step "${hit.report.step}"` : "";
  const restore = runs.find((run) => run.report.step === "restore")?.report;
  let hint: string | undefined;
  if (restore?.result === "passed") hint = `restore passed: ${restore.detail}`;
  else if (state.changeSent && restore?.result !== "skipped") {
    hint = state.changeEntry
      ? `the restore was cut short: intake ${state.imageId} may be left changed; undo the smoke check's change with \`foodctl undo ${state.changeEntry}\``
      : `the restore was cut short: intake ${state.imageId} may be left changed (see above how to put it back)`;
  }
  return interruptedError(`smoke check of intake ${state.imageId} interrupted${where}`, { hint });
}

const INTERRUPTED = "interrupted";

async function runSteps(state: SmokeState, beforeStep: (done: StepRun[], next: StepName) => void): Promise<StepRun[]> {
  const runs: StepRun[] = [];
  const anyFailed = () => runs.some((run) => run.error !== null);
  const run = async (name: StepName, body: () => Promise<StepOutcome>) => {
    beforeStep(runs, name);
    state.running = name;
    try {
      return await timed(state, name, body);
    } finally {
      state.running = undefined;
    }
  };
  const next = async (name: StepName, body: (state: SmokeState) => Promise<StepOutcome>) => {
    if (state.ctx.signal.aborted) runs.push(skipped(name, INTERRUPTED));
    else if (anyFailed()) runs.push(skipped(name, "an earlier step failed"));
    else runs.push(await run(name, () => body(state)));
  };
  await next("auth", steps.authStep);
  await next("read", steps.readStep);
  await next("history", steps.historyStep);
  if (state.options.readOnly) {
    for (const name of ["change", "restore", "display image"] as const) runs.push(skipped(name, "--read-only"));
    return runs;
  }
  await next("change", steps.changeStep);
  // The restore runs whenever the change may have been applied, failure or interruption or not.
  runs.push(state.changeSent ? await run("restore", () => steps.restoreStep(state)) : skipped("restore", "no change was sent"));
  state.restored = true;
  await next("display image", steps.displayImageStep);
  return runs;
}

/** Where a report can be written before the run ends: a file (or none yet), not a link, a pipe, a device or /dev/stdout. */
function provisionalReportFits(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return true;
  }
}

const UNFINISHED = "the smoke check ended during this step: killed, or stopped by a second Ctrl-C or SIGTERM";

/** The report as it stands before `next` runs: the steps done, `next` unfinished, the rest not run. */
function unfinishedReport(imageId: number, startedAt: string, done: StepRun[], next: StepName, readOnly: boolean): SmokeReport {
  const names = new Set<string>(done.map((run) => run.report.step).concat(next));
  const error = { code: "interrupted" as const, exit_code: EXIT.interrupted, status: null, message: UNFINISHED, hint: null };
  const rest = steps.STEP_NAMES.filter((name) => !names.has(name)).map(
    (name) => skipped(name, readOnly && ["change", "restore", "display image"].includes(name) ? "--read-only" : "did not run").report,
  );
  const unfinished: SmokeStepReport = { step: next, result: "interrupted", ms: 0, detail: UNFINISHED, error };
  return {
    imageId,
    passed: false,
    exitCode: EXIT.interrupted,
    steps: [...done.map((run) => run.report), unfinished, ...rest],
    restoreFailed: null,
    startedAt,
  };
}

function skipped(step: StepName, detail: string): StepRun {
  return { report: { step, result: "skipped", ms: 0, detail, error: null }, error: null };
}

async function timed(state: SmokeState, step: StepName, body: () => Promise<StepOutcome>): Promise<StepRun> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const mask = (text: string) => redactSecrets(text, [state.ctx.io.env.FOODCTL_TOKEN]);
  try {
    const outcome = await body();
    if (typeof outcome !== "string")
      return { report: { step, result: "skipped", ms: ms(), detail: mask(outcome.skip), error: null }, error: null };
    return { report: { step, result: "passed", ms: ms(), detail: mask(outcome), error: null }, error: null };
  } catch (thrown) {
    const error = toCliError(thrown);
    // Cut short by Ctrl-C or SIGTERM (or, after one, by the restore's time limit): said as such, not as a failure of the API.
    const result = error.code === "interrupted" ? "interrupted" : "failed";
    // The one JSON form of an error, masked, without the service's code (docs/smoke.md names the rest).
    const { service_code: _serviceCode, ...summary } = errorJson(error, mask);
    return { report: { step, result, ms: ms(), detail: summary.message, error: summary }, error };
  }
}

/** The hint under the final error: the restore's news matters most when a change failed. */
function finalHint(runs: StepRun[], failed: CliError): string | undefined {
  const restore = runs.find((run) => run.report.step === "restore")?.report;
  if (failed.code !== "usage" && restore?.result === "passed" && restore.detail.startsWith("not needed"))
    return `restore ${restore.detail}`;
  return failed.hint;
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

/**
 * Atomic, so a reader never sees half a report; readable by the CI job that collects it. A pipe
 * or a device is written in place (writeFileAtomic), the run's own stdout after the rows.
 */
function writeReport(ctx: Context, path: string, xml: string, alreadyFailed: boolean): void {
  try {
    if (isOwnStdout(ctx, path)) ctx.io.stdout.write(xml);
    else writeFileAtomic(path, xml, { mode: 0o644 });
  } catch (error) {
    const message = `could not write the JUnit report ${path}: ${(error as Error).message}`;
    if (alreadyFailed) ctx.warn(message);
    else throw failure(message);
  }
}
