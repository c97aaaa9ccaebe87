/** Reading an intake record into the views the CLI prints and compares: pure, no I/O. */
import type { Intake, Nutrition } from "../records/intake.js";
import { foodNames, readIntakeKind } from "./kinds.js";
import { positionKey } from "./positions.js";

export interface ItemView {
  /** Body key of the item ("1", "manual2"); null for a recognition-only intake's single row. */
  position: string | null;
  food: string;
  grams: number | null;
  salt: string | null;
  sugar: string | null;
  oil: string | null;
  measures: string | null;
  kcal: number | null;
}

export const TOTAL_NUTRIENTS = [
  { code: "ENERC_KCAL", label: "energy", unit: "kcal" },
  { code: "PROCNT", label: "protein", unit: "g" },
  { code: "FAT", label: "fat", unit: "g" },
  { code: "CHOCDF", label: "carbs", unit: "g" },
  { code: "SUGAR", label: "sugar", unit: "g" },
  { code: "NA", label: "sodium", unit: "mg" },
] as const;

export function kcalOf(nutrition: Nutrition | null | undefined): number | null {
  if (!nutrition) return null;
  if (typeof nutrition.calories === "number") return nutrition.calories;
  const energy = nutrition.totalNutrients?.ENERC_KCAL?.quantity;
  return typeof energy === "number" ? energy : null;
}

export function nutrientOf(nutrition: Nutrition | null | undefined, code: string): number | null {
  if (code === "ENERC_KCAL") return kcalOf(nutrition);
  const value = nutrition?.totalNutrients?.[code]?.quantity;
  return typeof value === "number" ? value : null;
}

/** The item positions of an itemized intake, as body keys, in record order. */
export function intakePositions(intake: Intake): string[] {
  const items = intake.recipe_per_item ?? intake.nutritional_info_per_item ?? [];
  return items.map((item) => positionKey(item.food_item_position));
}

export function readItems(intake: Intake): ItemView[] {
  const kind = readIntakeKind(intake);
  const listed = (intake.recipe_per_item?.length ?? 0) + (intake.nutritional_info_per_item?.length ?? 0);
  // A record that lists no items (recognition-only, or not confirmed yet) is shown as one row.
  if (kind === "recognition" || listed === 0) {
    return [
      {
        position: null,
        food: foodNames(intake).join(", ") || "(unnamed)",
        grams: intake.serving_size ?? null,
        salt: intake.salt ?? null,
        sugar: intake.sugar ?? null,
        oil: null,
        measures: null,
        kcal: kcalOf(intake.nutritional_info),
      },
    ];
  }
  const nutritionByPosition = new Map((intake.nutritional_info_per_item ?? []).map((item) => [positionKey(item.food_item_position), item]));
  const recipes = intake.recipe_per_item ?? [];
  const keys = recipes.length ? recipes.map((item) => positionKey(item.food_item_position)) : [...nutritionByPosition.keys()];
  return keys.map((key, index) => {
    const recipe = recipes.find((item) => positionKey(item.food_item_position) === key);
    const nutrition = nutritionByPosition.get(key);
    return {
      position: key,
      food: recipe?.name ?? foodNames(intake)[index] ?? "(unnamed)",
      grams: recipe?.serving_size ?? nutrition?.serving_size ?? null,
      salt: recipe?.salt ?? null,
      sugar: recipe?.sugar ?? null,
      oil: recipe?.oil ?? null,
      measures: recipe?.measures ?? null,
      kcal: kcalOf(nutrition?.nutritional_info),
    };
  });
}

export interface TotalView {
  code: string;
  label: string;
  unit: string;
  value: number | null;
}

export function readTotals(intake: Intake): TotalView[] {
  return TOTAL_NUTRIENTS.map((nutrient) => ({ ...nutrient, value: nutrientOf(intake.nutritional_info, nutrient.code) }));
}

export interface NutrientView {
  code: string;
  label: string;
  quantity: number | null;
  unit: string;
}

/** Every nutrient code of a Nutrition, in the answer's order (codes are read, labels only shown). */
export function readAllNutrients(nutrition: Nutrition | null | undefined): NutrientView[] {
  const total = nutrition?.totalNutrients;
  if (!total) return [];
  return Object.entries(total).map(([code, entry]) => ({
    code,
    label: entry.label ?? "",
    quantity: typeof entry.quantity === "number" ? entry.quantity : null,
    unit: entry.unit ?? "",
  }));
}

/** Every nutrient per intake ("total") and per item (its position), for `intake show --nutrients all`. */
export function readNutrientGroups(intake: Intake): Array<{ scope: string; nutrients: NutrientView[] }> {
  const groups = [{ scope: "total", nutrients: readAllNutrients(intake.nutritional_info) }];
  for (const item of intake.nutritional_info_per_item ?? []) {
    groups.push({ scope: positionKey(item.food_item_position), nutrients: readAllNutrients(item.nutritional_info) });
  }
  return groups;
}
