/**
 * `undo --batch`, run by change/undo/batch.ts, printed as `intake apply` prints (output/batchOutput.ts), but one JSON document
 * with --json and tab-separated rows in a pipe; then the summary and the exit code.
 */
import { runUndoBatch, type BatchState } from "../../change/undo/batch.js";
import { planEntryUndo, savedImagePath, type UndoRun } from "../../change/undo/steps.js";
import type { Context } from "../../context.js";
import { cancelledError, CliError, EXIT, failure, interruptedError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import type { JournalEntry } from "../../journal/entry.js";
import { renderResult } from "../../output/batch.js";
import { createBatchOutput, openResultsFile, type ResultPrinter } from "../../output/batchOutput.js";
import { withCurlLines } from "../../output/curl.js";
import { renderUndoLine, renderUndoRow, renderUndoSummary, undoDocument, type UndoResult } from "../../output/undo.js";
import { shellQuote } from "../../sanitize.js";
import { askYesNo } from "../confirm.js";
import { DEFAULT_CONCURRENCY } from "../spec.js";

function printer(ctx: Context, targets: readonly JournalEntry[]): ResultPrinter<UndoResult> {
  const intakeWidth = Math.max(...targets.map((entry) => String(entry.image_id).length));
  return {
    json: renderResult,
    // --json prints one document at the end.
    stdout: (result, human, color, width) =>
      ctx.json ? "" : human ? renderUndoLine(result, color, width, intakeWidth) : renderUndoRow(result),
    describe: (result) => `entry ${result.journal_id} (intake ${result.image_id}, ${result.status.replace("_", " ")})`,
  };
}

/** The saved image an entry's undo uploads, for its curl command. */
function savedCopyOf(run: UndoRun, targets: readonly JournalEntry[], result: UndoResult): string | undefined {
  const entry = targets.find((target) => target.id === result.journal_id);
  return entry ? savedImagePath(run, planEntryUndo(entry)) : undefined;
}

export async function undoBatch(
  single: UndoRun,
  journal: readonly JournalEntry[],
  targets: JournalEntry[],
  options: { batch: string; dryRun: boolean; yes: boolean; results?: string | undefined; concurrency: number },
): Promise<number> {
  const { ctx } = single;
  if (!options.dryRun && !options.yes) {
    const question = `Undo ${thousands(targets.length)} changes of batch ${targets[0]!.batch_id ?? "?"} (last line first)?`;
    if (!(await askYesNo(ctx, question))) throw cancelledError("cancelled: nothing was sent");
  }
  const resultsFd = options.results === undefined ? null : openResultsFile(options.results);
  const openOutput = (stop: () => void) => {
    const shown = single.curl
      ? withCurlLines(ctx, printer(ctx, targets), (result) => savedCopyOf(single, targets, result))
      : printer(ctx, targets);
    return createBatchOutput(ctx, targets.length, resultsFd, stop, shown, options.results);
  };
  const { state, results } = await runUndoBatch(single, journal, targets, openOutput, {
    signal: ctx.signal,
    concurrency: options.concurrency,
  });
  if (ctx.json) await ctx.print({ json: undoDocument(state, results) });
  else ctx.io.stderr.write(renderUndoSummary(state, ctx.io.color.stderr, ctx.io.stderr.isTTY === true ? ctx.io.stderr.columns : undefined));
  return finish(ctx, state, againCommand(single, options));
}

/** The command that finishes what a stopped `undo --batch` left (entries undone already are not sent again), with the run's options. */
function againCommand(run: UndoRun, options: { batch: string; results?: string | undefined; concurrency: number }): string {
  const flags = [
    ...(options.concurrency === DEFAULT_CONCURRENCY ? [] : [`--concurrency ${options.concurrency}`]),
    ...(run.force ? ["--force"] : []),
    ...(run.verify ? [] : ["--no-verify"]),
    ...(options.results === undefined ? [] : [`--results ${shellQuote(options.results)}`]),
  ];
  return `run it again to finish the rest: ${["foodctl undo --batch", shellQuote(options.batch), "--yes", ...flags].join(" ")}`;
}

function entries(count: number): string {
  return `${thousands(count)} ${count === 1 ? "entry" : "entries"}`;
}

/**
 * 130 when interrupted, 1 when stdout closed; 0 when nothing was refused or failed; the first
 * problem's own code when nothing was undone (now or earlier) and every problem shares that
 * code; else 9.
 */
function finish(ctx: Context, state: BatchState, again: string): number {
  if (state.stopped === "output_closed")
    throw failure(`stdout was closed: stopped undoing, ${entries(state.notDone)} not undone; the results of the last undos were lost`, {
      hint: `keep the results in a file (--results undo.jsonl); ${again}`,
    });
  if (state.stopped === "interrupted") {
    // True to what happened: the undos in flight were finished, or none had been sent.
    const sent = state.entries > state.notDone ? "the undos in flight were finished and reported" : "none had been sent";
    throw interruptedError(`interrupted: ${entries(state.notDone)} not undone; ${sent}`, { hint: state.notDone > 0 ? again : undefined });
  }
  const problems = state.refused + state.failed + state.overwritten;
  if (problems === 0) {
    if (state.undone === 0 && state.alreadyUndone > 0 && state.dryRun === 0) ctx.info(`every entry was undone already: nothing was sent`);
    else if (state.dryRun > 0) ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  const first = state.first!;
  const notDone = state.notDone > 0 ? `; stopped: ${entries(state.notDone)} not undone` : "";
  const hint = state.notDone > 0 ? `fix the cause, then ${again}` : first.hint;
  if (state.undone === 0 && state.alreadyUndone === 0 && !state.mixed) {
    const prefix = problems === 1 ? "" : `all ${thousands(problems)} undos refused, failed or overwritten: `;
    throw new CliError(first.code, first.exitCode, `${prefix}${first.message}${notDone}`, { status: first.status, hint });
  }
  throw new CliError(
    "partial",
    EXIT.partial,
    `${thousands(problems)} of ${entries(state.entries)} not undone (refused, failed or overwritten)${notDone}`,
    {
      hint,
    },
  );
}
