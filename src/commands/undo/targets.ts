/** Which journal entries an undo names: one id, the last entry, or every applied line of one batch. */
import { existsSync, readFileSync } from "node:fs";
import { refuseNonRegularResults } from "../../batch/results.js";
import { notFoundError, usageError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import { selectEntries } from "../../journal/query.js";
import { lookupEntry } from "../journal/journal.js";

export function undoTargets(
  entries: readonly JournalEntry[],
  options: { id: string | undefined; last: boolean; batch: string | undefined },
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
    if (!last) throw notFoundError("the journal is empty: nothing to undo");
    return [last];
  }
  return batchTargets(entries, batch);
}

/** Applied lines of one `intake apply` run, last line first. */
function batchTargets(entries: readonly JournalEntry[], batch: string): JournalEntry[] {
  if (existsSync(batch)) {
    refuseNonRegularResults(batch);
    const ids = readFileSync(batch, "utf8")
      .split("\n")
      .flatMap((line) => {
        try {
          const result = JSON.parse(line) as { status?: unknown; journal_id?: unknown };
          return result.status === "applied" && typeof result.journal_id === "string" ? [result.journal_id] : [];
        } catch {
          return [];
        }
      });
    if (!ids.length)
      throw usageError(`${batch} names no applied change with a journal_id`, {
        hint: "give the results file `intake apply` printed, or its batch id",
      });
    return ids.reverse().map((journalId) => lookupEntry(entries, journalId));
  }
  const lines = entries.filter((entry) => entry.batch_id === batch && entry.outcome !== "failed");
  if (!lines.length) throw notFoundError(`no applied journal entry of batch ${batch} (and no such results file)`);
  return lines.reverse();
}
