/**
 * Sending a checked batch: each change takes the single-change path (runIntakeUpdate: read,
 * pre-check, send, read again, ignored modifiers), the changes of one intake one after another
 * in file order, different intakes `--concurrency` at a time, one result per change.
 */
import type { ApiClient } from "../../api/client.js";
import type { Intake } from "../../records/intake.js";
import type { BatchChange, ChangeList } from "../../batch/changeList.js";
import { runInLanes } from "../../batch/lanes.js";
import { resultError, resultKey, type BatchResult, type ResultChange } from "../../batch/results.js";
import { runIntakeUpdate } from "../intakeUpdate.js";
import { AppliedUnverifiedError, type UpdateOutcome } from "../pipeline.js";
import { CliError, EXIT, toCliError } from "../../errors.js";
import type { IntakeDiff } from "../../intake/diff.js";
import type { BatchSummary } from "../../output/batch.js";
import type { JournalRecorder } from "../../journal/recorder.js";
import { describeIgnored, describeOverwritten } from "../../output/changeResult.js";

export interface RunOptions {
  batchId: string;
  concurrency: number;
  continueOnError: boolean;
  strict: boolean;
  dryRun: boolean;
  verify: boolean;
  /** Keys (line and image_id) an earlier run applied: --skip-applied. */
  done: Set<string> | null;
  /** Each change is journaled through the pipeline; absent with --no-journal. */
  journal?: JournalRecorder | undefined;
}

export interface BatchRun extends BatchSummary {
  /** Changes being sent right now: each has at most one request in flight. */
  inFlight: number;
  /** The first failure and whether all share its exit code: the exit code when nothing else was done. */
  firstFailure: CliError | null;
  mixedFailures: boolean;
}

/** Where a batch's results go as they come (a batch of changes or of undos). */
export interface BatchOutput<R = BatchResult> {
  /** Resolves once the result may be followed by the next (back-pressure). */
  write: (result: R) => Promise<void>;
  progress: (done: number, failed: number) => void;
  close: () => void;
}

/** Thrown from the pre-check hook when the batch stopped before this change's update was sent. */
class NotSent extends Error {}

/** A failure that no later change can escape: a refused token, an unreachable API, a rate limit not waited out. */
export function stopsEveryChange(error: CliError): boolean {
  return error.code === "auth" || (error.code === "unavailable" && (error.status === undefined || error.status === 429));
}

/** What this change moved, field by field, from the reads before and after it. */
export function changesOf(diff: IntakeDiff | null): ResultChange[] | undefined {
  if (!diff) return undefined;
  const moved: ResultChange[] = [];
  for (const item of diff.items) {
    if (!item.changed) continue;
    if (item.grams.before !== item.grams.after) moved.push({ position: item.position, field: "grams", ...item.grams });
    for (const field of ["salt", "sugar", "oil", "measures"] as const) {
      if (item[field].before !== item[field].after) moved.push({ position: item.position, field, ...item[field] });
    }
  }
  return moved;
}

/** What a lane hands on: the intake as read after a change, and for which user. */
interface Carried {
  userId: number | undefined;
  after: Intake;
}

function newRun(batchId: string, changes: number): BatchRun {
  return {
    batchId,
    changes,
    applied: 0,
    unverified: 0,
    failed: 0,
    overwritten: 0,
    unchanged: 0,
    skipped: 0,
    dryRun: 0,
    notSent: 0,
    ignoredModifiers: 0,
    changesWithIgnored: 0,
    elapsedMs: 0,
    stopped: null,
    inFlight: 0,
    firstFailure: null,
    mixedFailures: false,
  };
}

function count(run: BatchRun, result: BatchResult): void {
  if (result.status === "applied" && result.verified === false) run.unverified++;
  else if (result.status === "applied") run.applied++;
  else if (result.status === "failed") run.failed++;
  else if (result.status === "overwritten") run.overwritten++;
  else if (result.status === "unchanged") run.unchanged++;
  else if (result.status === "skipped") run.skipped++;
  else run.dryRun++;
  if (result.ignored?.length) {
    run.ignoredModifiers += result.ignored.length;
    run.changesWithIgnored++;
  }
}

