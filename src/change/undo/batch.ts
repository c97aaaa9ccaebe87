/**
 * `undo --batch`: the applied lines of one `intake apply` run, last line first, different
 * intakes at once, each result handed to the caller's output as it comes. Ctrl-C or a closed stdout stops
 * it between entries; the same command run again finishes the rest: what the journal shows undone
 * (and the intake still shows) is "already undone" and nothing is sent for it.
 */
import { runInLanes } from "../../batch/lanes.js";
import { resultError } from "../../batch/results.js";
import { CliError, rejectedError, toCliError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import type { IntakeState } from "../../journal/state.js";
import { describeOverwritten } from "../../output/changeResult.js";
import type { UndoResult, UndoStatus, UndoSummary } from "../../output/undo.js";
import type { Intake } from "../../records/intake.js";
import { changesOf, stopsEveryChange, type BatchOutput } from "../batch/run.js";
import { alreadyUndoneIn, type AlreadyUndone } from "./resume.js";
import * as steps from "./steps.js";
import type { UndoRun } from "./steps.js";

/** Thrown before an undo is sent when the run stopped meanwhile. */
class NotSent extends Error {}

export interface BatchState extends UndoSummary {
  /** The first refusal or failure, and whether all share its exit code: the exit code when nothing was undone. */
  first: CliError | null;
  mixed: boolean;
  /** --dry-run: each intake as the undos shown so far would leave it (a dry run changes nothing). */
  dryRunStates: Map<number, IntakeState>;
}

function newState(targets: readonly JournalEntry[]): BatchState {
  return {
    batchId: targets[0]?.batch_id ?? null,
    entries: targets.length,
    undone: 0,
    alreadyUndone: 0,
    refused: 0,
    failed: 0,
    overwritten: 0,
    dryRun: 0,
    notDone: 0,
    elapsedMs: 0,
    stopped: null,
    first: null,
    mixed: false,
    dryRunStates: new Map(),
  };
}

/**
 * Undoes the targets, last line first: entries of different intakes `concurrency` at a time,
 * those of one intake one after another in the order given, on the batch runner's lanes
 * (docs/journal.md, undo --batch); stops between entries on Ctrl-C (`signal`) or when the output
 * cannot go on.
 */
export async function runUndoBatch<O extends BatchOutput<UndoResult>>(
  single: UndoRun,
  journal: readonly JournalEntry[],
  targets: JournalEntry[],
  openOutput: (stop: () => void) => O,
  options: { signal: AbortSignal; concurrency: number },
): Promise<{ state: BatchState; results: UndoResult[]; output: O }> {
  const { signal } = options;
  // Ctrl-C stops the batch between entries; the undos in flight are finished and reported (only a read before one is cut).
  const run: UndoRun = { ...single, client: single.client.derive({ signal: undefined }) };
  const state = newState(targets);
  const started = performance.now();
  const output = openOutput(() => {
    if (state.stopped !== "interrupted") state.stopped = "output_closed";
  });
  const onAbort = () => (state.stopped = "interrupted");
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  const alreadyUndone = alreadyUndoneIn(journal, targets);
  const results: UndoResult[] = [];
  try {
    await runInLanes<Intake>({
      count: targets.length,
      // A dry run sends nothing: one at a time keeps its output in order, and each entry sees the states the ones before would leave.
      concurrency: run.dryRun ? 1 : options.concurrency,
      keyOf: (index) => targets[index]!.image_id,
      stopped: () => state.stopped !== null,
      work: async (index, known) => {
        const done = await undoEntry(run, state, targets[index]!, alreadyUndone, known, signal);
        if (done === null) return undefined;
        results.push(done.result);
        await output.write(done.result);
        output.progress(results.length, state.refused + state.failed + state.overwritten);
        return done.now;
      },
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
    output.close();
  }
  state.notDone = targets.length - results.length;
  state.elapsedMs = performance.now() - started;
  return { state, results, output };
}

/**
 * One entry's undo as a result, and the intake as it was last read (for the next entry of the
 * lane); null when the run stopped before it was sent.
 */
async function undoEntry(
  run: UndoRun,
  state: BatchState,
  entry: JournalEntry,
  alreadyUndone: AlreadyUndone,
  known: Intake | undefined,
  signal: AbortSignal,
): Promise<{ result: UndoResult; now: Intake | undefined } | null> {
  const result = (status: UndoStatus): UndoResult => {
    state[status === "already_undone" ? "alreadyUndone" : status === "dry_run" ? "dryRun" : status]++;
    return { journal_id: entry.id, image_id: entry.image_id, status, batch_id: entry.batch_id ?? null };
  };
  const problem = (status: UndoStatus, error: CliError): UndoResult => {
    state.first ??= error;
    if (error.exitCode !== state.first.exitCode) state.mixed = true;
    if (stopsEveryChange(error)) state.stopped ??= "failure";
    return { ...result(status), error: resultError(error) };
  };
  let sent = false;
  let now: Intake | undefined;
  try {
    const action = steps.planEntryUndo(entry);
    const ready = await steps.readForUndo(run, entry, action, known, signal);
    now = ready.current;
    if (alreadyUndone(entry, action, ready.state)) return { result: result("already_undone"), now };
    try {
      steps.refuseOverwritten(run, ready);
    } catch (error) {
      return { result: problem("overwritten", toCliError(error)), now };
    }
    steps.refuseUnknownAfter(run, entry);
    // A later entry of an intake is checked against the state the earlier dry-run undos would leave.
    const simulated = state.dryRunStates.get(entry.image_id);
    steps.refuseChangedSince(run, simulated ? { ...ready, state: simulated } : ready);
    const outcome = await steps.sendUndo(run, ready, () => {
      if (state.stopped !== null) throw new NotSent();
      sent = !run.dryRun;
    });
    // The intake holds the entry's before values already: nothing was sent (src/intake/unchanged.ts).
    if (outcome.noChange) return { result: result("already_undone"), now };
    if (outcome.dryRun) {
      if (entry.before) state.dryRunStates.set(entry.image_id, entry.before);
      return { result: { ...result("dry_run"), request: outcome.dryRun }, now };
    }
    now = outcome.after ?? undefined;
    const journalId = outcome.journalId ? { undo_journal_id: outcome.journalId } : {};
    if (outcome.overwritten.length) {
      const error = rejectedError(describeOverwritten(entry.image_id, outcome.overwritten));
      return { result: { ...problem("overwritten", error), ...journalId }, now };
    }
    steps.refuseNotBack(entry, action, outcome);
    const changed = changesOf(outcome.diff);
    return { result: { ...result("undone"), ...journalId, ...(changed ? { changed } : {}) }, now };
  } catch (caught) {
    const error = toCliError(caught);
    // Stopped before its undo went out (Ctrl-C cut the read before it): not done, as an entry never started.
    if (caught instanceof NotSent || (!sent && state.stopped === "interrupted" && error.code === "interrupted")) return null;
    // Refused: worked out here, before anything was sent (exit 7 without an HTTP status).
    const refused = !sent && error.code === "rejected" && error.status === undefined;
    // What was read stays good for the next entry of the lane only when nothing was sent.
    return { result: problem(refused ? "refused" : "failed", error), now: refused ? now : undefined };
  }
}
