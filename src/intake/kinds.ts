import type { Position } from "./positions.js";

export const INTAKE_KINDS = ["recognition", "segmentation", "manual"] as const;
export type IntakeKind = (typeof INTAKE_KINDS)[number];

/** The parts of an intake record that tell its kind (docs/api.md, the intake record). */
export interface KindEvidence {
  recipe_per_item?: ReadonlyArray<{ food_item_position: Position }> | null | undefined;
  nutritional_info_per_item?: ReadonlyArray<{ food_item_position: Position }> | null | undefined;
}

/**
 * No recipe_per_item → recognition-only; integer positions → segmentation; manualN → manual.
 * Falls back to nutritional_info_per_item when a server omits recipe_per_item but itemizes.
 */
export function readIntakeKind(record: KindEvidence): IntakeKind {
  const items = record.recipe_per_item ?? record.nutritional_info_per_item;
  if (!items) return "recognition";
  if (items.some((item) => typeof item.food_item_position === "string" && /^manual/.test(item.food_item_position))) {
    return "manual";
  }
  return "segmentation";
}

export function isItemized(kind: IntakeKind): boolean {
  return kind !== "recognition";
}

export const KIND_LABELS: Record<IntakeKind, string> = {
  recognition: "recognition-only",
  segmentation: "segmentation",
  manual: "manual",
};