/** Sends one change; null when the batch stopped before it was sent. */
async function applyChange(
  run: BatchRun,
  client: ApiClient,
  change: BatchChange,
  options: RunOptions & { precheckSignal: AbortSignal },
  carried: Carried | undefined,
) {
  const base = (status: BatchResult["status"]): BatchResult => ({
    line: change.line,
    image_id: change.imageId,
    status,
    batch_id: options.batchId,
  });
  if (run.stopped !== null) return null;
  if (options.done?.has(resultKey(change.line, change.imageId))) return { result: base("skipped"), after: undefined };
  const noteFailure = (error: CliError) => {
    run.firstFailure ??= error;
    if (error.exitCode !== run.firstFailure.exitCode) run.mixedFailures = true;
  };
  const fail = (error: CliError): BatchResult => {
    noteFailure(error);
    if (!options.continueOnError || stopsEveryChange(error)) run.stopped ??= "failure";
    return { ...base("failed"), error: resultError(error) };
  };
  let outcome: UpdateOutcome;
  try {
    const before = carried && carried.userId === change.userId ? carried.after : undefined;
    // The batch's dry run, verify, batch id and journal; the read before is the pre-check's.
    const changeOptions = { ...options, precheck: options.verify && !options.dryRun, before, reason: change.reason, checked: true };
    outcome = await runIntakeUpdate(client, change.imageId, change.fields, changeOptions, () => {
      // Read before the update: a batch that stopped meanwhile sends no more updates.
      if (run.stopped !== null) throw new NotSent();
    });
  } catch (error) {
    // Ctrl-C cut the read before its update (the one request the batch's signal reaches): not sent, as a line never started.
    if (error instanceof NotSent || (run.stopped === "interrupted" && toCliError(error).code === "interrupted")) return null;
    if (error instanceof AppliedUnverifiedError) {
      // Applied, so not a failure; the batch still stops as after one (the next read would fail the same way).
      const { error: why } = fail(error);
      const journal = error.journalId ? { journal_id: error.journalId } : {};
      return { result: { ...base("applied"), ...journal, verified: false as const, error: why! }, after: undefined };
    }
    return { result: fail(toCliError(error)), after: undefined };
  }
  const unchanged = outcome.unchanged?.length ? { unchanged: outcome.unchanged } : {};
  // Every value held already: nothing was sent or journaled (the lane goes on from the intake as read).
  if (outcome.noChange) return { result: { ...base("unchanged"), ...unchanged }, after: outcome.after ?? undefined };
  const done: BatchResult = { ...base("applied"), ...(outcome.journalId ? { journal_id: outcome.journalId } : {}), ...unchanged };
  const changed = changesOf(outcome.diff);
  if (changed) done.changed = changed;
  const after = outcome.after ?? undefined;
  if (outcome.dryRun) return { result: { ...base("dry_run"), request: outcome.dryRun }, after: undefined };
  if (outcome.overwritten.length) {
    // Applied, then overwritten: it exits 7 like a change that did not take effect, and the batch goes on (its own line was sent).
    const error = new CliError("rejected", EXIT.rejected, describeOverwritten(change.imageId, outcome.overwritten));
    noteFailure(error);
    const journalId = outcome.journalId ? { journal_id: outcome.journalId } : {};
    return { result: { ...base("overwritten"), ...journalId, error: resultError(error) }, after };
  }
  if (outcome.ignored.length === 0) return { result: done, after };
  if (!options.strict) return { result: { ...done, ignored: outcome.ignored }, after };
  const strictFailure = new CliError("rejected", EXIT.rejected, `${describeIgnored(change.imageId, outcome.ignored)} (--strict)`);
  return { result: { ...fail(strictFailure), changed, ignored: outcome.ignored }, after };
}

export interface BatchTools {
  /** The client for a change's user (the batch's own when the line names none). */
  clientFor: (userId: number | undefined) => ApiClient;
  write: BatchOutput["write"];
  progress: (done: number, failed: number) => void;
  /** Sees the run's state as it starts (a closed stdout stops it). */
  started?: (run: BatchRun) => void;
}

export async function runBatch(changes: ChangeList, options: RunOptions, tools: BatchTools, signal: AbortSignal): Promise<BatchRun> {
  const started = performance.now();
  const run = newRun(options.batchId, changes.length);
  tools.started?.(run);
  const onAbort = () => {
    run.stopped = "interrupted";
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  let finished = 0;
  try {
    await runInLanes<Carried>({
      count: changes.length,
      // A dry run makes no requests: one at a time keeps its output in file order.
      concurrency: options.dryRun ? 1 : options.concurrency,
      keyOf: (index) => changes.imageIdAt(index),
      stopped: () => run.stopped !== null,
      work: async (index, carried) => {
        const change = changes.at(index);
        run.inFlight++;
        const client = tools.clientFor(change.userId);
        const outcome = await applyChange(run, client, change, { ...options, precheckSignal: signal }, carried).finally(
          () => run.inFlight--,
        );
        if (outcome === null) return undefined;
        finished++;
        count(run, outcome.result);
        await tools.write(outcome.result);
        tools.progress(finished, run.failed);
        return outcome.after && outcome.result.status !== "failed" ? { userId: change.userId, after: outcome.after } : undefined;
      },
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  run.notSent = changes.length - finished;
  run.elapsedMs = performance.now() - started;
  return run;
}
