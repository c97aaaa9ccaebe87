/**
 * Printing `undo --batch`: one result per journal entry (a line on a terminal, a tab-separated
 * row in a pipe, JSON in the --results file), and the summary (docs/journal.md, undo --batch).
 */
import type { BatchResultError, ResultChange } from "../batch/results.js";
import { thousands } from "../intake/amounts.js";
import { changesIn, describeChanges, describeDryRun } from "./batch.js";
import type { StateDifference } from "../journal/state.js";
import { styler } from "./style.js";
import { joinToWidth, padText, printedText, renderTsv, textWidth, wrapLine } from "./table.js";

/**
 * "already_undone": the journal holds this entry's undo and the intake still shows it; nothing was sent.
 * "overwritten": another writer's value is in the way: the entry was overwritten (refused, nothing sent),
 * or the undo was, before it was read back (docs/journal.md, concurrent writers).
 */
export const UNDO_STATUSES = ["undone", "already_undone", "refused", "failed", "dry_run", "overwritten"] as const;
export type UndoStatus = (typeof UNDO_STATUSES)[number];

export interface UndoResult {
  /** The journal entry undone. */
  journal_id: string;
  image_id: number;
  status: UndoStatus;
  /** The `intake apply` run the entry belongs to. */
  batch_id: string | null;
  /** The undo's own journal entry, when one was written. */
  undo_journal_id?: string;
  /** What the undo moved, read before and after it. */
  changed?: ResultChange[];
  error?: BatchResultError;
  /** --dry-run: the request that would be sent, token masked. */
  request?: unknown;
}

export interface UndoSummary {
  batchId: string | null;
  entries: number;
  undone: number;
  alreadyUndone: number;
  refused: number;
  failed: number;
  overwritten: number;
  dryRun: number;
  /** Entries not reached: the run stopped (Ctrl-C, stdout closed, an auth or network failure). */
  notDone: number;
  elapsedMs: number;
  stopped: "failure" | "interrupted" | "output_closed" | null;
}

function detail(result: UndoResult): string {
  if (result.error) return result.error.message;
  if (result.status === "dry_run") return describeDryRun(result.request);
  if (result.status === "already_undone") return "already undone: nothing sent";
  return result.changed ? (result.changed.length ? describeChanges(result.changed) : "no change") : "-";
}

/** One tab-separated row per entry, for a pipe, with no header (docs/cli.md): journal_id, image_id, status, undo_journal_id, detail. */
export function renderUndoRow(result: UndoResult): string {
  return renderTsv([[result.journal_id, result.image_id, result.status, result.undo_journal_id ?? "-", detail(result)]]);
}

/** One line per entry for a terminal, wrapped between words to `width`: entry, intake, what the undo moved, and how it ended. */
export function renderUndoLine(result: UndoResult, color: boolean, width?: number, intakeWidth = 0): string {
  return wrapLine(undoLine(result, color, intakeWidth), width, 2);
}

/** Entry ids are all one length; intake ids are right-aligned to `intakeWidth`, the widest of the batch, so the columns line up. */
function undoLine(result: UndoResult, color: boolean, intakeWidth: number): string {
  const s = styler(color);
  const head = `entry ${result.journal_id}  intake ${String(result.image_id).padStart(intakeWidth)}`;
  switch (result.status) {
    case "undone": {
      const moved = result.changed?.length ? `  ${describeChanges(result.changed)}` : "";
      return `${head}${moved}  ${s.green(result.changed?.length === 0 ? "undone (no change)" : "undone")}\n`;
    }
    case "already_undone":
      return `${head}  already undone (nothing sent)\n`;
    case "refused":
      return `${head}  ${s.yellow(`refused: ${result.error?.message ?? ""}`)}\n`;
    case "failed":
      return `${head}  ${s.red(`failed: ${result.error?.message ?? ""}`)}\n`;
    case "overwritten":
      return `${head}  ${s.red(`overwritten: ${result.error?.message ?? ""}`)}\n`;
    default:
      return `${head}  dry run: ${detail(result)}\n`;
  }
}

function summaryFields(summary: UndoSummary) {
  return {
    batch_id: summary.batchId,
    entries: summary.entries,
    undone: summary.undone,
    already_undone: summary.alreadyUndone,
    refused: summary.refused,
    failed: summary.failed,
    overwritten: summary.overwritten,
    dry_run: summary.dryRun,
    not_done: summary.notDone,
    elapsed_seconds: Math.round(summary.elapsedMs) / 1000,
    stopped: summary.stopped,
  };
}

/** `--json`: one document, the summary and one result per entry reached. */
export function undoDocument(summary: UndoSummary, results: readonly UndoResult[]): object {
  return { summary: summaryFields(summary), results };
}

/** `undid 198 · already undone 2 · refused 0 · failed 0 · 200 changes in 3.2 s`, then the batch. */
export function renderUndoSummary(summary: UndoSummary, color: boolean, width?: number): string {
  const s = styler(color);
  const count = thousands;
  const parts: string[] = [];
  if (summary.dryRun > 0) parts.push(`dry run ${count(summary.dryRun)}`);
  parts.push(s.green(`undid ${count(summary.undone)}`), `already undone ${count(summary.alreadyUndone)}`);
  parts.push(summary.refused > 0 ? s.yellow(`refused ${count(summary.refused)}`) : "refused 0");
  parts.push(summary.failed > 0 ? s.red(`failed ${count(summary.failed)}`) : "failed 0");
  if (summary.overwritten > 0) parts.push(s.red(`overwritten ${count(summary.overwritten)}`));
  if (summary.notDone > 0) parts.push(s.yellow(`not done ${count(summary.notDone)}`));
  const batch = summary.batchId === null ? "" : `batch ${summary.batchId}\n`;
  parts.push(changesIn(summary.entries, summary.elapsedMs));
  return `${joinToWidth(parts, " · ", width, 0)}\n${batch}`;
}

/** Before undo's question: each field it puts back, the value now → the value it restores. */
export function renderUndoPlan(imageId: number, changes: readonly StateDifference[]): string {
  if (!changes.length) return `intake ${imageId} already shows the entry's before state: the undo changes nothing\n`;
  const rows = changes.map((change) => [change.position ?? "-", change.field, `${change.was} → ${change.now}`].map(printedText));
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => textWidth(row[column]!))));
  const lines = rows.map((row) => `  ${padText(row[0]!, widths[0]!)}  ${padText(row[1]!, widths[1]!)}  ${row[2]}\n`);
  return `intake ${imageId}, now → after the undo:\n${lines.join("")}`;
}
