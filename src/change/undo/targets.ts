/** Which journal entries an undo names: one id, the last entry, or every applied line of one batch. */
import { notFoundError, usageError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import { selectEntries } from "../../journal/query.js";
import { batchEntries, lookupEntry } from "../../journal/entries.js";

export function undoTargets(
  entries: readonly JournalEntry[],
  options: { id: string | undefined; last: boolean; batch: string | undefined },
  profile: string,
): JournalEntry[] {
  const { id, batch } = options;
  const chosen = [id !== undefined, options.last, batch !== undefined].filter(Boolean).length;
  if (chosen !== 1)
    throw usageError("name what to undo: a journal id, --last, or --batch <results file | batch id>", {
      hint: "list entries with `foodctl journal`",
    });
  if (id !== undefined) return [lookupEntry(entries, id)];
  if (batch === undefined) {
    const [last] = selectEntries(entries, { limit: 1 });
    if (!last) throw notFoundError(`no journal entry of profile ${profile} (and its API URL): nothing to undo`);
    return [last];
  }
  // Last line first: a later change of an intake is undone before an earlier one.
  return batchEntries(entries, batch).reverse();
}
