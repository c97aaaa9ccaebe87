/**
 * `undo --batch`: the applied lines of one `intake apply` run, last line first, one after another. Ctrl-C or a closed stdout
 * stops it between entries; run again, it finishes the rest: what the journal shows undone (and the intake still shows) is
 * "already undone" and nothing is sent for it.
 */
import { CliError, toCliError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import type { IntakeState } from "../../journal/state.js";
import type { UndoResult, UndoStatus, UndoSummary } from "../../output/undo.js";
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
    dryRun: 0,
    notDone: 0,
    elapsedMs: 0,
    stopped: null,
    first: null,
    mixed: false,
    dryRunStates: new Map(),
  };
}

/** Undoes the targets, last line first; stops between entries on Ctrl-C (`signal`) or when the output cannot go on. */
export async function runUndoBatch<O extends BatchOutput<UndoResult>>(
  single: UndoRun,
  journal: readonly JournalEntry[],
  targets: JournalEntry[],
  openOutput: (stop: () => void) => O,
  signal: AbortSignal,
): Promise<{ state: BatchState; results: UndoResult[]; output: O }> {
  // Ctrl-C stops the batch between entries; the undo in flight is finished and reported.
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
    for (const entry of targets) {
      if (state.stopped !== null) break;
      const result = await undoEntry(run, state, entry, alreadyUndone);
      if (result === null) break;
      results.push(result);
      await output.write(result);
      output.progress(results.length, state.refused + state.failed);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    output.close();
  }
  state.notDone = targets.length - results.length;
  state.elapsedMs = performance.now() - started;
  return { state, results, output };
}

/** One entry's undo as a result; null when the run stopped before it was sent. */
async function undoEntry(run: UndoRun, state: BatchState, entry: JournalEntry, alreadyUndone: AlreadyUndone): Promise<UndoResult | null> {
  const result = (status: UndoStatus): UndoResult => {
    state[status === "already_undone" ? "alreadyUndone" : status === "dry_run" ? "dryRun" : status]++;
    return { journal_id: entry.id, image_id: entry.image_id, status, batch_id: entry.batch_id ?? null };
  };
  let sent = false;
  try {
    const action = steps.planEntryUndo(entry);
    const ready = await steps.readForUndo(run, entry, action);
    if (alreadyUndone(entry, action, ready.state)) return result("already_undone");
    steps.refuseUnknownAfter(run, entry);
    // A later entry of an intake is checked against the state the earlier dry-run undos would leave.
    const simulated = state.dryRunStates.get(entry.image_id);
    steps.refuseChangedSince(run, simulated ? { ...ready, state: simulated } : ready);
    const outcome = await steps.sendUndo(run, ready, () => {
      if (state.stopped !== null) throw new NotSent();
      sent = !run.dryRun;
    });
    if (outcome.dryRun) {
      if (entry.before) state.dryRunStates.set(entry.image_id, entry.before);
      return { ...result("dry_run"), request: outcome.dryRun };
    }
    steps.refuseNotBack(entry, action, outcome);
    const changed = changesOf(outcome.diff);
    return {
      ...result("undone"),
      ...(outcome.journalId ? { undo_journal_id: outcome.journalId } : {}),
      ...(changed ? { changed } : {}),
    };
  } catch (caught) {
    if (caught instanceof NotSent) return null;
    const error = toCliError(caught);
    // Refused: worked out here, before anything was sent (exit 7 without an HTTP status).
    const refused = !sent && error.code === "rejected" && error.status === undefined;
    state.first ??= error;
    if (error.exitCode !== state.first.exitCode) state.mixed = true;
    if (stopsEveryChange(error)) state.stopped ??= "failure";
    return {
      ...result(refused ? "refused" : "failed"),
      error: { code: error.code, exit_code: error.exitCode, status: error.status ?? null, message: error.message },
    };
  }
}
