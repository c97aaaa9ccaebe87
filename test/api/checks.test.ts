/**
 * The plain answer checks of src/api/checks.ts stay the zod schemas of src/records/intake.ts:
 * random records, valid and broken in every field, get the same verdict, the same data and
 * the first problem at the same path from both.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ErrorBodyCheck, IntakeListResponseCheck, IntakeResponseCheck } from "../../src/api/checks.js";
import { ErrorBodySchema, IntakeListResponseSchema, IntakeResponseSchema } from "../../src/records/intake.js";
import { fuzzRuns } from "../helpers/fuzz.js";

/** Mostly what the field should hold, sometimes anything JSON can say (or nothing). */
const field = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 40, arbitrary: valid },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  );

/** An object of these fields, each present or not, plus a few unknown keys. */
function loose(shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const entries = Object.fromEntries(Object.entries(shape).map(([key, valid]) => [key, field(valid)]));
  const object = fc.tuple(
    fc.record(entries, { requiredKeys: [] }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  );
  return fc.oneof(
    { weight: 40, arbitrary: object.map(([known, extra]) => ({ ...extra, ...known })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  );
}

const text = fc.string({ maxLength: 8 });
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const position = fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom("manual1", "2"));
const nutrient = loose({ label: text, quantity: number, unit: text });
const nutrition = loose({ calories: number, totalNutrients: fc.dictionary(text, nutrient, { maxKeys: 3 }) });
const component = loose({ name: text, weight: number, unit: text });
const intake = loose({
  image_id: fc.integer({ min: 1 }),
  timestamp: text,
  occasion: text,
  user_comment: text,
  has_display_image: fc.boolean(),
  can_edit_display_image: fc.boolean(),
  image_url: text,
  processed_image_size: loose({ width: number, height: number }),
  foodName: fc.array(text, { maxLength: 3 }),
  serving_size: number,
  nutritional_info: nutrition,
  recipe: fc.array(component, { maxLength: 3 }),
  salt: text,
  sugar: text,
  nutritional_info_per_item: fc.array(
    loose({ food_item_position: position, serving_size: number, hasNutritionalInfo: fc.boolean(), nutritional_info: nutrition }),
    { maxLength: 3 },
  ),
  recipe_per_item: fc.array(
    loose({
      food_item_position: position,
      name: text,
      serving_size: number,
      ...{ salt: text, sugar: text, oil: text, measures: text },
      recipe: fc.array(component, { maxLength: 2 }),
    }),
    { maxLength: 3 },
  ),
});

interface Parser {
  safeParse(data: unknown): { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[] }[] } };
}

function expectSameVerdict(check: Parser, schema: Parser, value: unknown): boolean {
  const plain = check.safeParse(value);
  const zod = schema.safeParse(value);
  expect(plain.success).toBe(zod.success);
  if (zod.success) expect(plain.data).toEqual(zod.data);
  else expect(plain.error?.issues[0]?.path).toEqual(zod.error?.issues[0]?.path);
  return zod.success;
}

describe("plain answer checks agree with the zod schemas", () => {
  it("on single intakes", () => {
    const verdicts = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(loose({ intake_info: intake }), (value) => {
        verdicts[expectSameVerdict(IntakeResponseCheck, IntakeResponseSchema, value) ? "accepted" : "refused"]++;
      }),
      { numRuns: fuzzRuns(1500) },
    );
    // Both verdicts were exercised, not only one.
    expect(verdicts.accepted).toBeGreaterThan(100);
    expect(verdicts.refused).toBeGreaterThan(100);
  });

  it("on intake lists", () => {
    fc.assert(
      fc.property(loose({ intakes_list: fc.array(intake, { maxLength: 3 }) }), (value) => {
        expectSameVerdict(IntakeListResponseCheck, IntakeListResponseSchema, value);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it("on error bodies", () => {
    fc.assert(
      fc.property(loose({ message: text, code: fc.oneof(fc.integer(), text) }), (value) => {
        expectSameVerdict(ErrorBodyCheck, ErrorBodySchema, value);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it("on fixed answers: the smallest valid one, a wrong type, a missing key", () => {
    for (const value of [
      { intake_info: { image_id: 1 } },
      { intake_info: { image_id: "1" } },
      { intake_info: {} },
      { intakes: [] },
      [],
      null,
      "x",
    ]) {
      expectSameVerdict(IntakeResponseCheck, IntakeResponseSchema, value);
    }
    expect(IntakeResponseCheck.safeParse({ intake_info: { image_id: "1" } })).toMatchObject({
      success: false,
      error: { issues: [{ path: ["intake_info", "image_id"] }] },
    });
  });
});
