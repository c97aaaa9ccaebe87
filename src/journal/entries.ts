/** Journal entries a command line names: one id (or its unique start), or the applied lines of one `intake apply` run. */
import { existsSync, readFileSync } from "node:fs";
import { notFoundError, usageError } from "../errors.js";
import type { JournalEntry } from "./entry.js";
import { findEntry } from "./query.js";
import { refuseNonRegularResults } from "../batch/results.js";

/** The entry named on the command line: an id or a unique start of one. */
export function lookupEntry(entries: readonly JournalEntry[], id: string): JournalEntry {
  const found = findEntry(entries, id);
  if (found === null) throw notFoundError(`no journal entry ${id}`, { hint: "list them with `foodctl journal`" });
  if ("ambiguous" in found) throw ambiguousIdError(id, found.ambiguous);
  return found;
}

/** How many of an ambiguous id's candidates are named: a short start can match thousands. */
const SHOWN_CANDIDATES = 5;

function ambiguousIdError(id: string, matches: readonly JournalEntry[]) {
  const shown = matches.slice(0, SHOWN_CANDIDATES).map((entry) => entry.id);
  const more = matches.length - shown.length;
  const list = more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
  return usageError(`journal id ${id} is ambiguous: ${matches.length} entries start with it (${list})`, {
    hint: "type more of the id (`foodctl journal` lists them)",
  });
}

/** The applied (or overwritten) lines of one `intake apply` run, in file order: from its results file (their journal_id) or its batch id. */
export function batchEntries(entries: readonly JournalEntry[], batch: string): JournalEntry[] {
  if (existsSync(batch)) {
    refuseNonRegularResults(batch);
    const ids = readFileSync(batch, "utf8")
      .split("\n")
      .flatMap((line) => {
        try {
          const result = JSON.parse(line) as { status?: unknown; journal_id?: unknown };
          // An overwritten line was applied too: undo --batch counts it apart (and refuses it) rather than leaving it out.
          const applied = result.status === "applied" || result.status === "overwritten";
          return applied && typeof result.journal_id === "string" ? [result.journal_id] : [];
        } catch {
          return [];
        }
      });
    if (!ids.length)
      throw usageError(`${batch} names no applied change with a journal_id`, {
        hint: "give the results file `intake apply` printed, or its batch id",
      });
    return ids.map((journalId) => lookupEntry(entries, journalId));
  }
  const lines = entries.filter((entry) => entry.batch_id === batch && entry.outcome !== "failed");
  if (!lines.length) throw notFoundError(`no applied journal entry of batch ${batch} (and no such results file)`);
  return lines;
}
