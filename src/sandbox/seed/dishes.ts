/**
 * The dish catalogue (`dishes.json`): fixed ids (the service's class ids, which `ids` and a
 * per-item `id` carry), names in English and other languages, a standard portion, and a recipe
 * over the ingredient table.
 */
import { isLanguageCode, type LanguageCode } from "../../records/languages.js";
import table from "./dishes.json" with { type: "json" };
import { INGREDIENTS, type IngredientKey } from "./ingredients.js";

export interface Dish {
  id: number;
  /** The English name. */
  name: string;
  /** Names in other languages (ISO 639-2/T codes); a language not given falls back to English. */
  names: Readonly<Partial<Record<LanguageCode, string>>>;
  /** Grams of the standard portion: what `recipe/nutritionalInfo` answers for a `class_id` alone. */
  portion: number;
  likelyAddedSugar: boolean;
  /** Base components and their shares of the non-modifier weight (they sum to 1). */
  recipe: ReadonlyArray<readonly [IngredientKey, number]>;
}

/** A dish as the JSON file gives it: the recipe maps ingredient keys to shares (what the file leaves out reads as undefined). */
export interface DishRecord {
  id: number;
  name: string;
  names: Readonly<Record<string, string | undefined>>;
  portion: number;
  likelyAddedSugar: boolean;
  recipe: Readonly<Record<string, number | undefined>>;
}

/** A recipe's components in file order: known ingredients, with finite shares over 0 that add up to 1. */
function readRecipe(id: number, recipe: DishRecord["recipe"], ingredients: Readonly<Record<string, unknown>>): [IngredientKey, number][] {
  const unknown = Object.keys(recipe).filter((key) => !Object.hasOwn(ingredients, key));
  if (unknown.length) throw new Error(`dish catalogue: dish ${id} names unknown ingredients: ${unknown.join(", ")}`);
  const components = Object.entries(recipe).filter((entry): entry is [IngredientKey, number] => Number.isFinite(entry[1]) && entry[1]! > 0);
  const total = components.reduce((sum, [, share]) => sum + share, 0);
  if (components.length !== Object.keys(recipe).length || Math.abs(total - 1) > 1e-9) {
    throw new Error(`dish catalogue: the shares of dish ${id} must be numbers over 0 that add up to 1`);
  }
  return components;
}

/** Checks the catalogue (unique positive whole ids, names, recipes over the ingredient table) and types it. */
export function readDishes(raw: readonly DishRecord[], ingredients: Readonly<Record<string, unknown>>): Dish[] {
  const ids = new Set<number>();
  return raw.map(({ id, name, names, portion, likelyAddedSugar, recipe }) => {
    if (!Number.isSafeInteger(id) || id <= 0 || ids.has(id))
      throw new Error(`dish catalogue: id ${id} is not a unique positive whole number`);
    ids.add(id);
    if (typeof name !== "string" || name === "" || typeof likelyAddedSugar !== "boolean") {
      throw new Error(`dish catalogue: dish ${id} needs a name and likelyAddedSugar`);
    }
    if (!Number.isFinite(portion) || portion <= 0) throw new Error(`dish catalogue: dish ${id} needs a standard portion in grams over 0`);
    const badName = Object.entries(names).find(([code, text]) => !isLanguageCode(code) || typeof text !== "string" || text === "");
    if (badName) throw new Error(`dish catalogue: dish ${id} has a name in "${badName[0]}", which is not a language code or has no text`);
    return { id, name, names: names as Dish["names"], portion, likelyAddedSugar, recipe: readRecipe(id, recipe, ingredients) };
  });
}

/** The dish catalogue: what recognition can name and `image/confirm/dish` can confirm. */
export const DISHES: readonly Dish[] = readDishes(table, INGREDIENTS);

export function findDish(id: number): Dish | undefined {
  return DISHES.find((dish) => dish.id === id);
}

/** The dish's name in a language, English when the catalogue has none in it. */
export function dishName(dish: Dish, language: LanguageCode): string {
  return language === "eng" ? dish.name : (dish.names[language] ?? dish.name);
}
