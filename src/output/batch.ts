/** Printing a batch: its result lines (JSON or one human line each), its input problems and its summary. */
import type { BatchProblem } from "../batch/problems.js";
import type { BatchResult, ResultChange } from "../batch/results.js";
import { formatAmount, thousands } from "../intake/amounts.js";
import { describeHeld } from "./changeResult.js";
import { cleanForTerminal, escapeJsonControls } from "../sanitize.js";
import { styler } from "./style.js";
import { joinToWidth, wrapLine } from "./table.js";

/** One result as a JSON line: an `intake apply` change's, or an `undo --batch` entry's. */
export function renderResult(result: object): string {
  return `${escapeJsonControls(JSON.stringify(result))}\n`;
}

/** A dry run's request on one line: method, URL and body. */
export function describeDryRun(request: unknown): string {
  const { method = "", url = "", body = null } = (request ?? {}) as { method?: string; url?: string; body?: unknown };
  return `${method} ${url} ${JSON.stringify(body)}`;
}

function describeField(change: ResultChange): string {
  if (change.field !== "grams") return `${change.field} ${change.before ?? "-"} → ${change.after ?? "-"}`;
  const show = (value: number | string | null) => (typeof value === "number" ? formatAmount(value) : "-");
  return `${show(change.before)} → ${show(change.after)} g`;
}

/** `1: 150 → 160 g, salt low → high; 2: …`, or without positions for a recognition-only intake. */
export function describeChanges(changes: readonly ResultChange[]): string {
  const byPosition = new Map<string | null, string[]>();
  for (const change of changes) byPosition.set(change.position, [...(byPosition.get(change.position) ?? []), describeField(change)]);
  return [...byPosition].map(([position, parts]) => `${position === null ? "" : `${position}: `}${parts.join(", ")}`).join("; ");
}

/** How wide the line numbers and intake ids of a batch's lines are, known before the first prints: the columns line up. */
export interface ResultColumns {
  line: number;
  intake: number;
}

/** The widths of the largest line number and intake id of the input. */
export function resultColumns(lines: Iterable<{ line: number; imageId: number }>): ResultColumns {
  const columns = { line: 1, intake: 1 };
  for (const { line, imageId } of lines) {
    columns.line = Math.max(columns.line, String(line).length);
    columns.intake = Math.max(columns.intake, String(imageId).length);
  }
  return columns;
}

/**
 * One line per change for a terminal, wrapped between words to `width`: line, intake, what
 * changed, and how it ended; the line number and intake id right-aligned to `columns`.
 */
export function renderResultLine(result: BatchResult, color: boolean, width?: number, columns?: ResultColumns): string {
  return wrapLine(resultLine(result, color, columns), width, 2);
}

function resultLine(result: BatchResult, color: boolean, columns: ResultColumns = { line: 0, intake: 0 }): string {
  const s = styler(color);
  const head = `line ${String(result.line).padStart(columns.line)}  intake ${String(result.image_id).padStart(columns.intake)}`;
  const changed = result.changed?.length ? `  ${describeChanges(result.changed)}` : "";
  const describeIgnored = (entry: NonNullable<BatchResult["ignored"]>[number]) =>
    `${entry.field} ${entry.requested}${entry.position !== null ? ` at ${entry.position}` : ""} (still ${entry.actual ?? "unset"})`;
  const ignored = result.ignored?.length ? `  ${s.yellow(`ignored: ${result.ignored.map(describeIgnored).join(", ")}`)}` : "";
  switch (result.status) {
    case "applied":
      if (result.verified === false)
        return `${head}  ${s.yellow(`applied, unverified: ${result.error?.message ?? "reading it back failed"}`)}${ignored}\n`;
      return `${head}${changed}  ${s.green(result.changed?.length === 0 ? "applied (no change)" : "applied")}${ignored}\n`;
    case "failed":
      return `${head}  ${s.red(`failed: ${result.error?.message ?? "unknown error"}`)}${ignored}\n`;
    case "skipped":
      return `${head}  skipped (applied by an earlier run)\n`;
    case "overwritten":
      return `${head}  ${s.red(`overwritten: ${result.error?.message ?? "another writer changed it meanwhile"}`)}\n`;
    case "unchanged":
      return `${head}  unchanged (already ${describeHeld(result.unchanged ?? [])}: nothing sent)\n`;
    default:
      return `${head}  dry run: ${describeDryRun(result.request)}\n`;
  }
}

