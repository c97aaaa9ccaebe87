/** What undoing a journal entry sends, worked out from the entry alone. Pure. */
import { isPlainRecord } from "../intake/records.js";
import { READ_BACK_FAILED, type ImageCopy, type JournalEntry } from "./entry.js";
import { requestKind } from "./query.js";
import { stateDifferences, UPDATE_TO_STATE, type IntakeState, type PositionState, type StateDifference } from "./state.js";

export type UndoAction = { kind: "update"; fields: Record<string, unknown> } | { kind: "attach"; copy: ImageCopy } | { kind: "remove" };

export type UndoPlan = { action: UndoAction; problem: null } | { action: null; problem: string };

const refuse = (problem: string): UndoPlan => ({ action: null, problem });

function restoreField(before: IntakeState, field: string, requested: unknown): { value: unknown; problem: string | null } {
  const stateField = UPDATE_TO_STATE[field]!;
  const valueAt = (item: PositionState | undefined, where: string) => {
    const value = item?.[stateField] ?? null;
    return value === null
      ? { value: null, problem: `${field}${where} had no value before the change: there is nothing to put back` }
      : { value, problem: null };
  };
  if (!isPlainRecord(requested)) return valueAt(before.items[0], "");
  const restored: Record<string, unknown> = {};
  for (const position of Object.keys(requested)) {
    const { value, problem } = valueAt(
      before.items.find((item) => item.position === position),
      ` of position ${position}`,
    );
    if (problem) return { value: null, problem };
    restored[position] = value;
  }
  return { value: restored, problem: null };
}

export function planUndo(entry: JournalEntry): UndoPlan {
  if (entry.outcome === "failed") return refuse(`entry ${entry.id} failed: the server did not apply it, there is nothing to undo`);
  if (!entry.before) return refuse(`entry ${entry.id} has no before state (the intake was not read before the change)`);
  const kind = requestKind(entry);
  if (kind !== "update") {
    if (!entry.before.display_image.attached) return { action: { kind: "remove" }, problem: null };
    if (!entry.image_copy) return refuse(`entry ${entry.id} kept no copy of the display image it replaced or removed`);
    return { action: { kind: "attach", copy: entry.image_copy }, problem: null };
  }
  const body = isPlainRecord(entry.request.body) ? entry.request.body : {};
  const fields: Record<string, unknown> = {};
  for (const field of Object.keys(UPDATE_TO_STATE)) {
    if (body[field] === undefined) continue;
    const { value, problem } = restoreField(entry.before, field, body[field]);
    if (problem) return refuse(`entry ${entry.id}: ${problem}`);
    fields[field] = value;
  }
  if (!Object.keys(fields).length) return refuse(`entry ${entry.id} changed no quantity, level or measures`);
  return { action: { kind: "update", fields }, problem: null };
}

/** Why undo needs --force for this entry even when nothing changed since: its after state is not known. */
export function forceReason(entry: JournalEntry): string | null {
  if (entry.outcome === "unknown") return `entry ${entry.id} has outcome unknown (sent, but no answer was seen)`;
  // An overwritten change's after state is known to be another writer's: refuseOverwritten says so.
  if (entry.after || entry.overwritten.length) return null;
  const why = entry.notes.includes(READ_BACK_FAILED)
    ? "reading the intake back after it failed or was cut short"
    : "sent with --no-verify or without a read";
  return `entry ${entry.id} has no after state (${why})`;
}

/** After the undo: the fields it put back that still differ from the entry's before state. */
export function undoLeftovers(entry: JournalEntry & { before: IntakeState }, action: UndoAction, now: IntakeState): StateDifference[] {
  const differences = stateDifferences(entry.before, now, { ignoreImageUrl: true });
  if (action.kind !== "update") return differences.filter((difference) => difference.field === "display image");
  const touched = new Set<string>();
  for (const [field, value] of Object.entries(action.fields)) {
    const positions = isPlainRecord(value) ? Object.keys(value) : [entry.before.items[0]?.position ?? null];
    for (const position of positions) touched.add(`${position}:${UPDATE_TO_STATE[field]}`);
  }
  return differences.filter((difference) => touched.has(`${difference.position}:${difference.field}`));
}
