/**
 * The run of a smoke check (docs/smoke.md): its steps in order, the provisional and final reports,
 * and the error it ends with: the first failed step's, the restore's when the restore failed, or an
 * interrupted one after Ctrl-C or SIGTERM, whatever step it hit.
 */
import { lstatSync } from "node:fs";
import { CliError, errorJson, EXIT, interruptedError, toCliError } from "../../errors.js";
import { writeFileAtomic } from "../../files.js";
import { renderJunit, type SmokeReport, type SmokeStepReport } from "../../output/smoke.js";
import { redactSecrets } from "../../secrets.js";
import { authStep, changeStep, displayImageStep, historyStep, readStep, restoreStep, STEP_NAMES } from "./steps.js";
import type { SmokeState, StepName, StepOutcome } from "./steps.js";

interface StepRun {
  report: SmokeStepReport;
  error: CliError | null;
}

/**
 * After a failure the later steps are skipped, except the restore, which runs whenever a change may
 * have reached the server. With `provisionalReport`, a report naming the next step as unfinished is
 * written there before each step. The report's restoreFailed is left for the caller to word.
 */
export async function runSmoke(state: SmokeState, provisionalReport?: string): Promise<{ report: SmokeReport; error: CliError | null }> {
  const { ctx, imageId } = state;
  const startedAt = new Date(ctx.now()).toISOString();
  const cleanup = watchInterrupt(state);
  // What a CI job collects if the process is killed during a step: written only where a file is (or none yet), not a link, a pipe or a device.
  const beforeStep = (done: StepRun[], next: StepName) => {
    try {
      if (provisionalReport !== undefined && (lstatSync(provisionalReport, { throwIfNoEntry: false })?.isFile() ?? true))
        writeFileAtomic(provisionalReport, renderJunit(unfinishedReport(state, startedAt, done, next)), { mode: 0o644 });
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
  const failed = runs.find((run) => run.report.step === "restore")?.error ?? runs.find((run) => run.error !== null)?.error ?? null;
  const interrupted = ctx.signal.aborted;
  const report: SmokeReport = {
    imageId,
    passed: failed === null && !interrupted,
    exitCode: interrupted ? EXIT.interrupted : (failed?.exitCode ?? 0),
    steps: runs.map((run) => run.report),
    restoreFailed: null,
    startedAt,
    signalDuring: state.signalDuring ?? null,
  };
  if (interrupted) return { report, error: interruptedSmoke(state, runs) };
  if (failed === null) return { report, error: null };
  const step = runs.find((run) => run.error === failed)!.report.step;
  const message = `smoke check of intake ${imageId} failed at step "${step}": ${failed.message}`;
  return { report, error: new CliError(failed.code, failed.exitCode, message, { status: failed.status, hint: finalHint(runs, failed) }) };
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

/** The error of an interrupted check: the step the signal came in (as the JUnit report names it), and whether the intake is back as it was. */
function interruptedSmoke(state: SmokeState, runs: StepRun[]): CliError {
  const hit = runs.find((run) => run.report.result === "interrupted") ?? runs.find((run) => run.report.detail === INTERRUPTED);
  const step = state.signalDuring ?? hit?.report.step;
  const where = step ? ` at step "${step}"` : "";
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
  await next("auth", authStep);
  await next("read", readStep);
  await next("history", historyStep);
  if (state.options.readOnly) {
    for (const name of ["change", "restore", "display image"] as const) runs.push(skipped(name, "--read-only"));
    return runs;
  }
  await next("change", changeStep);
  // The restore runs whenever the change may have been applied, failure or interruption or not.
  runs.push(state.changeSent ? await run("restore", () => restoreStep(state)) : skipped("restore", "no change was sent"));
  state.restored = true;
  await next("display image", displayImageStep);
  return runs;
}

const UNFINISHED = "the smoke check ended during this step: killed, or stopped by a second Ctrl-C or SIGTERM";

/** The report as it stands before `next` runs: the steps done, `next` unfinished, the rest not run. */
function unfinishedReport({ imageId, options }: SmokeState, startedAt: string, done: StepRun[], next: StepName): SmokeReport {
  const names = new Set<string>(done.map((run) => run.report.step).concat(next));
  const error = { code: "interrupted" as const, exit_code: EXIT.interrupted, status: null, message: UNFINISHED, hint: null };
  const rest = STEP_NAMES.filter((name) => !names.has(name)).map(
    (name) =>
      skipped(name, options.readOnly && ["change", "restore", "display image"].includes(name) ? "--read-only" : "did not run").report,
  );
  const unfinished: SmokeStepReport = { step: next, result: "interrupted", ms: 0, detail: UNFINISHED, error };
  const steps = [...done.map((run) => run.report), unfinished, ...rest];
  return { imageId, passed: false, exitCode: EXIT.interrupted, steps, restoreFailed: null, startedAt };
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