/** Input problems, one line each: `<source>:<line>: <field>: <reason>` (JSON Lines under --json), then `and N more`. */
export function renderProblems(problems: readonly BatchProblem[], total: number, source: string, json: boolean): string {
  const more = total - problems.length;
  if (json) {
    const lines = problems.map((problem) => escapeJsonControls(JSON.stringify({ problem: { source, ...problem } })));
    if (more > 0) lines.push(JSON.stringify({ problems_not_shown: more }));
    return `${lines.join("\n")}\n`;
  }
  // The same problem on many lines (a file that is not results at all) is one line with where else it is.
  const alike = new Map<string, number[]>();
  for (const problem of problems) {
    // A message that names its field itself ("salt of position 1 must be …", the update's check) is not prefixed with it again.
    const head = problem.field?.split(".")[0];
    const named = head === undefined || problem.message.startsWith(`${head} `) || problem.message.startsWith(`${head}:`);
    const text = `${named ? "" : `${problem.field}: `}${problem.message}`;
    alike.set(text, [...(alike.get(text) ?? []), problem.line]);
  }
  const lines = [...alike].map(([text, at]) => {
    const others = at.slice(1);
    const shown = others.slice(0, 5).join(", ") + (others.length > 5 ? ", …" : "");
    const also = others.length ? ` (and ${others.length} more ${others.length === 1 ? "line" : "lines"} alike: ${shown})` : "";
    return cleanForTerminal(`${source}:${at[0]}: ${text}${also}`);
  });
  if (more > 0) lines.push(`and ${thousands(more)} more ${more === 1 ? "problem" : "problems"}`);
  return `${lines.join("\n")}\n`;
}

export interface BatchSummary {
  batchId: string;
  changes: number;
  /** Applied and read back; `unverified` were applied but reading them back failed (neither applied nor failed). */
  applied: number;
  unverified: number;
  failed: number;
  /** Applied, then overwritten by another writer before the read-back: counted apart from applied and failed. */
  overwritten: number;
  /** The intake held every value of the line already: nothing sent, counted apart from applied. */
  unchanged: number;
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

const count = thousands;

function summaryJson(summary: BatchSummary): string {
  return `${JSON.stringify({
    summary: {
      batch_id: summary.batchId,
      changes: summary.changes,
      applied: summary.applied,
      applied_unverified: summary.unverified,
      failed: summary.failed,
      overwritten: summary.overwritten,
      unchanged: summary.unchanged,
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

export function renderSummary(summary: BatchSummary, json: boolean, color: boolean, width?: number): string {
  if (json) return summaryJson(summary);
  const s = styler(color);
  const parts: string[] = [];
  if (summary.dryRun > 0) parts.push(`dry run ${count(summary.dryRun)}`);
  if (summary.dryRun === 0 || summary.applied > 0) parts.push(s.green(`applied ${count(summary.applied)}`));
  if (summary.unverified > 0) parts.push(s.yellow(`applied, unverified ${count(summary.unverified)}`));
  parts.push(summary.failed > 0 ? s.red(`failed ${count(summary.failed)}`) : `failed 0`);
  if (summary.overwritten > 0) parts.push(s.red(`overwritten ${count(summary.overwritten)}`));
  if (summary.unchanged > 0) parts.push(`unchanged ${count(summary.unchanged)}`);
  parts.push(`skipped ${count(summary.skipped)}`);
  if (summary.notSent > 0) parts.push(s.yellow(`not sent ${count(summary.notSent)}`));
  const onChanges = `${count(summary.changesWithIgnored)} change${summary.changesWithIgnored === 1 ? "" : "s"}`;
  parts.push(
    summary.ignoredModifiers > 0
      ? s.yellow(`ignored modifiers ${count(summary.ignoredModifiers)} (on ${onChanges})`)
      : "ignored modifiers 0",
  );
  parts.push(changesIn(summary.changes, summary.elapsedMs));
  return `${joinToWidth(parts, " · ", width, 0)}\nbatch ${summary.batchId}\n`;
}

/** "200 changes in 3.21 s": the end of a batch's summary line. */
export function changesIn(changes: number, elapsedMs: number): string {
  const seconds = elapsedMs / 1000;
  return `${count(changes)} ${changes === 1 ? "change" : "changes"} in ${seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
}
