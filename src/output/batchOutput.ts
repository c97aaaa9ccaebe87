/**
 * Where a batch's results go: JSON Lines on stdout (piped or --json), or one human line per
 * change above the progress bar (stdout a terminal); with --results, also appended to a file,
 * each line written through at once. Every line passes through redactSecrets first: a server
 * may echo the token it was sent.
 */
import { closeSync, openSync } from "node:fs";
import type { BatchResult } from "../batch/results.js";
import type { Context } from "../context.js";
import { usageError } from "../errors.js";
import { fileErrorReason, writeAll } from "../files.js";
import { redactSecrets } from "../secrets.js";
import { renderResult, renderResultLine } from "./batch.js";
import { createProgressBar } from "./progress.js";

/** A batch's output on this terminal or pipe, and the --results file (a BatchOutput of change/batch/run.ts). */
export interface TerminalBatchOutput<R = BatchResult> {
  /** Resolves once the result may be followed by the next (back-pressure). */
  write: (result: R) => Promise<void>;
  progress: (done: number, failed: number) => void;
  close: () => void;
  /** How many results the --results file did not get (a full disk), and why; null when it got every one. */
  resultsLost: () => { count: number; error: Error } | null;
}

/** Opens the --results file for appending, created 0600 (results name intakes and users). */
export function openResultsFile(path: string): number {
  try {
    return openSync(path, "a", 0o600);
  } catch (error) {
    throw usageError(`cannot write the results to ${path}: ${fileErrorReason(error, "no such folder")}: nothing was sent`);
  }
}

type Stdout = Context["io"]["stdout"] & Partial<Pick<NodeJS.WritableStream, "once" | "off">>;

function waitForDrain(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.once("drain", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

const STATUS_WORDS: Record<BatchResult["status"], string> = {
  applied: "applied",
  failed: "failed",
  skipped: "applied by an earlier run",
  dry_run: "a dry run",
  overwritten: "applied, then overwritten by another writer",
  unchanged: "unchanged: nothing sent",
};

/** How a batch's results are printed: JSON for the --results file, and what stdout shows of each. */
export interface ResultPrinter<R> {
  json: (result: R) => string;
  /** One line above the progress bar on a terminal (`human`), else what a pipe gets; "" for nothing. */
  stdout: (result: R, human: boolean, color: boolean, width: number | undefined) => string;
  /** Which change a result is and what became of it, for a warning that its result was lost. */
  describe: (result: R) => string;
}

/** `intake apply`: a human line on a terminal, JSON Lines elsewhere. */
export const APPLY_PRINTER: ResultPrinter<BatchResult> = {
  json: renderResult,
  stdout: (result, human, color, width) => (human ? renderResultLine(result, color, width) : renderResult(result)),
  describe: (result) => `line ${result.line} (intake ${result.image_id}, ${STATUS_WORDS[result.status]})`,
};

export function createBatchOutput<R>(
  ctx: Context,
  total: number,
  resultsFd: number | null,
  onStdoutClosed: () => void,
  printer: ResultPrinter<R>,
  resultsPath = "the results file",
): TerminalBatchOutput<R> {
  const stdout = ctx.io.stdout as Stdout;
  // Results that cannot be written cannot be resumed from: a closed stdout stops the batch.
  ctx.io.closedStdout?.takeOver(onStdoutClosed);
  const human = stdout.isTTY === true && !ctx.json;
  const token = ctx.settings().token?.value;
  const bar = createProgressBar(ctx.io.stderr, total);
  let lost: { count: number; error: Error } | null = null;
  const write = async (result: R) => {
    const json = redactSecrets(printer.json(result), [token]);
    if (lost) lost.count++;
    else if (resultsFd !== null) {
      try {
        writeAll(resultsFd, json);
      } catch (error) {
        // The change was sent: say what became of it, and go on (stdout still gets every result).
        lost = { count: 1, error: error as Error };
        const reason = (error as Error).message;
        const change = printer.describe(result);
        ctx.warn(`${change}: its result could not be written to ${resultsPath} (${reason}); it and the rest go to stdout only`);
      }
    }
    const line = redactSecrets(printer.stdout(result, human, ctx.io.color.stdout, stdout.columns), [token]);
    if (line === "") return;
    let flowing = true;
    bar.print({ isTTY: stdout.isTTY, write: (text: string) => (flowing = ctx.printRaw(text)) }, line);
    if (!flowing && typeof stdout.once === "function") await waitForDrain(stdout as NodeJS.WritableStream);
  };
  return {
    write,
    progress: (done, failed) => bar.update(done, failed),
    close: () => {
      bar.stop();
      if (resultsFd !== null) closeSync(resultsFd);
    },
    resultsLost: () => lost,
  };
}
