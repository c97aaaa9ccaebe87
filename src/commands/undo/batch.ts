/**
 * `undo --batch <results file | batch id>`: the applied lines of one `intake apply` run, last
 * line first, one after another, printed as `intake apply` prints (applyOutput.ts): a line per
 * entry above the progress bar on a terminal, tab-separated rows in a pipe, one JSON document
 * with --json, JSON Lines in --results; then the summary and the exit code. Ctrl-C or a closed
 * stdout stops it between entries; the same command run again finishes the rest: what the
 * journal shows undone (and the intake still shows) is "already undone" and nothing is sent for it.
 */
import type { Context } from "../../context.js";
import { cancelledError, CliError, EXIT, failure, interruptedError, toCliError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import type { JournalEntry } from "../../journal/entry.js";
import type { IntakeState } from "../../journal/state.js";
import {
  renderUndoDocument,
  renderUndoHead,
  renderUndoLine,
  renderUndoRow,
  renderUndoSummary,
  type UndoResult,
  type UndoStatus,
  type UndoSummary,
} from "../../output/undo.js";
import { renderResult } from "../../output/batch.js";
import { askYesNo } from "../confirm.js";
import { withCurlLines } from "../curl.js";
import { createBatchOutput, openResultsFile, type ResultPrinter } from "../intake/applyOutput.js";
import { changesOf, stopsEveryChange } from "../intake/applyRun.js";
import { alreadyUndoneIn, type AlreadyUndone } from "./resume.js";
import * as steps from "./steps.js";
import type { UndoOptions, UndoRun } from "./steps.js";

/** Thrown before an undo is sent when the run stopped meanwhile. */
class NotSent extends Error {}

interface BatchState extends UndoSummary {
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

function printer(ctx: Context): ResultPrinter<UndoResult> {
  return {
    json: renderResult,
    // --json prints one document at the end.
    stdout: (result, human, color) => (ctx.json ? "" : human ? renderUndoLine(result, color) : renderUndoRow(result)),
    describe: (result) => `entry ${result.journal_id} (intake ${result.image_id}, ${result.status.replace("_", " ")})`,
  };
}

/** The saved image an entry's undo uploads, for its curl command. */
function savedCopyOf(run: UndoRun, targets: readonly JournalEntry[], result: UndoResult): string | undefined {
  const entry = targets.find((target) => target.id === result.journal_id);
  return entry ? steps.savedImagePath(run, steps.planEntryUndo(entry)) : undefined;
}

export async function undoBatch(
  single: UndoRun,
  journal: readonly JournalEntry[],
  targets: JournalEntry[],
  options: UndoOptions,
): Promise<number> {
  const { ctx } = single;
  if (!options.dryRun && !options.yes) {
    const question = `Undo ${thousands(targets.length)} changes of batch ${targets[0]!.batch_id ?? "?"} (last line first)?`;
    if (!(await askYesNo(ctx, question))) throw cancelledError("cancelled: nothing was sent");
  }
  const resultsFd = options.results === undefined ? null : openResultsFile(options.results);
  // Ctrl-C stops the batch between entries; the undo in flight is finished and reported.
  const run: UndoRun = { ...single, client: single.client.derive({ signal: undefined }) };
  const state = newState(targets);
  const started = performance.now();
  const output = createBatchOutput(
    ctx,
    targets.length,
    resultsFd,
    () => {
      if (state.stopped !== "interrupted") state.stopped = "output_closed";
    },
    run.curl ? withCurlLines(ctx, printer(ctx), (result) => savedCopyOf(run, targets, result)) : printer(ctx),
    options.results,
  );
  const onAbort = () => (state.stopped = "interrupted");
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  const alreadyUndone = alreadyUndoneIn(journal, targets);
  const results: UndoResult[] = [];
  try {
    if (!ctx.json && !run.curl && ctx.io.stdout.isTTY !== true) ctx.io.stdout.write(renderUndoHead());
    for (const entry of targets) {
      if (state.stopped !== null) break;
      const result = await undoEntry(run, state, entry, alreadyUndone);
      if (result === null) break;
      results.push(result);
      await output.write(result);
      output.progress(results.length, state.refused + state.failed);
    }
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    output.close();
  }
  state.notDone = targets.length - results.length;
  state.elapsedMs = performance.now() - started;
  if (ctx.json) ctx.io.stdout.write(renderUndoDocument(state, results));
  else ctx.io.stderr.write(renderUndoSummary(state, ctx.io.color.stderr));
  return finish(ctx, state);
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

function entries(count: number): string {
  return `${thousands(count)} ${count === 1 ? "entry" : "entries"}`;
}

/**
 * 130 when interrupted, 1 when stdout closed; 0 when nothing was refused or failed; the first
 * problem's own code when nothing was undone (now or earlier) and every problem shares that
 * code; else 9.
 */
function finish(ctx: Context, state: BatchState): number {
  const again = "run the same command again to finish the rest";
  if (state.stopped === "output_closed")
    throw failure(`stdout was closed: stopped undoing, ${entries(state.notDone)} not undone; the results of the last undos were lost`, {
      hint: `keep the results in a file (--results undo.jsonl); ${again}`,
    });
  if (state.stopped === "interrupted")
    throw interruptedError(`interrupted: ${entries(state.notDone)} not undone; the undo in flight was finished and reported`, {
      hint: state.notDone > 0 ? again : undefined,
    });
  const problems = state.refused + state.failed;
  if (problems === 0) {
    if (state.undone === 0 && state.alreadyUndone > 0 && state.dryRun === 0) ctx.info(`every entry was undone already: nothing was sent`);
    else if (state.dryRun > 0) ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  const first = state.first!;
  const notDone = state.notDone > 0 ? `; stopped: ${entries(state.notDone)} not undone` : "";
  const hint = state.notDone > 0 ? `fix the cause, then ${again}` : first.hint;
  if (state.undone === 0 && state.alreadyUndone === 0 && !state.mixed) {
    const prefix = problems === 1 ? "" : `all ${thousands(problems)} undos refused or failed: `;
    throw new CliError(first.code, first.exitCode, `${prefix}${first.message}${notDone}`, { status: first.status, hint });
  }
  throw new CliError(
    "partial",
    EXIT.partial,
    `${thousands(problems)} of ${entries(state.entries)} not undone (refused or failed)${notDone}`,
    {
      hint,
    },
  );
}
