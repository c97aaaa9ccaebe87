import { describe, expect, it } from "vitest";
import { IntakeSchema, type Intake } from "../../src/records/intake.js";
import { kcalOf, readItems, readTotals } from "../../src/intake/items.js";
import { formatAmount } from "../../src/intake/amounts.js";

const nutrition = (kcal: number, extra: Record<string, number> = {}) => ({
  calories: kcal,
  totalNutrients: {
    ENERC_KCAL: { label: "Energy", quantity: kcal, unit: "kcal" },
    ...Object.fromEntries(
      Object.entries(extra).map(([code, quantity]) => [code, { label: code, quantity, unit: code === "NA" ? "mg" : "g" }]),
    ),
  },
});

/** Domain fixtures: the three kinds of intake as the API shows them. */
function recognitionIntake(overrides: Partial<Intake> = {}): Intake {
  return IntakeSchema.parse({
    image_id: 1001,
    foodName: ["Spaghetti bolognese"],
    serving_size: 350,
    nutritional_info: nutrition(520, { PROCNT: 22.5, FAT: 18, CHOCDF: 64.25, SUGAR: 8, NA: 640 }),
    recipe: [{ name: "pasta", weight: 200, unit: "g" }],
    salt: "medium",
    sugar: "low",
    ...overrides,
  });
}

function segmentationIntake(): Intake {
  return IntakeSchema.parse({
    image_id: 1002,
    foodName: ["Rice", "Chicken"],
    serving_size: 300,
    nutritional_info: nutrition(600),
    nutritional_info_per_item: [
      { food_item_position: 1, serving_size: 180, hasNutritionalInfo: true, nutritional_info: nutrition(230) },
      { food_item_position: 2, serving_size: 120, hasNutritionalInfo: true, nutritional_info: nutrition(370) },
    ],
    recipe_per_item: [
      { food_item_position: 1, name: "Rice", serving_size: 180, salt: "low", sugar: "none", oil: "none", measures: "metric", recipe: [] },
      {
        food_item_position: 2,
        name: "Chicken",
        serving_size: 120,
        salt: "medium",
        sugar: "none",
        oil: "high",
        measures: "imperial",
        recipe: [],
      },
    ],
  });
}

describe("readItems", () => {
  it("shows a recognition-only intake as one row without a position", () => {
    expect(readItems(recognitionIntake())).toEqual([
      { position: null, food: "Spaghetti bolognese", grams: 350, salt: "medium", sugar: "low", oil: null, measures: null, kcal: 520 },
    ]);
  });

  it("shows an itemized intake as one row per position, nutrition matched by position", () => {
    expect(readItems(segmentationIntake())).toEqual([
      { position: "1", food: "Rice", grams: 180, salt: "low", sugar: "none", oil: "none", measures: "metric", kcal: 230 },
      { position: "2", food: "Chicken", grams: 120, salt: "medium", sugar: "none", oil: "high", measures: "imperial", kcal: 370 },
    ]);
  });

  it("shows a manual intake's manualN positions", () => {
    const intake = IntakeSchema.parse({
      image_id: 1003,
      foodName: ["Oats", "Milk"],
      recipe_per_item: [
        { food_item_position: "manual1", name: "Oats", serving_size: 60 },
        { food_item_position: "manual2", name: "Milk", serving_size: 200 },
      ],
    });
    expect(readItems(intake).map((item) => [item.position, item.food, item.grams, item.kcal])).toEqual([
      ["manual1", "Oats", 60, null],
      ["manual2", "Milk", 200, null],
    ]);
  });

  it("copes with a record missing every optional field", () => {
    expect(readItems(IntakeSchema.parse({ image_id: 5 }))).toEqual([
      { position: null, food: "(unnamed)", grams: null, salt: null, sugar: null, oil: null, measures: null, kcal: null },
    ]);
  });

  it("falls back to foodName and per-item nutrition when recipe_per_item is missing", () => {
    const intake = IntakeSchema.parse({
      image_id: 6,
      foodName: ["Soup"],
      nutritional_info_per_item: [{ food_item_position: "manual1", serving_size: 250, nutritional_info: { calories: 90 } }],
    });
    expect(readItems(intake)).toEqual([
      { position: "manual1", food: "Soup", grams: 250, salt: null, sugar: null, oil: null, measures: null, kcal: 90 },
    ]);
  });
});

describe("readTotals", () => {
  it("reads energy, protein, fat, carbs, sugar and sodium in that order", () => {
    expect(readTotals(recognitionIntake()).map((total) => [total.label, total.value, total.unit])).toEqual([
      ["energy", 520, "kcal"],
      ["protein", 22.5, "g"],
      ["fat", 18, "g"],
      ["carbs", 64.25, "g"],
      ["sugar", 8, "g"],
      ["sodium", 640, "mg"],
    ]);
  });

  it("gives null for nutrients the record lacks", () => {
    expect(readTotals(IntakeSchema.parse({ image_id: 5 })).every((total) => total.value === null)).toBe(true);
  });

  it("reads energy from ENERC_KCAL when calories is missing", () => {
    expect(kcalOf({ totalNutrients: { ENERC_KCAL: { quantity: 410 } } })).toBe(410);
    expect(kcalOf({ calories: null, totalNutrients: null })).toBeNull();
    expect(kcalOf(null)).toBeNull();
  });
});

describe("formatAmount", () => {
  it.each([
    [150, "150"],
    [80.5, "80.5"],
    [80.46, "80.5"],
    [79.96, "80"],
    [0, "0"],
    [null, "-"],
    [undefined, "-"],
  ])("shows %j as %s", (value, text) => {
    expect(formatAmount(value)).toBe(text);
  });
});
