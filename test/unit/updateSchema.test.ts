/**
 * The domain's plain checks of update fields (validateUpdateShape, which the CLI and the sandbox
 * use) stay the zod definition of the update payload (src/records/update.ts): random fields,
 * valid and broken in every way the rules name, get the same verdict from both.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ItemizedUpdateSchema, RecognitionUpdateSchema, UpdateFieldsSchema } from "../../src/records/update.js";
import { LEVELS, MEASURES } from "../../src/intake/levels.js";
import { validateUpdateShape } from "../../src/intake/update.js";
import { fuzzRuns } from "../helpers/fuzz.js";

/** Mostly what the rules allow, sometimes one of the ways to break them. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, broken: fc.Arbitrary<U>): fc.Arbitrary<T | U> =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: broken });

const BAD_KEYS = ["0", "01", "1000000000", "manual0", "manual", "x", "", " 1", "1.5"];
const segmentKey = mostly(fc.constantFrom("1", "2", "3", "12", "999999999"), fc.constantFrom(...BAD_KEYS, "manual1"));
const manualKey = mostly(fc.constantFrom("manual1", "manual2", "manual10"), fc.constantFrom(...BAD_KEYS, "1"));
const broken = fc.constantFrom("150", "", null, true, [], [150], {}, Number.NaN, Infinity);
const grams = mostly(
  fc.oneof(fc.double({ min: 0.1, max: 100_000, noNaN: true }), fc.constantFrom(0.1, 100_000)),
  fc.oneof(broken, fc.constantFrom(0, -0, 0.09, -5, 100_000.5, 100_001)),
);
const wholeGrams = mostly(fc.integer({ min: 1, max: 100_000 }), fc.oneof(broken, fc.constantFrom(0, 0.5, 150.5, -1, 100_001)));
const level = mostly(fc.constantFrom(...LEVELS), fc.oneof(broken, fc.constantFrom("LOW", "very")));
const measure = mostly(fc.constantFrom(...MEASURES), fc.oneof(broken, fc.constantFrom("us", "Metric")));

/** Fields for a recognition-only intake, now and then with a field only itemized intakes take, or one keyed by position. */
const recognition = fc.record(
  {
    quantity: wholeGrams,
    salt: level,
    sugar: level,
    oil: fc.oneof(fc.constant(undefined), level),
    measures: fc.oneof(fc.constant(undefined), fc.dictionary(segmentKey, measure, { maxKeys: 1 })),
  },
  { requiredKeys: [] },
);
/** Fields for an itemized intake, keyed by one form of position, now and then a plain value among them. */
const itemized = (positionKey: fc.Arbitrary<string>) => {
  const byPosition = (value: fc.Arbitrary<unknown>) => mostly(fc.dictionary(positionKey, value, { maxKeys: 3 }), value);
  return fc.record(
    {
      quantity: byPosition(grams),
      salt: byPosition(level),
      sugar: byPosition(level),
      oil: byPosition(level),
      measures: byPosition(measure),
    },
    { requiredKeys: [] },
  );
};
// A key given as undefined is a key not given (fields are picked from flags and parsed JSON).
const given = (candidate: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
const fields = fc.oneof(recognition, itemized(segmentKey), itemized(manualKey), itemized(fc.oneof(segmentKey, manualKey))).map(given);

describe("update fields: the plain checks and the zod definition", () => {
  it("give the same verdict on random fields", () => {
    const seen = { accepted: 0, refused: 0, itemized: 0 };
    fc.assert(
      fc.property(fields, (candidate) => {
        const plain = validateUpdateShape(candidate, { strictMeasures: true });
        const zod = UpdateFieldsSchema.safeParse(candidate).success;
        expect(zod, `${JSON.stringify(candidate)}: ${plain.problems.map((problem) => problem.message).join("; ")}`).toBe(
          plain.problems.length === 0,
        );
        if (zod) seen.accepted++;
        else seen.refused++;
        if (zod && plain.shape === "itemized") seen.itemized++;
      }),
      { numRuns: fuzzRuns(1000), seed: 20261123 },
    );
    // The random fields reach both verdicts, and accepted itemized ones too.
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
    expect(seen.itemized).toBeGreaterThan(50);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ quantity: 320, salt: "low" }, "recognition"],
    [{ quantity: { 1: 150, 2: 80.5 }, oil: { 2: "none" } }, "itemized"],
    [{ measures: { manual1: "imperial" }, quantity: { manual2: 40 } }, "itemized"],
    [{}, "recognition"],
  ])("accepts %j (%s)", (candidate, shape) => {
    expect(UpdateFieldsSchema.safeParse(candidate).success).toBe(true);
    expect((shape === "recognition" ? RecognitionUpdateSchema : ItemizedUpdateSchema).safeParse(candidate).success).toBe(true);
    expect(validateUpdateShape(candidate, { strictMeasures: true }).problems).toEqual([]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ quantity: 320.5 }, "a recognition-only quantity in fractions of a gram"],
    [{ quantity: 0.05 }, "under 0.1 g"],
    [{ quantity: { 1: 100_001 } }, "over 100,000 g"],
    [{ quantity: 150, salt: { 1: "low" } }, "plain and keyed fields mixed"],
    [{ oil: "low" }, "oil on a recognition-only intake"],
    [{ quantity: { 1: 150, manual2: 40 } }, "segmentation and manual positions mixed"],
    [{ salt: { "01": "low" } }, "a position with a leading zero"],
    [{ measures: { 1: "us" } }, "a measure the API does not name"],
  ])("refuses %j (%s)", (candidate) => {
    expect(UpdateFieldsSchema.safeParse(candidate).success).toBe(false);
    expect(validateUpdateShape(candidate, { strictMeasures: true }).problems).not.toEqual([]);
  });
});
