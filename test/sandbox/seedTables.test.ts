/** The seed tables in src/sandbox/seed/*.json: their loaders accept the shipped data and refuse a broken table with a clear message. */
import { describe, expect, it } from "vitest";
import { NUTRIENT_CODES } from "../../src/sandbox/nutrition.js";
import dishTable from "../../src/sandbox/seed/dishes.json" with { type: "json" };
import { readDishes, type DishRecord } from "../../src/sandbox/seed/dishes.js";
import ingredientTable from "../../src/sandbox/seed/ingredients.json" with { type: "json" };
import { readIngredients } from "../../src/sandbox/seed/ingredients.js";
import { DISHES, INGREDIENTS } from "../../src/sandbox/seed.js";

type EditableTable = { nutrients: string[]; ingredients: Record<string, { name: string; per100g: number[] }> };
const ingredients = (change: (table: EditableTable) => void) => {
  const table: EditableTable = structuredClone(ingredientTable);
  change(table);
  return () => readIngredients(table);
};
const dishes = (change: (table: DishRecord[]) => void) => {
  const table = structuredClone(dishTable) as DishRecord[];
  change(table);
  return () => readDishes(table, INGREDIENTS);
};

describe("seed tables", () => {
  it("every ingredient has a name and a finite value of 0 or more for each nutrient code", () => {
    expect(Object.keys(INGREDIENTS).length).toBe(Object.keys(ingredientTable.ingredients).length);
    for (const ingredient of Object.values(INGREDIENTS)) {
      expect(ingredient.name).not.toBe("");
      expect(Object.keys(ingredient.per100g).sort()).toEqual([...NUTRIENT_CODES].sort());
      for (const value of Object.values(ingredient.per100g)) expect(Number.isFinite(value) && value >= 0).toBe(true);
    }
    expect(INGREDIENTS.spaghetti.per100g).toMatchObject({ ENERC_KCAL: 158, NA: 1, "SUGAR.added": 0, VITC: 0 });
  });

  it("every dish has a unique id and names only ingredients of the table, in file order", () => {
    expect(DISHES.map((dish) => dish.id)).toEqual(dishTable.map((dish) => dish.id));
    expect(new Set(DISHES.map((dish) => dish.id)).size).toBe(DISHES.length);
    for (const dish of DISHES) for (const [key] of dish.recipe) expect(INGREDIENTS[key]).toBeDefined();
    expect(DISHES.find((dish) => dish.id === 501)!.recipe).toEqual([
      ["spaghetti", 0.5],
      ["beefMince", 0.25],
      ["tomatoSauce", 0.2],
      ["parmesan", 0.05],
    ]);
  });

  it("refuses an ingredient table whose header, names or values are off", () => {
    expect(ingredients((table) => table.nutrients.pop())).toThrow(/header must name each of ENERC_KCAL/);
    expect(ingredients((table) => (table.nutrients[1] = "ENERC_KCAL"))).toThrow(/header must name each/);
    expect(ingredients((table) => table.ingredients.rice!.per100g.pop())).toThrow(
      "ingredient table: rice needs 18 finite values of 0 or more",
    );
    expect(ingredients((table) => (table.ingredients.rice!.per100g[3] = -1))).toThrow(/rice needs 18 finite values/);
    expect(ingredients((table) => (table.ingredients.rice!.name = ""))).toThrow("ingredient table: rice has no name");
  });

  it("refuses a dish with an unknown ingredient, bad shares or a repeated id", () => {
    expect(dishes((table) => (table[0]!.recipe = { ...table[0]!.recipe, truffle: 0 }))).toThrow(
      "dish catalogue: dish 501 names unknown ingredients: truffle",
    );
    expect(dishes((table) => (table[0]!.recipe = { spaghetti: 0.5, beefMince: 0.4 }))).toThrow(/shares of dish 501 must be numbers over 0/);
    expect(dishes((table) => (table[0]!.recipe = { spaghetti: 1.5, beefMince: -0.5 }))).toThrow(/shares of dish 501/);
    expect(dishes((table) => (table[1]!.id = 501))).toThrow("dish catalogue: id 501 is not a unique positive whole number");
    expect(dishes((table) => (table[1]!.name = ""))).toThrow("dish catalogue: dish 502 needs a name and likelyAddedSugar");
  });

  it("every dish has a standard portion and a Spanish name; a name in no language code, or an empty one, is refused", () => {
    for (const dish of DISHES) {
      expect(dish.portion).toBeGreaterThan(0);
      expect(dish.names.spa).toMatch(/\S/);
      expect(dish.names.spa).not.toBe(dish.name);
    }
    expect(dishes((table) => (table[0]!.portion = 0))).toThrow("dish catalogue: dish 501 needs a standard portion in grams over 0");
    expect(dishes((table) => (table[0]!.names = { es: "Espaguetis" }))).toThrow(
      'dish catalogue: dish 501 has a name in "es", which is not a language code or has no text',
    );
    expect(dishes((table) => (table[0]!.names = { spa: "" }))).toThrow(/dish 501 has a name in "spa"/);
  });
});
