/**
 * Resuming `undo --batch`: an entry whose undo the journal already holds, and whose intake still
 * shows it, is "already undone" rather than "changed since" (docs/journal.md, undo --batch). Pure.
 */
import type { JournalEntry } from "../../journal/entry.js";
import { stateDifferences, type IntakeState } from "../../journal/state.js";
import { undoLeftovers, type UndoAction } from "../../journal/undoPlan.js";

export type AlreadyUndone = (entry: JournalEntry, action: UndoAction, now: IntakeState) => boolean;

/**
 * Built once from the journal as the run starts. An entry counts as undone when an undo of it was
 * sent (applied, or cut short: unknown) and either the intake is as the newest such undo of the
 * batch on that intake left it (a later line's undo also moved what an earlier line changed), or
 * the fields the entry changed hold its before values again.
 */
export function alreadyUndoneIn(journal: readonly JournalEntry[], targets: readonly JournalEntry[]): AlreadyUndone {
  const targetIds = new Set(targets.map((entry) => entry.id));
  const undoneIds = new Set<string>();
  const newestUndo = new Map<number, JournalEntry>();
  for (const entry of journal) {
    if (entry.undo_of === undefined || !targetIds.has(entry.undo_of) || entry.outcome === "failed") continue;
    undoneIds.add(entry.undo_of);
    const newest = newestUndo.get(entry.image_id);
    if (!newest || entry.id > newest.id) newestUndo.set(entry.image_id, entry);
  }
  return (entry, action, now) => {
    if (!undoneIds.has(entry.id)) return false;
    const newest = newestUndo.get(entry.image_id);
    if (newest?.after && stateDifferences(newest.after, now).length === 0) return true;
    return entry.before !== null && undoLeftovers({ ...entry, before: entry.before }, action, now).length === 0;
  };
}
