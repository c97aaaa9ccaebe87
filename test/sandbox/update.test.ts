/** POST /v2/nutrition/confirm/quantity against docs/api.md, update rules. */
import { describe, expect, it } from "vitest";
import { MODIFIER_SHARES } from "../../src/sandbox/nutrition.js";
import { fetchJson, withSandbox, ALL_TIME } from "../helpers/sandbox.js";
import { componentWeight, getIntake, itemAt, itemNutritionAt, nutrient, update, weightsSum, type Json, codeFor } from "./fixtures.js";

const sb = withSandbox({}, { perTest: true });

function baseComponents(recipe: Json[]): Json[] {
  return recipe.filter((component: Json) => !["salt", "sugar", "oil"].includes(component.name));
}

describe("update rule 5: a new quantity rescales the item", () => {
  it("changing the quantity of item 2 rescales its components so the serving equals the quantity", async () => {
    const before = itemAt(await getIntake(sb.handle, 1002, "alice"), 2);
    const answer = await update(sb.handle, "alice", { imageId: 1002, quantity: { "2": 300 } });
    expect(answer.status).toBe(200);
    const after = itemAt(await getIntake(sb.handle, 1002, "alice"), 2);

    expect(after.serving_size).toBe(300);
    expect(weightsSum(after.recipe)).toBeCloseTo(300, 1);
    expect(after.recipe.map((c: Json) => c.name)).toEqual(before.recipe.map((c: Json) => c.name));
    for (const [index, component] of after.recipe.entries()) {
      expect(component.weight).toBeCloseTo(before.recipe[index].weight * 2, 1);
    }
  });

  it("accepts a fractional quantity for an item and keeps it exactly as the serving size", async () => {
    await update(sb.handle, "alice", { imageId: 1003, quantity: { manual2: 80.5 } });
    const item = itemAt(await getIntake(sb.handle, 1003, "alice"), "manual2");
    expect(item.serving_size).toBe(80.5);
    expect(weightsSum(item.recipe)).toBeCloseTo(80.5, 1);
  });

  it("a new quantity keeps each modifier's share of the serving", async () => {
    await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": 360 } });
    const item = itemAt(await getIntake(sb.handle, 1002, "alice"), 1);
    expect(item.salt).toBe("medium");
    expect(componentWeight(item.recipe, "salt")).toBeCloseTo(360 * MODIFIER_SHARES.salt.medium, 2);
    expect(componentWeight(item.recipe, "oil")).toBeCloseTo(360 * MODIFIER_SHARES.oil.low, 2);
  });

  it("a recognition-only quantity rescales the whole recipe to the new total", async () => {
    const before = await getIntake(sb.handle, 1001, "alice");
    expect((await update(sb.handle, "alice", { imageId: 1001, quantity: 640 })).status).toBe(200);
    const after = await getIntake(sb.handle, 1001, "alice");
    expect(after.serving_size).toBe(640);
    expect(weightsSum(after.recipe)).toBeCloseTo(640, 1);
    for (const [index, component] of after.recipe.entries()) {
      expect(component.weight).toBeCloseTo(before.recipe[index].weight * 2, 1);
    }
    expect(after.nutritional_info.calories).toBeCloseTo(before.nutritional_info.calories * 2, 0);
  });

  it("doubling an item's quantity doubles its nutrition", async () => {
    const before = itemNutritionAt(await getIntake(sb.handle, 4001, "erin"), 2);
    await update(sb.handle, "erin", { imageId: 4001, quantity: { "2": 220 } });
    const after = itemNutritionAt(await getIntake(sb.handle, 4001, "erin"), 2);
    for (const code of ["ENERC_KCAL", "PROCNT", "FAT", "CHOCDF", "SUGAR", "NA"]) {
      expect(nutrient(after.nutritional_info, code)).toBeCloseTo(nutrient(before.nutritional_info, code) * 2, 0);
    }
  });
});

