/** The reading loop JSON Lines and CSV share: numbered lines in, packed changes and problems out. */
import { thousands } from "../intake/amounts.js";
import { ChangeList, type BatchChange } from "./changeList.js";
import { splitLines } from "./lines.js";
import { ProblemList, type BatchProblem } from "./problems.js";

export interface BatchInput {
  /** Empty when there are problems: a refused batch keeps nothing. */
  changes: ChangeList;
  /** The first MAX_REPORTED_PROBLEMS problems by line number. */
  problems: BatchProblem[];
  /** Every problem found, including those past the cap. */
  problemCount: number;
  /** Reading stopped because the signal aborted. */
  interrupted: boolean;
}

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  maxChanges?: number;
}

/** The parsed changes stay in memory between the check and the sending: bound them. */
export const MAX_BATCH_CHANGES = 1_000_000;

export interface ReadState {
  changes: ChangeList;
  problems: ProblemList;
  interrupted: boolean;
  /** The change limit was reached: nothing more is read. */
  full: boolean;
}

/** What a line handler may do: report a problem, or keep a change (dropped once the batch is refused). */
export interface LineSink {
  problem(problem: BatchProblem): void;
  change(change: BatchChange): void;
}

export function tooManyChanges(max: number): string {
  return `more than ${thousands(max)} changes in one batch: split the file`;
}

export function newSink(state: ReadState, max: number): LineSink {
  return {
    problem: (problem) => state.problems.add(problem),
    change: (change) => {
      // Once the batch is known to be refused, its changes are not worth keeping.
      if (state.problems.count > 0 || state.full) return;
      if (state.changes.length >= max) {
        state.problems.add({ line: change.line, field: null, message: tooManyChanges(max) });
        state.full = true;
        return;
      }
      state.changes.push(change);
    },
  };
}

/**
 * Runs `handle` on every non-blank line; a line that is too long or not UTF-8 is one problem.
 * Stops at the signal, or once the change limit is reached.
 */
export async function readLines(
  chunks: AsyncIterable<Buffer | string>,
  options: ReadOptions,
  handle: (text: string, line: number, sink: LineSink) => void,
): Promise<ReadState> {
  const state: ReadState = { changes: new ChangeList(), problems: new ProblemList(), interrupted: false, full: false };
  const sink = newSink(state, options.maxChanges ?? MAX_BATCH_CHANGES);
  for await (const input of splitLines(chunks)) {
    if (options.signal?.aborted) {
      state.interrupted = true;
      break;
    }
    if (input.text === null) state.problems.add({ line: input.line, field: null, message: input.problem ?? "unreadable line" });
    else if (input.text.trim() !== "") handle(input.text, input.line, sink);
    if (state.full) break;
  }
  return state;
}

export function finishInput(state: ReadState): BatchInput {
  const { problems, interrupted } = state;
  // A refused batch keeps nothing.
  const changes = problems.count > 0 || interrupted ? new ChangeList() : state.changes;
  return { changes, problems: problems.list, problemCount: problems.count, interrupted };
}
