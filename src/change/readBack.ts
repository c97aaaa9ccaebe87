/**
 * Two people may change one intake at the same moment (docs/journal.md, concurrent writers): the
 * read-back after a change is compared with what the change sent, so another writer's value is
 * never taken for this change's result. Pure: no I/O.
 */
import { isPlainRecord } from "../intake/records.js";
import type { OthersChange, Overwritten } from "../records/journal.js";
import {
  sameValue,
  show,
  stateDifferences,
  UPDATE_TO_STATE,
  type IntakeState,
  type PositionState,
  type StateField,
} from "../journal/state.js";

export type { OthersChange, Overwritten };

/** What a change sets: update fields (its body), or whether a display image is attached afterwards. */
export type SentChange = { kind: "update"; fields: Record<string, unknown> } | { kind: "image"; attached: boolean };

export interface ReadBackCheck {
  /** Fields this change set that now hold another value: another writer changed them meanwhile. */
  overwritten: Overwritten[];
  /** Fields this change did not set that differ between the read before and the read-back. */
  othersChanged: OthersChange[];
}

interface SentValue {
  position: string | null;
  field: StateField;
  value: unknown;
}

/** Each field and position an update sets, with its value; a single value is the one row of a recognition-only intake. */
function sentValues(fields: Record<string, unknown>, firstPosition: string | null): SentValue[] {
  const sent: SentValue[] = [];
  for (const [name, field] of Object.entries(UPDATE_TO_STATE)) {
    const value = fields[name];
    if (value === undefined) continue;
    if (isPlainRecord(value)) for (const [position, item] of Object.entries(value)) sent.push({ position, field, value: item });
    else sent.push({ position: firstPosition, field, value });
  }
  return sent;
}

const key = (position: string | null, field: string) => `${position}:${field}`;

function itemAt(state: IntakeState | null, position: string | null): PositionState | undefined {
  return state?.items.find((item) => item.position === position);
}

/**
 * Compares the read-back with what was sent. A quantity that is not the one sent was overwritten;
 * a level that is neither the one sent nor the one before was overwritten (one that kept its
 * value before was ignored by the server: docs/api.md, update rule 2).
 */
export function checkReadBack(sent: SentChange, before: IntakeState | null, after: IntakeState): ReadBackCheck {
  const overwritten: Overwritten[] = [];
  const touched = new Set<string>();
  if (sent.kind === "image") {
    touched.add(key(null, "display image"));
    if (after.display_image.attached !== sent.attached)
      overwritten.push({
        position: null,
        field: "display image",
        sent: sent.attached ? "attached" : "none",
        now: after.display_image.attached ? "attached" : "none",
      });
  } else {
    for (const { position, field, value } of sentValues(sent.fields, after.items[0]?.position ?? null)) {
      touched.add(key(position, field));
      const item = itemAt(after, position);
      const now = item ? item[field] : null;
      if (sameValue(now, value)) continue;
      if (field !== "grams" && (!before || sameValue(now, itemAt(before, position)?.[field] ?? null))) continue;
      overwritten.push({ position, field, sent: show(value), now: item ? show(now) : "gone" });
    }
  }
  const othersChanged = before
    ? stateDifferences(before, after).filter((difference) => !touched.has(key(difference.position, difference.field)))
    : [];
  return { overwritten, othersChanged };
}
