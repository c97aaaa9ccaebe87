/**
 * Journal records and entries. Each change appends a "begin" record before it is sent and a
 * "complete" record after; reading folds them by id, so a change cut short stays "unknown". Their
 * shape is checked at run time by the validator compiled from src/records/journal.ts.
 */
import type { Actor, JournalRecord, OthersChange, Overwritten } from "../records/journal.js";
import type { Validator } from "../records/check.js";
import type { IntakeState } from "./state.js";

export type { Actor, JournalRecord, OthersChange, Overwritten };
export type BeginRecord = Extract<JournalRecord, { record: "begin" }>;
export type CompleteRecord = Extract<JournalRecord, { record: "complete" }>;
export type ImageCopy = NonNullable<BeginRecord["image_copy"]>;
export type Outcome = CompleteRecord["outcome"] | "unknown";

/** The note of a change the server took whose read-back failed or was interrupted (not --no-verify). */
export const READ_BACK_FAILED = "reading the intake back failed";

export interface JournalEntry extends Omit<BeginRecord, "record" | "notes" | "actor" | "reason"> {
  /** The token's subject and role when its claims told them; null for an entry written before foodctl recorded them. */
  actor: Actor | null;
  reason: string | null;
  outcome: Outcome;
  /** This change's result, as read back; null when unknown, or when another writer overwrote what it set. */
  after: IntakeState | null;
  /** The read-back as found when another writer overwrote what this change set: not this change's result. */
  found: IntakeState | null;
  overwritten: Overwritten[];
  others_changed: OthersChange[];
  completed_at: string | null;
  error: string | null;
  notes: string[];
}

/** The validator compiled from the journal's schema (src/records/journal.ts): what is not a record by it is skipped. */
export type RecordCheck = Validator<JournalRecord>;

/** One line of the file; null for a line that is not a record (cut off by a crash, edited by hand, of the wrong shape). */
export function parseRecord(line: string, isRecord: RecordCheck): JournalRecord | null {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** When a line that is a begin record began, by its own fields; undefined for any other line. */
export function beginTime(line: string): number | undefined {
  try {
    const value = JSON.parse(line) as { record?: unknown; time?: unknown } | null;
    if (value?.record !== "begin" || typeof value.time !== "string") return undefined;
    const time = Date.parse(value.time);
    return Number.isNaN(time) ? undefined : time;
  } catch {
    return undefined;
  }
}

/** Where a record starts: a line torn by a full disk or a crash has the next record glued onto its end. */
const RECORD_START = '{"record":"';

/**
 * One line of the file: its record, and whether it held something unreadable (the line itself,
 * or a torn fragment before a whole record glued onto it, which is recovered).
 */
export function readRecordLine(line: string, isRecord: RecordCheck): { record: JournalRecord | null; unreadable: boolean } {
  const whole = parseRecord(line, isRecord);
  if (whole) return { record: whole, unreadable: false };
  for (let start = line.indexOf(RECORD_START, 1); start !== -1; start = line.indexOf(RECORD_START, start + 1)) {
    const record = parseRecord(line.slice(start), isRecord);
    if (record) return { record, unreadable: true };
  }
  return { record: null, unreadable: true };
}

/** A begin record as an entry: outcome unknown until its complete record is read. */
export function entryOfBegin(record: BeginRecord): JournalEntry {
  // Field by field: an object rest over a parsed record takes V8's slow path, once per entry of a large journal.
  const { id, time, profile, api_url, user_id, image_id, command, batch_id, undo_of, request, before, image_copy, notes, actor, reason } =
    record;
  return {
    id,
    time,
    profile,
    api_url,
    user_id,
    actor: actor ?? null,
    reason: reason ?? null,
    image_id,
    command,
    ...(batch_id === undefined ? {} : { batch_id }),
    ...(undo_of === undefined ? {} : { undo_of }),
    request,
    before,
    ...(image_copy === undefined ? {} : { image_copy }),
    outcome: "unknown",
    after: null,
    found: null,
    overwritten: [],
    others_changed: [],
    completed_at: null,
    error: null,
    notes: notes ? [...notes] : [],
  };
}

/** The entry with its complete record read. */
export function completeEntry(entry: JournalEntry, record: CompleteRecord): void {
  entry.outcome = record.outcome;
  entry.after = record.after;
  entry.found = record.found ?? null;
  entry.overwritten = record.overwritten ?? [];
  entry.others_changed = record.others_changed ?? [];
  entry.completed_at = record.time;
  entry.error = record.error ?? null;
  entry.notes.push(...(record.notes ?? []));
}
