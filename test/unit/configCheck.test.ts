/**
 * The config file's plain check (src/config/check.ts, what every run uses) stays its zod schema
 * (src/records/config.ts): random files, valid and broken in every field, get the same verdict,
 * the same profiles and the first problem at the same path from both.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConfigFile } from "../../src/config/check.js";
import { ConfigFileSchema } from "../../src/records/config.js";
import { fuzzRuns } from "../helpers/fuzz.js";

/** What a value of the field should be, its edges, and sometimes anything JSON can hold. */
const value = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 12, arbitrary: valid },
    { weight: 2, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53, "", "1", true, null) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  );

const profile = fc.record(
  {
    "api-url": value(fc.webUrl()),
    user: value(fc.integer({ min: 1, max: 10_000 })),
    timeout: value(fc.double({ min: 0.001, max: 600, noNaN: true })),
    token: value(fc.string({ maxLength: 12 })),
    journal: value(fc.boolean()),
    "journal-days": value(fc.integer({ min: 1, max: 400 })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const names = fc.constantFrom("default", "staging", "support", "x.y-z_1");
const file = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({ profiles: fc.dictionary(names, value(profile), { maxKeys: 3 }), note: fc.string() }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** Both verdicts on one parsed file; true when it was accepted. */
function sameVerdict(data: unknown): boolean {
  const plain = checkConfigFile(data);
  const zod = ConfigFileSchema.safeParse(data);
  expect(plain.success).toBe(zod.success);
  if (plain.success && zod.success) expect(plain.profiles).toStrictEqual(zod.data.profiles ?? {});
  if (!plain.success && !zod.success) expect(plain.path).toEqual(zod.error.issues[0]?.path);
  return zod.success;
}

describe("the config file's plain check agrees with its zod schema", () => {
  it("on random files", () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(file, (data) => {
        seen[sameVerdict(data) ? "accepted" : "refused"] += 1;
      }),
      { numRuns: fuzzRuns(1000) },
    );
    // Both verdicts were exercised.
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it("on the edges: unknown keys dropped, a fraction of a user, a profile that is not an object", () => {
    const cases: Array<[unknown, string[] | Record<string, unknown>]> = [
      [{ profiles: { default: { user: 101, colour: "red" } }, other: 1 }, { default: { user: 101 } }],
      [{ profiles: { default: { user: 1.5 } } }, ["profiles", "default", "user"]],
      [{ profiles: { default: { timeout: 0 } } }, ["profiles", "default", "timeout"]],
      [{ profiles: { a: {}, b: "x" } }, ["profiles", "b"]],
      [{ profiles: [] }, ["profiles"]],
      [[], []],
      [{}, {}],
    ];
    for (const [data, expected] of cases) {
      sameVerdict(data);
      const plain = checkConfigFile(data);
      expect(plain.success ? plain.profiles : plain.path).toEqual(expected);
    }
    // A problem says what the value must be, never what it is (it may be a token in the wrong place).
    expect(checkConfigFile({ profiles: { default: { user: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln" } } })).toEqual({
      success: false,
      path: ["profiles", "default", "user"],
      expected: "a positive whole number",
    });
  });
});
