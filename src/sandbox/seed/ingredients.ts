/**
 * The ingredient table behind every dish (`ingredients.json`): per 100 g, one value per code of
 * the table's `nutrients` header, in the unit `NUTRIENTS` gives that code (docs/api.md, the
 * sandbox's nutrition model).
 */
import { NUTRIENT_CODES, type NutrientCode, type NutrientValues } from "../nutrition.js";
import table from "./ingredients.json" with { type: "json" };

export type IngredientKey = keyof typeof table.ingredients;

export interface Ingredient {
  name: string;
  per100g: Readonly<NutrientValues>;
}

/** The table as the JSON file gives it: a header of nutrient codes, and each ingredient's values in that order. */
export interface IngredientTable {
  nutrients: readonly string[];
  ingredients: Readonly<Record<string, { name: string; per100g: readonly number[] }>>;
}

/** Checks the table (every code once, a finite value ≥ 0 for each, a name for each) and keys each value by its code. */
export function readIngredients(raw: IngredientTable): Record<string, Ingredient> {
  const header = raw.nutrients;
  const missing = NUTRIENT_CODES.filter((code) => !header.includes(code));
  if (missing.length || header.length !== NUTRIENT_CODES.length) {
    throw new Error(`ingredient table: the nutrients header must name each of ${NUTRIENT_CODES.join(", ")} once`);
  }
  const ingredients: Record<string, Ingredient> = {};
  for (const [key, { name, per100g }] of Object.entries(raw.ingredients)) {
    if (typeof name !== "string" || name === "") throw new Error(`ingredient table: ${key} has no name`);
    if (per100g.length !== header.length || !per100g.every((value) => Number.isFinite(value) && value >= 0)) {
      throw new Error(`ingredient table: ${key} needs ${header.length} finite values of 0 or more`);
    }
    const values = Object.fromEntries(header.map((code, index) => [code, per100g[index]])) as Record<NutrientCode, number>;
    ingredients[key] = { name, per100g: values };
  }
  return ingredients;
}

export const INGREDIENTS = readIngredients(table) as Readonly<Record<IngredientKey, Ingredient>>;

export function ingredientPer100g(key: IngredientKey): NutrientValues {
  return { ...INGREDIENTS[key].per100g };
}
