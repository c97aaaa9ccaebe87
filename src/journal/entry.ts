/**
 * Journal records and entries. Each change appends a "begin" record before it is sent and a
 * "complete" record after; reading folds them by id, so a change cut short stays "unknown".
 */
import type { IntakeState } from "./state.js";

export type Outcome = "applied" | "failed" | "unknown";

/** The note of a change the server took whose read-back failed or was interrupted (not --no-verify). */
export const READ_BACK_FAILED = "reading the intake back failed";

export interface JournalRequest {
  method: string;
  url: string;
  body: unknown;
}

export interface ImageCopy {
  /** Relative to the journal's folder. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface BeginRecord {
  record: "begin";
  id: string;
  time: string;
  profile: string;
  api_url: string;
  user_id: number | null;
  image_id: number;
  command: string;
  batch_id?: string;
  undo_of?: string;
  request: JournalRequest;
  before: IntakeState | null;
  image_copy?: ImageCopy | null;
  /** Why something is missing: no copy of a large image, no before state without a read. */
  notes?: string[];
}

export interface CompleteRecord {
  record: "complete";
  id: string;
  time: string;
  outcome: Exclude<Outcome, "unknown">;
  after: IntakeState | null;
  notes?: string[];
  error?: string;
}

export type JournalRecord = BeginRecord | CompleteRecord;

export interface JournalEntry extends Omit<BeginRecord, "record" | "notes"> {
  outcome: Outcome;
  after: IntakeState | null;
  completed_at: string | null;
  error: string | null;
  notes: string[];
}

function isRecord(value: unknown): value is JournalRecord {
  if (typeof value !== "object" || value === null) return false;
  const { record, id } = value as { record?: unknown; id?: unknown };
  return (record === "begin" || record === "complete") && typeof id === "string";
}

/** One line of the file; null for a line that is not a record (cut off by a crash, edited by hand). */
export function parseRecord(line: string): JournalRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Entries in file order (oldest first), each begin record completed by its complete record if any. */
export function foldRecords(records: readonly JournalRecord[]): JournalEntry[] {
  const entries = new Map<string, JournalEntry>();
  for (const record of records) {
    if (record.record === "begin") {
      const { record: _kind, notes, ...rest } = record;
      entries.set(record.id, { ...rest, outcome: "unknown", after: null, completed_at: null, error: null, notes: notes ?? [] });
      continue;
    }
    const entry = entries.get(record.id);
    if (!entry) continue;
    entry.outcome = record.outcome;
    entry.after = record.after;
    entry.completed_at = record.time;
    entry.error = record.error ?? null;
    entry.notes.push(...(record.notes ?? []));
  }
  return [...entries.values()];
}
