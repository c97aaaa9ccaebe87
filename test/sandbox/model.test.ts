/** The nutrition model and the seed data, without HTTP. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntakeSchema } from "../../src/records/intake.js";
import {
  calculatePortion,
  MODIFIER_SHARES,
  nutrientValues,
  nutritionRecord,
  referenceLevel,
  type BaseComponent,
} from "../../src/sandbox/nutrition.js";
import { renderIntake } from "../../src/sandbox/render.js";
import { DISHES, SEED_INTAKES, SEED_USERS } from "../../src/sandbox/seed.js";
import { createSeedState, dishComponents } from "../../src/sandbox/state.js";
import { parseState, serializeState } from "../../src/sandbox/stateFile.js";
import { LEVELS, type Level } from "../../src/records/fields.js";

const pancakes = dishComponents(DISHES.find((dish) => dish.id === 503)!);
const portion = (
  servingSize: number,
  levels: Partial<Record<"salt" | "sugar" | "oil", Level>> = {},
  components: BaseComponent[] = pancakes,
  likelyAddedSugar = true,
) => ({
  servingSize,
  levels: { salt: "none" as Level, sugar: "none" as Level, oil: "none" as Level, ...levels },
  likelyAddedSugar,
  components,
});

describe("nutrition model", () => {
  it("the shown weights add up to the serving size for any serving and levels", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 100_000, noNaN: true }),
        fc.constantFrom(...LEVELS),
        fc.constantFrom(...LEVELS),
        fc.constantFrom(...LEVELS),
        fc.boolean(),
        (serving, salt, sugar, oil, likely) => {
          const result = calculatePortion(portion(serving, { salt, sugar, oil }, pancakes, likely), ["salt", "sugar", "oil"]);
          const sum = result.recipe.reduce((total, component) => total + component.weight, 0);
          expect(Math.abs(sum - serving)).toBeLessThan(0.006 * result.recipe.length + 1e-6);
          expect(result.recipe.every((component) => component.weight >= 0)).toBe(true);
        },
      ),
    );
  });

  it("each modifier weighs its share of the serving", () => {
    const result = calculatePortion(portion(200, { salt: "medium", sugar: "high", oil: "low" }), ["salt", "sugar", "oil"]);
    const weight = (name: string) => result.recipe.find((component) => component.name === name)!.weight;
    expect(weight("salt")).toBeCloseTo(200 * MODIFIER_SHARES.salt.medium, 6);
    expect(weight("sugar")).toBeCloseTo(200 * MODIFIER_SHARES.sugar.high, 6);
    expect(weight("oil")).toBeCloseTo(200 * MODIFIER_SHARES.oil.low, 6);
  });

  it("sugar weighs nothing on a dish not likely to contain added sugars", () => {
    const withSugar = calculatePortion(portion(200, { sugar: "high" }, pancakes, false), ["salt", "sugar", "oil"]);
    const without = calculatePortion(portion(200, { sugar: "none" }, pancakes, false), ["salt", "sugar", "oil"]);
    expect(withSugar).toEqual(without);
  });

  it("nutrition is linear in the serving size", () => {
    const one = calculatePortion(portion(100, { salt: "low", oil: "high" }), ["salt", "sugar", "oil"]);
    const three = calculatePortion(portion(300, { salt: "low", oil: "high" }), ["salt", "sugar", "oil"]);
    for (const code of Object.keys(one.nutrition) as Array<keyof typeof one.nutrition>) {
      expect(three.nutrition[code]).toBeCloseTo(one.nutrition[code] * 3, 0);
    }
  });

  it("a recognition-only portion has salt and sugar components but no oil", () => {
    const result = calculatePortion(portion(100), ["salt", "sugar"]);
    expect(result.recipe.map((component) => component.name).slice(-2)).toEqual(["salt", "sugar"]);
  });
});

describe("seed data", () => {
  it("users have the fixed ids, names, roles and plans", () => {
    expect(SEED_USERS.map((user) => [user.id, user.name, user.role, user.plan])).toEqual([
      [101, "alice", "APIUser", "Monitor"],
      [102, "bob", "APIUser", "Analyse"],
      [103, "carol", "APIUser", "Recommend"],
      [104, "erin", "APIUser", "Monitor"],
      [201, "dave", "APIUserManager", null],
      [301, "acme", "APICompany", null],
    ]);
    expect(SEED_USERS.find((user) => user.name === "dave")!.manages).toEqual([101, 102]);
    expect(SEED_USERS.find((user) => user.name === "acme")!.manages).toEqual([101, 102, 103, 104]);
  });

  it("every dish has 2 to 5 components whose shares add up to 1", () => {
    for (const dish of DISHES) {
      expect(dish.recipe.length).toBeGreaterThanOrEqual(2);
      expect(dish.recipe.length).toBeLessThanOrEqual(5);
      expect(dish.recipe.reduce((sum, [, share]) => sum + share, 0)).toBeCloseTo(1, 9);
    }
  });

  it("item 3 of intake 1002 and item 2 of 2002 are likely to contain added sugars; their other items are not", () => {
    const likely = (imageId: number) =>
      SEED_INTAKES.find((seed) => seed.imageId === imageId)!.items.map(
        (item) => DISHES.find((dish) => dish.id === item.dish)!.likelyAddedSugar,
      );
    expect(likely(1002)).toEqual([false, false, true]);
    expect(likely(2002)).toEqual([false, true]);
  });

  it("every seeded record parses with IntakeSchema, and timestamps are in November 2026", () => {
    const state = createSeedState("seed-test-secret-0123456789");
    for (const intake of state.intakes.values()) {
      const record = renderIntake(intake, state.images, (name) => `http://x/images/${name}`, "eng");
      expect(IntakeSchema.safeParse(record).success).toBe(true);
      expect(record.timestamp).toMatch(/^2026-11-/);
    }
    expect(new Set(SEED_INTAKES.map((seed) => seed.occasion)).size).toBeGreaterThanOrEqual(4);
  });

  it("a serialized state reads back equal", () => {
    const state = createSeedState("seed-test-secret-0123456789");
    const again = parseState(serializeState(state));
    expect(again.secret).toBe(state.secret);
    expect([...again.intakes.values()]).toEqual([...state.intakes.values()]);
    expect([...again.images.keys()]).toEqual([...state.images.keys()]);
    for (const [name, image] of state.images) expect(again.images.get(name)!.bytes.equals(image.bytes)).toBe(true);
  });
});

describe("dailyIntakeReference", () => {
  it("has the service's eight codes, each {label, level, percent}: LOW under 20 %, MEDIUM 20 to under 35 %, HIGH from 35 %", () => {
    const record = nutritionRecord(nutrientValues({ FAT: 14, NA: 840, PROCNT: 9.9, FASAT: 7, CHOCDF: 91, "SUGAR.added": 17.4 }));
    expect(Object.keys(record.dailyIntakeReference).sort()).toEqual(
      ["CHOCDF", "ENERC_KCAL", "FASAT", "FAT", "NA", "PROCNT", "SUGAR", "SUGAR.added"].sort(),
    );
    expect(record.dailyIntakeReference.FAT).toEqual({ label: "Fat", level: "MEDIUM", percent: 20 });
    expect(record.dailyIntakeReference.NA).toEqual({ label: "Sodium", level: "HIGH", percent: 35 });
    expect(record.dailyIntakeReference.PROCNT).toEqual({ label: "Protein", level: "LOW", percent: 19.8 });
    expect(record.dailyIntakeReference.FASAT).toEqual({ label: "Saturated fats", level: "HIGH", percent: 35 });
    expect(record.dailyIntakeReference.CHOCDF).toEqual({ label: "Carbs", level: "HIGH", percent: 35 });
    expect(record.dailyIntakeReference["SUGAR.added"]).toEqual({ label: "Added sugars", level: "MEDIUM", percent: 34.8 });
    expect([0, 19.9, 20, 34.9, 35, 250].map(referenceLevel)).toEqual(["LOW", "LOW", "MEDIUM", "MEDIUM", "HIGH", "HIGH"]);
  });

  it("energy and sugars have their levels disabled (NONE), as in the captured answer at 43.6 % and 34.4 %, with the percent still given", () => {
    const record = nutritionRecord(nutrientValues({ ENERC_KCAL: 872, SUGAR: 31 }));
    expect(record.dailyIntakeReference.ENERC_KCAL).toEqual({ label: "Energy", level: "NONE", percent: 43.6 });
    expect(record.dailyIntakeReference.SUGAR).toEqual({ label: "Sugars", level: "NONE", percent: 34.4 });
  });
});
