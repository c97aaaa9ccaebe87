/** POST /v2/image/confirm/dish and docs/api.md, update rule 7: the update inside it calculates nutrition once. */
import { describe, expect, it } from "vitest";
import { DISHES } from "../../src/sandbox/seed.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";
import { getIntake, itemAt, itemNutritionAt, nutrient, weightsSum, codeFor } from "./fixtures.js";

const sb = withSandbox({}, { perTest: true });

const confirm = (as: string, body: unknown, query?: Record<string, number>) =>
  fetchJson(sb.handle, "POST", "/v2/image/confirm/dish", { as, body, query });
const dish = (id: number) => DISHES.find((d) => d.id === id)!;

describe("update rule 7", () => {
  it("confirm/dish calculates nutrition once, with quantity and modifiers in the same request", async () => {
    const answer = await confirm("alice", {
      imageId: 1002,
      confirmedClass: [504, 512],
      food_item_position: [1, 2],
      quantity: { "1": 250, "3": 120 },
      salt: { "2": "high" },
      oil: { "1": "medium" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: expect.any(String), imageId: 1002 });
    expect(sb.handle.stats().nutrition_calculations).toBe(1);

    const intake = await getIntake(sb.handle, 1002, "alice");
    expect(intake.foodName).toEqual([dish(504).name, dish(512).name, dish(503).name]);
    expect(itemAt(intake, 1).serving_size).toBe(250);
    expect(itemAt(intake, 1).oil).toBe("medium");
    expect(itemAt(intake, 2).salt).toBe("high");
    expect(itemAt(intake, 3).serving_size).toBe(120);
    expect(weightsSum(itemAt(intake, 1).recipe)).toBeCloseTo(250, 1);
  });

  it("the nutrition after confirm/dish equals a separate confirm and update", async () => {
    await confirm("alice", {
      imageId: 1003,
      confirmedClass: [509],
      food_item_position: ["manual2"],
      quantity: { manual2: 200 },
      oil: { manual2: "high" },
    });
    const once = await getIntake(sb.handle, 1003, "alice");
    expect(sb.handle.stats().nutrition_calculations).toBe(1);

    const other = await fetchJson(sb.handle, "POST", "/v2/image/confirm/dish", {
      as: "alice",
      body: { imageId: 1003, confirmedClass: [511], food_item_position: ["manual2"] },
    });
    expect(other.status).toBe(200);
    await confirm("alice", { imageId: 1003, confirmedClass: [509], food_item_position: ["manual2"] });
    await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "alice",
      body: { imageId: 1003, quantity: { manual2: 200 }, oil: { manual2: "high" } },
    });
    expect(await getIntake(sb.handle, 1003, "alice")).toEqual(once);
  });
});

describe("confirming dishes", () => {
  it("replaces the item's dish and recipe, keeping its serving size and levels", async () => {
    const before = await getIntake(sb.handle, 4001, "erin");
    await confirm("erin", { imageId: 4001, confirmedClass: [507], food_item_position: [2] });
    const after = await getIntake(sb.handle, 4001, "erin");
    const [oldItem, newItem] = [itemAt(before, 2), itemAt(after, 2)];
    expect(newItem.name).toBe("Oat porridge with banana");
    expect(newItem.serving_size).toBe(oldItem.serving_size);
    expect([newItem.salt, newItem.sugar, newItem.oil, newItem.measures]).toEqual([
      oldItem.salt,
      oldItem.sugar,
      oldItem.oil,
      oldItem.measures,
    ]);
    expect(newItem.recipe.map((c: { name: string }) => c.name)).toEqual(["oat porridge made with milk", "banana", "salt", "sugar", "oil"]);
    expect(itemAt(after, 1)).toEqual(itemAt(before, 1));
    expect(nutrient(itemNutritionAt(after, 2).nutritional_info, "FAT")).not.toBe(
      nutrient(itemNutritionAt(before, 2).nutritional_info, "FAT"),
    );
    expect([after.timestamp, after.occasion]).toEqual([before.timestamp, before.occasion]);
  });

  it("positions may be written as in the record or as body keys", async () => {
    expect((await confirm("erin", { imageId: 4001, confirmedClass: [501], food_item_position: ["2"] })).status).toBe(200);
    expect((await confirm("alice", { imageId: 1003, confirmedClass: [501], food_item_position: ["manual1"] })).status).toBe(200);
  });

  it("a recognition-only intake confirms one dish without positions", async () => {
    const before = await getIntake(sb.handle, 1001, "alice");
    expect((await confirm("alice", { imageId: 1001, confirmedClass: [501], quantity: 400 })).status).toBe(200);
    const after = await getIntake(sb.handle, 1001, "alice");
    expect(after.foodName).toEqual(["Spaghetti bolognese"]);
    expect(after.serving_size).toBe(400);
    expect(after.salt).toBe(before.salt);
    expect(sb.handle.stats().nutrition_calculations).toBe(1);
  });

  it("the plan rule holds inside confirm/dish: an Analyse user's item salt is ignored", async () => {
    await confirm("bob", { imageId: 2002, confirmedClass: [502], food_item_position: [1], salt: { "1": "high" } });
    const item = itemAt(await getIntake(sb.handle, 2002, "bob"), 1);
    expect(item.name).toBe("Chicken Caesar salad");
    expect(item.salt).toBe("medium");
  });

  const refused: Array<[string, Record<string, unknown>]> = [
    ["an unknown dish id", { imageId: 1002, confirmedClass: [999], food_item_position: [1] }],
    ["a dish id that is a string", { imageId: 1002, confirmedClass: ["501"], food_item_position: [1] }],
    ["an empty confirmedClass", { imageId: 1002, confirmedClass: [], food_item_position: [] }],
    ["a missing confirmedClass", { imageId: 1002, food_item_position: [1] }],
    ["a missing food_item_position on an itemized intake", { imageId: 1002, confirmedClass: [501] }],
    ["lists of different lengths", { imageId: 1002, confirmedClass: [501, 502], food_item_position: [1] }],
    ["an unknown position", { imageId: 1002, confirmedClass: [501, 502], food_item_position: [1, 7] }],
    ["a repeated position", { imageId: 1002, confirmedClass: [501, 502], food_item_position: [1, "1"] }],
    ["a malformed position", { imageId: 1002, confirmedClass: [501], food_item_position: [1.5] }],
    ["positions on a recognition-only intake", { imageId: 1001, confirmedClass: [501], food_item_position: [1] }],
    ["two dishes for a recognition-only intake", { imageId: 1001, confirmedClass: [501, 502] }],
    ["an invalid quantity with a valid dish", { imageId: 1002, confirmedClass: [501], food_item_position: [1], quantity: { "1": -3 } }],
    ["an unknown position in the update fields", { imageId: 1002, confirmedClass: [501], food_item_position: [1], salt: { "8": "low" } }],
    ["a string imageId that is not a number", { imageId: "dish", confirmedClass: [501], food_item_position: [1] }],
  ];
  for (const [label, body] of refused) {
    it(`${label} is refused with 400, nothing changes and nothing is calculated`, async () => {
      const before = [sb.handle.intake(1001), sb.handle.intake(1002)];
      const answer = await confirm("alice", body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: expect.any(String), code: codeFor(400) });
      expect([sb.handle.intake(1001), sb.handle.intake(1002)]).toEqual(before);
      expect(sb.handle.stats().nutrition_calculations).toBe(0);
    });
  }

  it("another user's intake → 403", async () => {
    expect((await confirm("alice", { imageId: 2002, confirmedClass: [501], food_item_position: [1] })).status).toBe(403);
  });
});
