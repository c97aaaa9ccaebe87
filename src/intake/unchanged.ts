/**
 * Which values of an update the intake holds already, as `kubectl apply` leaves an unchanged
 * object alone: a value is sent only when it differs from what was read. `intake edit`'s text
 * and every update take the one rule here (docs/cli.md, changing an intake). Pure, no I/O.
 */
import type { Intake } from "../records/intake.js";
import { readItems, type ItemView } from "./items.js";
import { isPlainRecord } from "./records.js";
import { UPDATE_FIELDS } from "./update.js";

type UpdateField = (typeof UPDATE_FIELDS)[number];

/** A value an update asks for that the intake holds already: it is not sent. */
export interface HeldValue {
  /** The body key ("1", "manual2"); null for a recognition-only intake's total and levels. */
  position: string | null;
  field: UpdateField;
  value: string | number;
}

/** Where each update field is read in an item. */
const ITEM_FIELD: Record<UpdateField, keyof ItemView> = {
  quantity: "grams",
  salt: "salt",
  sugar: "sugar",
  oil: "oil",
  measures: "measures",
};

/** The one rule: a value asked for is unchanged when it is exactly what the intake has. */
export function holdsAlready(value: unknown, was: unknown): boolean {
  return value === was;
}

/**
 * The update fields that differ from the intake, and the values it holds already. A position
 * the record does not list, or a whole-intake value on a record that lists items, is kept: the
 * pre-checks or the server judge it.
 */
export function splitHeldValues(fields: Record<string, unknown>, intake: Intake): { fields: Record<string, unknown>; held: HeldValue[] } {
  const items = readItems(intake);
  const byPosition = new Map(items.map((item) => [item.position, item]));
  const total = items.length === 1 && items[0]!.position === null ? items[0] : undefined;
  const differing: Record<string, unknown> = {};
  const held: HeldValue[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const field = UPDATE_FIELDS.find((candidate) => candidate === name);
    if (field === undefined) {
      differing[name] = value;
    } else if (isPlainRecord(value)) {
      const kept: Record<string, unknown> = {};
      for (const [position, asked] of Object.entries(value)) {
        const item = byPosition.get(position);
        if (item && (typeof asked === "string" || typeof asked === "number") && holdsAlready(asked, item[ITEM_FIELD[field]]))
          held.push({ position, field, value: asked });
        else kept[position] = asked;
      }
      if (Object.keys(kept).length) differing[name] = kept;
    } else if (total && (typeof value === "string" || typeof value === "number") && holdsAlready(value, total[ITEM_FIELD[field]])) {
      held.push({ position: null, field, value });
    } else {
      differing[name] = value;
    }
  }
  return { fields: differing, held };
}
