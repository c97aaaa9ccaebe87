import type { IntakeKind } from "../records/fields.js";
import type { Position } from "./positions.js";

/** What a record says of its kind: "unknown" when nothing in it tells (an intake not confirmed yet). */
export type RecordKind = IntakeKind | "unknown";

/** The parts of an intake record that tell its kind (docs/api.md, the intake record). */
export interface KindEvidence {
  recipe_per_item?: ReadonlyArray<{ food_item_position: Position }> | null | undefined;
  nutritional_info_per_item?: ReadonlyArray<{ food_item_position: Position }> | null | undefined;
  can_edit_display_image?: boolean | null | undefined;
  recipe?: ReadonlyArray<unknown> | null | undefined;
  salt?: string | null | undefined;
  sugar?: string | null | undefined;
  foodName?: ReadonlyArray<string> | string | null | undefined;
}

/** A record's food names as a list: the service sends one name as a string too (docs/api.md). */
export function foodNames(record: Pick<KindEvidence, "foodName">): readonly string[] {
  const names = record.foodName;
  return typeof names === "string" ? [names] : (names ?? []);
}

const isManualPosition = (position: Position) => typeof position === "string" && /^manual/.test(position);

/**
 * The kind from every field that tells, strongest first: the items' positions (manualN → manual,
 * integers → segmentation); a display image that may be edited (manual intakes only); a whole-intake
 * recipe, salt or sugar (recognition-only); several foods (itemized, not manual). A record with none of
 * these (no recipe, no per-item nutrition: not confirmed yet) is "unknown", not guessed.
 */
export function readIntakeKind(record: KindEvidence): RecordKind {
  const positions = [...(record.recipe_per_item ?? []), ...(record.nutritional_info_per_item ?? [])].map((item) => item.food_item_position);
  if (positions.some(isManualPosition)) return "manual";
  if (positions.length > 0) return "segmentation";
  if (record.can_edit_display_image === true) return "manual";
  if ((record.recipe?.length ?? 0) > 0 || typeof record.salt === "string" || typeof record.sugar === "string") return "recognition";
  if (foodNames(record).length > 1) return "segmentation";
  return "unknown";
}

export function isItemized(kind: RecordKind): boolean {
  return kind === "segmentation" || kind === "manual";
}

export const KIND_LABELS: Record<RecordKind, string> = {
  recognition: "recognition-only",
  segmentation: "segmentation",
  manual: "manual",
  unknown: "unknown (not confirmed yet)",
};
