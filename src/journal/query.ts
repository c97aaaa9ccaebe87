/** Picking journal entries: filters, lookup by id, an `intake apply` run's entries. Pure. */
import type { BeginRecord, JournalEntry } from "./entry.js";

export interface JournalFilter {
  imageId?: number | undefined;
  userId?: number | undefined;
  /** Entries at or after this time (ms). */
  since?: number | undefined;
  /** Entries at or before this time (ms). */
  until?: number | undefined;
  /** Entries whose reason holds this text, in any case. */
  reason?: string | undefined;
  limit?: number | undefined;
}

/** Whether an entry (or its begin record) passes the filter's intake, user and time. */
export function matchesFilter(
  entry: Pick<JournalEntry, "image_id" | "user_id" | "time"> & { reason?: string | null | undefined },
  filter: JournalFilter,
): boolean {
  return (
    (filter.imageId === undefined || entry.image_id === filter.imageId) &&
    (filter.userId === undefined || entry.user_id === filter.userId) &&
    (filter.since === undefined || Date.parse(entry.time) >= filter.since) &&
    (filter.until === undefined || Date.parse(entry.time) <= filter.until) &&
    (filter.reason === undefined || (entry.reason ?? "").toLowerCase().includes(filter.reason.toLowerCase()))
  );
}

/** Newest first, filtered and cut to the limit. */
export function selectEntries(entries: readonly JournalEntry[], filter: JournalFilter): JournalEntry[] {
  const picked = entries.filter((entry) => matchesFilter(entry, filter));
  const newestFirst = [...picked].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return filter.limit === undefined ? newestFirst : newestFirst.slice(0, filter.limit);
}

/** The entry with this id, or the only one whose id starts with it. */
export function findEntry(entries: readonly JournalEntry[], id: string): JournalEntry | { ambiguous: JournalEntry[] } | null {
  const exact = entries.find((entry) => entry.id === id);
  if (exact) return exact;
  const matches = entries.filter((entry) => entry.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  return matches.length ? { ambiguous: matches } : null;
}

/** What a request changes: the update fields of its body, or the display image. */
export function requestKind(entry: Pick<JournalEntry, "request">): "update" | "attach" | "remove" {
  if (entry.request.method === "DELETE") return "remove";
  return /\/display_image(\?|$)/.test(entry.request.url) ? "attach" : "update";
}

/** Which entries a read keeps: those whose begin record passes `keep`, and of them only the `newest` (by id). */
export interface EntryQuery {
  keep?: ((record: BeginRecord) => boolean) | undefined;
  newest?: number | undefined;
}

/**
 * The entries an undo may name, so the read holds only those: an id's matches, the newest entry
 * made with the profile in use (its name and API URL), or batch lines.
 */
export function undoQuery(
  options: { id: string | undefined; last: boolean; batch: string | undefined },
  profile: { name: string; apiUrl: string },
): EntryQuery {
  const { id, last, batch } = options;
  if ([id !== undefined, last, batch !== undefined].filter(Boolean).length !== 1) return { keep: () => false };
  // The entry, and the undos of it that tell undo it was undone already.
  if (id !== undefined) return { keep: (record) => record.id.startsWith(id) || (record.undo_of?.startsWith(id) ?? false) };
  if (last) return { keep: (record) => record.profile === profile.name && record.api_url === profile.apiUrl, newest: 1 };
  // A batch's entries, and the undos that tell a resumed `undo --batch` what it already did.
  return { keep: (record) => record.batch_id !== undefined || record.undo_of !== undefined };
}