describe("update rule 1: only the positions supplied change", () => {
  it("only the positions supplied in the request are modified", async () => {
    const before = await getIntake(sb.handle, 1002, "alice");
    await update(sb.handle, "alice", { imageId: 1002, quantity: { "2": 90 }, salt: { "2": "high" } });
    const after = await getIntake(sb.handle, 1002, "alice");
    for (const position of [1, 3]) {
      expect(itemAt(after, position)).toEqual(itemAt(before, position));
      expect(itemNutritionAt(after, position)).toEqual(itemNutritionAt(before, position));
    }
    expect(itemAt(after, 2).serving_size).toBe(90);
    expect(itemAt(after, 2).salt).toBe("high");
  });

  it("an unknown position is refused with 400 and nothing changes, not even the known positions", async () => {
    const before = sb.handle.intake(1002);
    const answer = await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": 100, "9": 50 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: expect.stringContaining("9"), code: codeFor(400) });
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("a manual position on a segmentation intake is an unknown position", async () => {
    const before = sb.handle.intake(1002);
    expect((await update(sb.handle, "alice", { imageId: 1002, salt: { manual1: "low" } })).status).toBe(400);
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("an update with no optional field changes nothing, answers 200 and calculates nothing", async () => {
    const before = sb.handle.intake(1002);
    const answer = await update(sb.handle, "alice", { imageId: 1002 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: expect.any(String), imageId: 1002 });
    expect(sb.handle.intake(1002)).toEqual(before);
    expect(sb.handle.stats().nutrition_calculations).toBe(0);
  });
});

describe("update rule 2: item-level modifiers need Monitor or higher", () => {
  it("an Analyse-plan user's item-level salt is ignored while the quantity applies", async () => {
    const before = await getIntake(sb.handle, 2002, "bob");
    const answer = await update(sb.handle, "bob", {
      imageId: 2002,
      quantity: { "1": 400 },
      salt: { "1": "high" },
      sugar: { "2": "high" },
      oil: { "1": "high" },
      measures: { "1": "imperial" },
    });
    expect(answer.status).toBe(200);
    const after = await getIntake(sb.handle, 2002, "bob");
    const item = itemAt(after, 1);
    expect(item.serving_size).toBe(400);
    expect([item.salt, item.oil, item.measures]).toEqual([itemAt(before, 1).salt, itemAt(before, 1).oil, "metric"]);
    expect(componentWeight(item.recipe, "salt")).toBeCloseTo(400 * MODIFIER_SHARES.salt.medium, 2);
    expect(itemAt(after, 2)).toEqual(itemAt(before, 2));
  });

  it("an Analyse-plan user's modifier-only update changes nothing and still answers 200", async () => {
    const before = sb.handle.intake(2003);
    const answer = await update(sb.handle, "bob", { imageId: 2003, salt: { manual1: "high" } });
    expect(answer.status).toBe(200);
    expect(sb.handle.intake(2003)).toEqual(before);
  });

  it("ignored values are still checked: an invalid level is refused even below Monitor", async () => {
    expect((await update(sb.handle, "bob", { imageId: 2002, salt: { "1": "extreme" } })).status).toBe(400);
  });

  it("a Monitor-plan user's salt, sugar, oil and measures apply", async () => {
    await update(sb.handle, "alice", {
      imageId: 1002,
      salt: { "3": "high" },
      sugar: { "3": "medium" },
      oil: { "3": "high" },
      measures: { "3": "imperial" },
    });
    const item = itemAt(await getIntake(sb.handle, 1002, "alice"), 3);
    expect([item.salt, item.sugar, item.oil, item.measures]).toEqual(["high", "medium", "high", "imperial"]);
  });

  it("a Recommend-plan user's modifiers apply", async () => {
    await update(sb.handle, "carol", { imageId: 3002, oil: { "1": "none" } });
    expect(itemAt(await getIntake(sb.handle, 3002, "carol"), 1).oil).toBe("none");
  });

  it("the plan is the target user's: a company acting for an Analyse user has item-level salt ignored", async () => {
    const before = sb.handle.intake(2002);
    await update(sb.handle, "acme", { imageId: 2002, salt: { "1": "high" } }, { user_id: 102 });
    expect(sb.handle.intake(2002)).toEqual(before);
  });

  it("recognition-only salt and sugar apply on every plan, even Analyse", async () => {
    const before = await getIntake(sb.handle, 2001, "bob");
    expect((await update(sb.handle, "bob", { imageId: 2001, salt: "high", sugar: "high" })).status).toBe(200);
    const after = await getIntake(sb.handle, 2001, "bob");
    expect([after.salt, after.sugar]).toEqual(["high", "high"]);
    expect(nutrient(after.nutritional_info, "NA")).toBeGreaterThan(nutrient(before.nutritional_info, "NA"));
    expect(nutrient(after.nutritional_info, "SUGAR")).toBeGreaterThan(nutrient(before.nutritional_info, "SUGAR"));
  });
});

describe("rules 3 and 4: modifiers change the recipe and nutrition", () => {
  it("salt raises sodium and takes its share of the serving", async () => {
    const before = await getIntake(sb.handle, 1002, "alice");
    await update(sb.handle, "alice", { imageId: 1002, salt: { "1": "high" } });
    const after = await getIntake(sb.handle, 1002, "alice");
    const item = itemAt(after, 1);
    expect(componentWeight(item.recipe, "salt")).toBeCloseTo(180 * MODIFIER_SHARES.salt.high, 2);
    expect(item.serving_size).toBe(180);
    expect(weightsSum(item.recipe)).toBeCloseTo(180, 1);
    expect(nutrient(itemNutritionAt(after, 1).nutritional_info, "NA")).toBeGreaterThan(
      nutrient(itemNutritionAt(before, 1).nutritional_info, "NA"),
    );
  });

  it("salt none removes the salt component's weight and lowers sodium", async () => {
    const before = await getIntake(sb.handle, 1003, "alice");
    await update(sb.handle, "alice", { imageId: 1003, salt: { manual1: "none" } });
    const after = await getIntake(sb.handle, 1003, "alice");
    expect(componentWeight(itemAt(after, "manual1").recipe, "salt")).toBe(0);
    expect(nutrient(itemNutritionAt(after, "manual1").nutritional_info, "NA")).toBeLessThan(
      nutrient(itemNutritionAt(before, "manual1").nutritional_info, "NA"),
    );
  });

  it("oil raises fat and kcal, and the other components shrink to keep the serving", async () => {
    const before = await getIntake(sb.handle, 1002, "alice");
    await update(sb.handle, "alice", { imageId: 1002, oil: { "1": "high" } });
    const after = await getIntake(sb.handle, 1002, "alice");
    const [oldItem, newItem] = [itemAt(before, 1), itemAt(after, 1)];
    const [oldNutrition, newNutrition] = [itemNutritionAt(before, 1).nutritional_info, itemNutritionAt(after, 1).nutritional_info];
    expect(nutrient(newNutrition, "FAT")).toBeGreaterThan(nutrient(oldNutrition, "FAT"));
    expect(newNutrition.calories).toBeGreaterThan(oldNutrition.calories);
    expect(componentWeight(newItem.recipe, "oil")).toBeCloseTo(180 * MODIFIER_SHARES.oil.high, 2);
    expect(weightsSum(baseComponents(newItem.recipe))).toBeLessThan(weightsSum(baseComponents(oldItem.recipe)));
    expect(weightsSum(newItem.recipe)).toBeCloseTo(180, 1);
  });

  it("sugar on a dish likely to contain added sugars raises sugars and carbohydrates", async () => {
    const before = itemNutritionAt(await getIntake(sb.handle, 1002, "alice"), 3).nutritional_info;
    await update(sb.handle, "alice", { imageId: 1002, sugar: { "3": "high" } });
    const intake = await getIntake(sb.handle, 1002, "alice");
    const after = itemNutritionAt(intake, 3).nutritional_info;
    expect(nutrient(after, "SUGAR")).toBeGreaterThan(nutrient(before, "SUGAR"));
    expect(nutrient(after, "CHOCDF")).toBeGreaterThan(nutrient(before, "CHOCDF"));
    expect(componentWeight(itemAt(intake, 3).recipe, "sugar")).toBeCloseTo(200 * MODIFIER_SHARES.sugar.high, 2);
  });

  it("sugar on a dish not likely to contain added sugars leaves nutrition unchanged but stores the level", async () => {
    const before = await getIntake(sb.handle, 1002, "alice");
    expect((await update(sb.handle, "alice", { imageId: 1002, sugar: { "1": "high", "2": "medium" } })).status).toBe(200);
    const after = await getIntake(sb.handle, 1002, "alice");
    for (const position of [1, 2]) {
      expect(itemNutritionAt(after, position)).toEqual(itemNutritionAt(before, position));
      expect(itemAt(after, position).recipe).toEqual(itemAt(before, position).recipe);
    }
    expect([itemAt(after, 1).sugar, itemAt(after, 2).sugar]).toEqual(["high", "medium"]);
    expect(after.nutritional_info).toEqual(before.nutritional_info);
  });

  it("measures are stored per item and change no nutrition", async () => {
    const before = await getIntake(sb.handle, 4001, "erin");
    await update(sb.handle, "erin", { imageId: 4001, measures: { "2": "imperial" } });
    const after = await getIntake(sb.handle, 4001, "erin");
    expect(itemAt(after, 2).measures).toBe("imperial");
    expect(itemAt(after, 1).measures).toBe("metric");
    expect(after.nutritional_info).toEqual(before.nutritional_info);
  });
});

describe("update rule 6: nutrition is recalculated and shown everywhere at once", () => {
  it("GET, the history list, recipe/ingredients and recipe/nutritionalInfo show the new values", async () => {
    await update(sb.handle, "alice", { imageId: 1003, quantity: { manual1: 500 }, oil: { manual1: "high" } });
    const intake = await getIntake(sb.handle, 1003, "alice");
    const list = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: ALL_TIME });
    expect(list.body.intakes_list.find((i: Json) => i.image_id === 1003)).toEqual(intake);

    const ingredients = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", { as: "alice", body: { imageId: 1003 } });
    expect(ingredients.status).toBe(200);
    expect(ingredients.body).toEqual({ imageId: 1003, recipe_per_item: intake.recipe_per_item });
    expect(itemAt(ingredients.body, "manual1").serving_size).toBe(500);

    const nutrition = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo", { as: "alice", body: { imageId: 1003 } });
    expect(nutrition.body).toEqual({
      imageId: 1003,
      ids: [501, 511],
      foodName: intake.foodName,
      serving_size: intake.serving_size,
      hasNutritionalInfo: true,
      nutritional_info: intake.nutritional_info,
      nutritional_info_per_item: intake.nutritional_info_per_item,
    });
  });

  it("intake totals are the sums of the items", async () => {
    await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": 123.45, "3": 210 } });
    const intake = await getIntake(sb.handle, 1002, "alice");
    const servings = intake.recipe_per_item.map((item: Json) => item.serving_size);
    expect(intake.serving_size).toBeCloseTo(
      servings.reduce((a: number, b: number) => a + b, 0),
      6,
    );
    for (const code of ["ENERC_KCAL", "PROCNT", "FAT", "CHOCDF", "SUGAR", "NA"]) {
      const sum = intake.nutritional_info_per_item.reduce((total: number, item: Json) => total + nutrient(item.nutritional_info, code), 0);
      expect(nutrient(intake.nutritional_info, code)).toBeCloseTo(sum, 1);
    }
    expect(intake.nutritional_info.calories).toBe(nutrient(intake.nutritional_info, "ENERC_KCAL"));
  });

  it("each update that changes an intake is exactly one nutrition calculation", async () => {
    await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": 100, "2": 100, "3": 100 }, salt: { "1": "low", "2": "low" } });
    expect(sb.handle.stats().nutrition_calculations).toBe(1);
    await update(sb.handle, "alice", { imageId: 1001, quantity: 300 });
    expect(sb.handle.stats().nutrition_calculations).toBe(2);
  });

  it("an update changes neither the timestamp nor the occasion nor the image", async () => {
    const before = await getIntake(sb.handle, 1003, "alice");
    await update(sb.handle, "alice", { imageId: 1003, quantity: { manual1: 10, manual2: 20 }, salt: { manual1: "high" } });
    const after = await getIntake(sb.handle, 1003, "alice");
    for (const field of ["timestamp", "occasion", "user_comment", "image_url", "processed_image_size", "has_display_image", "foodName"]) {
      expect(after[field]).toEqual(before[field]);
    }
  });
});

describe("quantity and level checks", () => {
  const refusedRecognition: Array<[string, unknown]> = [
    ["zero", 0],
    ["a negative number", -5],
    ["a fraction", 320.5],
    ["a string", "320"],
    ["an object", { "1": 100 }],
    ["null", null],
    ["a boolean", true],
    ["more than the limit", 100_001],
  ];
  for (const [label, quantity] of refusedRecognition) {
    it(`a recognition-only quantity that is ${label} is refused with 400 and nothing changes`, async () => {
      const before = sb.handle.intake(1001);
      const answer = await update(sb.handle, "alice", { imageId: 1001, quantity });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: expect.any(String), code: codeFor(400) });
      expect(sb.handle.intake(1001)).toEqual(before);
    });
  }

  const refusedItem: Array<[string, unknown]> = [
    ["zero", { "1": 0 }],
    ["negative", { "1": -1 }],
    ["a string", { "1": "80" }],
    ["a plain number instead of an object", 150],
    ["an array", [150]],
    ["null", { "1": null }],
    ["a malformed position key", { "01": 100 }],
  ];
  for (const [label, quantity] of refusedItem) {
    it(`an item quantity that is ${label} is refused with 400 and nothing changes`, async () => {
      const before = sb.handle.intake(1002);
      const answer = await update(sb.handle, "alice", { imageId: 1002, quantity });
      expect(answer.status).toBe(400);
      expect(sb.handle.intake(1002)).toEqual(before);
    });
  }

  it("a quantity written as 1e400 in the JSON text is refused with 400", async () => {
    const before = sb.handle.intake(1002);
    for (const text of [
      '{"imageId":1002,"quantity":{"1":1e400}}',
      '{"imageId":1001,"quantity":1e400}',
      '{"imageId":1002,"quantity":{"1":-1e400}}',
    ]) {
      const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
        as: "alice",
        rawBody: text,
        contentType: "application/json",
      });
      expect(answer.status).toBe(400);
    }
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("a quantity written as 1e-400 (zero) is refused with 400", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "alice",
      rawBody: '{"imageId":1002,"quantity":{"1":1e-400}}',
      contentType: "application/json",
    });
    expect(answer.status).toBe(400);
  });

  const refusedLevels: Array<[string, Record<string, unknown>]> = [
    ["an unknown salt level", { imageId: 1002, salt: { "1": "extreme" } }],
    ["an upper-case level", { imageId: 1002, oil: { "1": "HIGH" } }],
    ["an unknown measure", { imageId: 1002, measures: { "1": "furlongs" } }],
    ["oil on a recognition-only intake", { imageId: 1001, oil: "low" }],
    ["measures on a recognition-only intake", { imageId: 1001, measures: "metric" }],
    ["per-position salt on a recognition-only intake", { imageId: 1001, salt: { "1": "low" } }],
    ["a flat salt on an itemized intake", { imageId: 1002, salt: "low" }],
    ["mixed flat and per-position fields", { imageId: 1002, quantity: { "1": 100 }, salt: "low" }],
    ["a string imageId that is not a number", { imageId: "1002a" }],
    ["a fractional imageId", { imageId: 1002.5 }],
    ["a missing imageId", { quantity: { "1": 100 } }],
  ];
  for (const [label, body] of refusedLevels) {
    it(`${label} is refused with 400 and nothing changes`, async () => {
      const before = [sb.handle.intake(1001), sb.handle.intake(1002)];
      const answer = await update(sb.handle, "alice", body);
      expect(answer.status).toBe(400);
      expect(typeof answer.body.message).toBe("string");
      expect([sb.handle.intake(1001), sb.handle.intake(1002)]).toEqual(before);
    });
  }

  it("an unknown intake is 404", async () => {
    const answer = await update(sb.handle, "alice", { imageId: 999999, quantity: 100 });
    expect(answer.status).toBe(404);
  });
});
