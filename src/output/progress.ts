/**
 * The progress bar of a batch: one line on stderr, only when stderr is a terminal. Result
 * lines printed on the same terminal go above it (the bar is cleared, the line printed, the
 * bar drawn again), it is never wider than the terminal, and it is cleared when the batch ends.
 */
import type { OutputStream } from "../io.js";
import { thousands } from "../intake/amounts.js";

export interface ProgressBar {
  update(done: number, failed: number): void;
  /** Prints a whole line (ending in a newline) on `stream`, above the bar. */
  print(stream: OutputStream, line: string): void;
  /** Clears the bar: nothing of it stays on screen. */
  stop(): void;
}

const CLEAR_LINE = "\r\u001b[K";
const REDRAW_MS = 100;

function barText(done: number, failed: number, total: number, elapsedMs: number, columns: number): string {
  const tail = ` ${thousands(done)}/${thousands(total)} changes · ${thousands(failed)} failed · ${(elapsedMs / 1000).toFixed(1)} s`;
  const room = Math.min(30, columns - 1 - tail.length - 2);
  if (room < 5) return tail.trim().slice(0, Math.max(0, columns - 1));
  const filled = Math.round((room * done) / Math.max(1, total));
  return `[${"█".repeat(filled)}${"░".repeat(room - filled)}]${tail}`;
}

export function createProgressBar(stderr: OutputStream, total: number, now: () => number = () => performance.now()): ProgressBar {
  if (stderr.isTTY !== true || total === 0) {
    return { update: () => {}, print: (stream, line) => void stream.write(line), stop: () => {} };
  }
  const started = now();
  let done = 0;
  let failed = 0;
  let drawnAt = -Infinity;
  let shown = false;
  const draw = () => {
    drawnAt = now();
    shown = true;
    stderr.write(`${CLEAR_LINE}${barText(done, failed, total, drawnAt - started, stderr.columns ?? 80)}`);
  };
  const clear = () => {
    if (shown) stderr.write(CLEAR_LINE);
    shown = false;
  };
  draw();
  return {
    update: (doneNow, failedNow) => {
      done = doneNow;
      failed = failedNow;
      if (now() - drawnAt >= REDRAW_MS || done === total) draw();
    },
    print: (stream, line) => {
      // Piped results do not share the terminal with the bar.
      if (stream.isTTY !== true) return void stream.write(line);
      clear();
      stream.write(line);
      draw();
    },
    stop: clear,
  };
}
