/** Which values of an update an intake holds already (src/intake/unchanged.ts): the one rule every update and intake edit take. */
import { describe, expect, it } from "vitest";
import { holdsAlready, splitHeldValues } from "../../src/intake/unchanged.js";
import type { Intake } from "../../src/records/intake.js";

const recipe = (position: number | string, grams: number, salt: string) => ({
  food_item_position: position,
  name: `food ${position}`,
  serving_size: grams,
  salt,
  sugar: "none",
  oil: "low",
  measures: "metric",
});

const itemized = {
  image_id: 1002,
  foodName: ["food 1", "food 2"],
  recipe_per_item: [recipe(1, 180, "medium"), recipe(2, 150.5, "none")],
} as unknown as Intake;

const recognition = { image_id: 1001, foodName: ["soup"], serving_size: 320, salt: "medium", recipe: [] } as unknown as Intake;

describe("holdsAlready", () => {
  it.each([
    [150, 150, true],
    [150.5, 150.5, true],
    [150, 150.04, false],
    ["low", "low", true],
    ["low", null, false],
    [150, "150", false],
  ])("%j against %j: %j", (value, was, held) => {
    expect(holdsAlready(value, was)).toBe(held);
  });
});

describe("splitHeldValues", () => {
  it("keeps per position only the values that differ, and lists the others", () => {
    const split = splitHeldValues(
      { quantity: { "1": 180, "2": 160 }, salt: { "1": "medium", "2": "none" }, oil: { "2": "high" } },
      itemized,
    );
    expect(split.fields).toEqual({ quantity: { "2": 160 }, oil: { "2": "high" } });
    expect(split.held).toEqual([
      { position: "1", field: "quantity", value: 180 },
      { position: "1", field: "salt", value: "medium" },
      { position: "2", field: "salt", value: "none" },
    ]);
  });

  it("holds nothing back when every value differs, and keeps keys that are not update fields", () => {
    const fields = { imageId: 1002, quantity: { "2": 150 } };
    expect(splitHeldValues(fields, itemized)).toEqual({ fields, held: [] });
  });

  it("judges a recognition-only intake's total and levels", () => {
    expect(splitHeldValues({ quantity: 320, salt: "low" }, recognition)).toEqual({
      fields: { salt: "low" },
      held: [{ position: null, field: "quantity", value: 320 }],
    });
  });

  it("sends a position the record does not list, and a whole-intake value on an itemized record: the checks or the server judge them", () => {
    const fields = { quantity: { "9": 180 } };
    expect(splitHeldValues(fields, itemized).fields).toEqual(fields);
    expect(splitHeldValues({ quantity: 330 }, itemized).fields).toEqual({ quantity: 330 });
  });
});
