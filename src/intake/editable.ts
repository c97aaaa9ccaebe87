/**
 * The editable state of an intake (quantities, salt, sugar, oil, measures per item): compared
 * before and after a change, and sent back to restore it. Pure, no I/O.
 */
import type { Intake } from "../records/intake.js";
import { formatAmount } from "./amounts.js";
import { kcalOf, readItems, type ItemView } from "./items.js";
import { isItemized, readIntakeKind } from "./kinds.js";

const FIELDS = ["grams", "salt", "sugar", "oil", "measures"] as const;
const LEVEL_FIELDS = ["salt", "sugar", "oil", "measures"] as const;

/** The first difference between two states, in words; null when they are equal in every editable field. */
export function stateDifference(actual: ItemView[], expected: ItemView[]): string | null {
  const label = (item: ItemView) => (item.position === null ? "total" : `position ${item.position}`);
  if (actual.length !== expected.length) return `${actual.length} items instead of ${expected.length}`;
  for (const [index, want] of expected.entries()) {
    const got = actual[index]!;
    if (got.position !== want.position) return `position ${got.position ?? "-"} instead of ${want.position ?? "-"}`;
    for (const field of FIELDS) {
      if (got[field] !== want[field]) {
        const text = (value: string | number | null) =>
          value === null ? "unset" : field === "grams" ? `${formatAmount(Number(value), 3)} g` : String(value);
        return `${label(want)}: ${field === "grams" ? "" : `${field} `}${text(got[field])} instead of ${text(want[field])}`;
      }
    }
  }
  return null;
}

export interface SmokeChange {
  /** The update's fields: one quantity, one gram more. */
  fields: Record<string, unknown>;
  /** The body key changed, or null for a recognition-only intake's total. */
  position: string | null;
  grams: { before: number; after: number };
  /** The editable state the change should produce. */
  expected: ItemView[];
}

/**
 * A change that is visibly different and safe to undo: the first item (or the total) one gram
 * heavier. Recognition-only totals are whole grams (docs/api.md, update operation), so the
 * total goes to the next whole number. Null when the intake has no grams to change.
 */
export function buildSmokeChange(intake: Intake): SmokeChange | null {
  const state = readItems(intake);
  const first = state[0];
  if (!first || first.grams === null) return null;
  const itemized = isItemized(readIntakeKind(intake));
  const after = itemized ? first.grams + 1 : Math.floor(first.grams) + 1;
  const fields = itemized ? { quantity: { [first.position!]: after } } : { quantity: after };
  const expected = state.map((item, index) => (index === 0 ? { ...item, grams: after } : item));
  return { fields, position: itemized ? first.position : null, grams: { before: first.grams, after }, expected };
}

/** The update fields that put every quantity and level of `original` back (absolute values). */
export function buildRestoreFields(original: Intake): Record<string, unknown> {
  const state = readItems(original);
  if (!isItemized(readIntakeKind(original))) {
    const only = state[0];
    const fields: Record<string, unknown> = {};
    if (only?.grams !== null && only?.grams !== undefined) fields.quantity = only.grams;
    if (only?.salt) fields.salt = only.salt;
    if (only?.sugar) fields.sugar = only.sugar;
    return fields;
  }
  const fields: Record<string, Record<string, unknown>> = {};
  const put = (name: string, position: string, value: unknown) => {
    fields[name] ??= {};
    fields[name][position] = value;
  };
  for (const item of state) {
    if (item.position === null) continue;
    if (item.grams !== null) put("quantity", item.position, item.grams);
    for (const field of LEVEL_FIELDS) if (item[field] !== null) put(field, item.position, item[field]);
  }
  return fields;
}

/** The kcal an item (or the whole intake, for recognition-only) has; null when the record has none. */
export function itemKcal(intake: Intake, position: string | null): number | null {
  if (position === null) return kcalOf(intake.nutritional_info);
  return readItems(intake).find((item) => item.position === position)?.kcal ?? null;
}

/** One line per item: what a person needs to put the intake back by hand. */
export function describeState(state: ItemView[]): string[] {
  return state.map((item) => {
    const levels = LEVEL_FIELDS.filter((field) => item[field] !== null).map((field) => `${field} ${item[field]}`);
    const grams = item.grams === null ? "- g" : `${formatAmount(item.grams, 3)} g`;
    return [item.position ?? "total", item.food, grams, ...levels].join("  ");
  });
}
