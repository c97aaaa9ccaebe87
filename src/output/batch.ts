/** Printing a batch: its result lines, its input problems, the progress bar and the summary. */
import type { BatchProblem, ResultStatus } from "../intake/batch.js";
import type { IgnoredModifier } from "../intake/diff.js";
import type { OutputStream } from "../io.js";
import { styler } from "./style.js";

export interface BatchResultError {
  code: string;
  exit_code: number;
  status: number | null;
  message: string;
}

/** One line of `intake apply`'s stdout. */
export interface BatchResult {
  line: number;
  image_id: number;
  status: ResultStatus;
  error?: BatchResultError;
  ignored?: IgnoredModifier[];
  /** --dry-run: the request that would be sent, token masked. */
  request?: unknown;
}

export function renderResult(result: BatchResult): string {
  return `${JSON.stringify(result)}\n`;
}

/** Input problems, one line each: `<source>:<line>: <field>: <reason>` (JSON Lines under --json). */
export function renderProblems(problems: readonly BatchProblem[], total: number, source: string, json: boolean): string {
  if (json) {
    const lines = problems.map((problem) => JSON.stringify({ problem: { source, ...problem } }));
    if (total > problems.length) lines.push(JSON.stringify({ problems_not_shown: total - problems.length }));
    return `${lines.join("\n")}\n`;
  }
  const lines = problems.map((problem) => `${source}:${problem.line}: ${problem.field !== null ? `${problem.field}: ` : ""}${problem.message}`);
  if (total > problems.length) lines.push(`… and ${total - problems.length} more ${total - problems.length === 1 ? "problem" : "problems"}`);
  return `${lines.join("\n")}\n`;
}

export interface BatchSummary {
  changes: number;
  applied: number;
  failed: number;
  skipped: number;
  dryRun: number;
  /** Changes never sent: the batch stopped (first failure, an auth or network failure, Ctrl-C, stdout closed). */
  notSent: number;
  /** Requested modifiers that did not take effect, and on how many changes. */
  ignoredModifiers: number;
  changesWithIgnored: number;
  elapsedMs: number;
  stopped: "failure" | "interrupted" | "output_closed" | null;
}

/** 100000 → "100,000", without toLocaleString (its first call loads ICU data: ~20 ms). */
export function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
const count = thousands;

export function renderSummary(summary: BatchSummary, json: boolean, color: boolean): string {
  if (json) {
    return `${JSON.stringify({
      summary: {
        changes: summary.changes,
        applied: summary.applied,
        failed: summary.failed,
        skipped: summary.skipped,
        dry_run: summary.dryRun,
        not_sent: summary.notSent,
        ignored_modifiers: summary.ignoredModifiers,
        changes_with_ignored_modifiers: summary.changesWithIgnored,
        elapsed_seconds: Math.round(summary.elapsedMs) / 1000,
        stopped: summary.stopped,
      },
    })}\n`;
  }
  const s = styler(color);
  const parts: string[] = [];
  if (summary.dryRun > 0) parts.push(`dry run ${count(summary.dryRun)}`);
  if (summary.dryRun === 0 || summary.applied > 0) parts.push(s.green(`applied ${count(summary.applied)}`));
  parts.push(summary.failed > 0 ? s.red(`failed ${count(summary.failed)}`) : `failed 0`);
  parts.push(`skipped ${count(summary.skipped)}`);
  if (summary.notSent > 0) parts.push(s.yellow(`not sent ${count(summary.notSent)}`));
  parts.push(
    summary.ignoredModifiers > 0
      ? s.yellow(`ignored modifiers ${count(summary.ignoredModifiers)} (on ${count(summary.changesWithIgnored)} ${summary.changesWithIgnored === 1 ? "change" : "changes"})`)
      : "ignored modifiers 0",
  );
  const seconds = summary.elapsedMs / 1000;
  const elapsed = `${count(summary.changes)} ${summary.changes === 1 ? "change" : "changes"} in ${seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
  return `${parts.join(" · ")} · ${elapsed}\n`;
}

export interface ProgressBar {
  update(done: number, failed: number): void;
  /** Writes a result line; when stdout is the same terminal, the bar steps aside for it. */
  print(write: () => void): void;
  stop(): void;
}

/** A progress bar on stderr, only when stderr is a terminal (else it only passes writes on). */
export async function createProgressBar(stderr: OutputStream, stdout: OutputStream, total: number): Promise<ProgressBar> {
  if (stderr.isTTY !== true || total === 0) return { update: () => {}, print: (write) => write(), stop: () => {} };
  const loaded = await import("cli-progress");
  // A CommonJS module: bundled, it has only a default export.
  const { SingleBar, Presets } = (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
  const shared = stdout.isTTY === true;
  const bar = new SingleBar(
    {
      stream: stderr as unknown as NodeJS.WritableStream,
      format: "{bar} {value}/{total} changes · {failed} failed · {duration_formatted} · eta {eta_formatted}",
      hideCursor: true,
      clearOnComplete: true,
      forceRedraw: shared,
      etaBuffer: 50,
      fps: 10,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0, { failed: 0 });
  return {
    update: (done, failed) => bar.update(done, { failed }),
    print: (write) => {
      if (!shared) return write();
      stderr.write("\r\u001b[K");
      write();
      bar.render();
    },
    stop: () => bar.stop(),
  };
}
