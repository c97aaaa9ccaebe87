/** What a change did to an intake, item by item: pure, for printing and for batch results. */
import type { Intake } from "../records/intake.js";
import { readItems, readTotals, type ItemView } from "./items.js";
import { isPlainRecord } from "./records.js";
import { MODIFIERS } from "../records/fields.js";

export type Pair<T> = { before: T; after: T };

export interface ItemChange {
  position: string | null;
  food: string;
  grams: Pair<number | null>;
  kcal: Pair<number | null>;
  salt: Pair<string | null>;
  sugar: Pair<string | null>;
  oil: Pair<string | null>;
  measures: Pair<string | null>;
  changed: boolean;
}

export interface IntakeDiff {
  imageId: number;
  items: ItemChange[];
  totals: Array<{ label: string; unit: string } & Pair<number | null>>;
  displayImage: Pair<{ attached: boolean; url: string | null; width: number | null; height: number | null }>;
  changed: boolean;
}

const LEVEL_FIELDS = [...MODIFIERS, "measures"] as const;

const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 0.05);

function displayImageOf(intake: Intake) {
  return {
    attached: intake.has_display_image === true,
    url: intake.image_url ?? null,
    width: intake.processed_image_size?.width ?? null,
    height: intake.processed_image_size?.height ?? null,
  };
}

export function diffIntakes(before: Intake, after: Intake): IntakeDiff {
  const beforeItems = new Map(readItems(before).map((item) => [item.position, item]));
  const items = readItems(after).map((now): ItemChange => {
    const was = beforeItems.get(now.position);
    // An item new since before had none of its values.
    const pair = <K extends keyof ItemView>(key: K): Pair<ItemView[K] | null> => ({ before: was ? was[key] : null, after: now[key] });
    const change = {
      position: now.position,
      food: now.food,
      grams: pair("grams"),
      kcal: pair("kcal"),
      salt: pair("salt"),
      sugar: pair("sugar"),
      oil: pair("oil"),
      measures: pair("measures"),
    };
    const changed =
      !close(change.grams.before, change.grams.after) ||
      !close(change.kcal.before, change.kcal.after) ||
      LEVEL_FIELDS.some((field) => change[field].before !== change[field].after);
    return { ...change, changed };
  });
  const afterTotals = readTotals(after);
  const totals = readTotals(before).map((total, index) => ({
    label: total.label,
    unit: total.unit,
    before: total.value,
    after: afterTotals[index]?.value ?? null,
  }));
  const displayImage = { before: displayImageOf(before), after: displayImageOf(after) };
  const imageChanged = JSON.stringify(displayImage.before) !== JSON.stringify(displayImage.after);
  return {
    imageId: after.image_id,
    items,
    totals,
    displayImage,
    changed: imageChanged || items.some((item) => item.changed) || totals.some((total) => !close(total.before, total.after)),
  };
}

export interface IgnoredModifier {
  position: string | null;
  field: string;
  requested: string;
  actual: string | null;
}

/**
 * Requested salt, sugar, oil or measures that the intake does not show afterwards: the
 * server ignored them (docs/api.md, update rule 2: the user's plan is below Monitor).
 */
export function findIgnoredModifiers(fields: Record<string, unknown>, after: Intake): IgnoredModifier[] {
  const items = readItems(after);
  const ignored: IgnoredModifier[] = [];
  for (const field of LEVEL_FIELDS) {
    const requested = fields[field];
    if (requested === undefined) continue;
    if (typeof requested === "string") {
      const actual = items[0]?.[field] ?? null;
      if (actual !== requested) ignored.push({ position: null, field, requested, actual });
    } else if (isPlainRecord(requested)) {
      for (const [position, value] of Object.entries(requested)) {
        const actual = items.find((item) => item.position === position)?.[field] ?? null;
        if (actual !== value) ignored.push({ position, field, requested: String(value), actual });
      }
    }
  }
  return ignored;
}
