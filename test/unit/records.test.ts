/**
 * The records a run checks: the validators the build writes are what their zod schemas compile to, the
 * compiler refuses what a validator could not check, and a refusal names the place, what it must
 * be and what it is.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkRecord, describeProblem } from "../../src/records/check.js";
import { COMPILED_GROUPS } from "../../src/records/compiled.js";
import { UpdateFieldsSchema } from "../../src/records/update.js";
import * as configValidators from "../../src/records/validators/config.js";
import * as intakeValidators from "../../src/records/validators/intake.js";
import * as updateValidators from "../../src/records/validators/update.js";
// @ts-expect-error: a plain .mjs module of the repository's scripts, without types
import { compileRecords } from "../../scripts/records.mjs";

const validators = { ...intakeValidators, ...configValidators, ...updateValidators };
const compileGroups = (groups: Record<string, { records: Record<string, unknown>; parts: Record<string, unknown> }>) =>
  compileRecords(groups, { registry: z.registry, toJSONSchema: z.toJSONSchema }) as Record<string, string>;
const compile = (records: Record<string, unknown>, parts: Record<string, unknown> = {}) => compileGroups({ test: { records, parts } });

const problemsOf = (validate: (data: unknown) => boolean, data: unknown) => {
  const checked = checkRecord(validate as never, data);
  return checked.valid ? [] : checked.problems;
};

describe("the compiled validators", () => {
  it("are written (by the build and npm test) as the schemas of src/records/compiled.ts compile, and nothing else", () => {
    const compiled = compileGroups(COMPILED_GROUPS);
    const folder = new URL("../../src/records/validators/", import.meta.url);
    expect(readdirSync(folder).sort()).toEqual(Object.keys(compiled).sort());
    for (const [name, text] of Object.entries(compiled)) expect(readFileSync(new URL(name, folder), "utf8"), name).toBe(text);
  });

  it("are one module per group, holding that group's records alone", () => {
    const compiled = compileGroups(COMPILED_GROUPS);
    expect(compiled["intake.js"]).toMatch(/export const IntakeResponse\b/);
    expect(compiled["intake.js"]).not.toMatch(/ManualUpdate|ConfigFile/);
    expect(compiled["update.js"]).not.toMatch(/IntakeResponse|ConfigFile/);
  });

  it("refuse two records of different groups that would give one schema path two meanings", () => {
    const one = { records: { One: z.object({ a: z.string().check(z.describe("a name")) }) }, parts: {} };
    const two = { records: { Two: z.object({ a: z.string() }) }, parts: {} };
    expect(() => compileGroups({ one, two })).toThrow(/#\/properties\/a of/);
  });

  it("write a union of parts of different JSON types (a nullable, a list or a text) as one part of those types", () => {
    const names = z.nullable(z.union([z.array(z.string()), z.string()]));
    const code = compile({ Named: z.object({ names, other: z.nullable(z.union([z.string(), z.string().check(z.regex(/^a/))])) }) })[
      "test.js"
    ]!;
    expect(code).toContain('"names":{"type":["array","string","null"],"items":{"type":"string"}}');
    // Two branches of one type stay a union: each may hold rules of its own.
    expect(code).toMatch(/"other":\{"anyOf":/);
  });

  it("refuse to compile a refinement, which a validator would not check", () => {
    const even = z.number().check(z.refine((value) => value % 2 === 0));
    expect(() => compile({ Even: z.object({ count: even }) })).toThrow(/refinement at .*count/);
  });

  it("refuse to compile a rule that needs ajv at run time", () => {
    expect(() => compile({ Named: z.object({ name: z.string().check(z.minLength(2)) }) })).toThrow(/ajv's runtime/);
  });

  it("refuse two records that would give one schema path two meanings", () => {
    const described = z.object({ a: z.string().check(z.describe("a name")) });
    expect(() => compile({ One: described, Two: z.object({ a: z.string() }) })).toThrow(/#\/properties\/a of/);
  });
});

describe("a checked answer", () => {
  const intake = { image_id: 1002, foodName: ["toast"], extra: { kept: true } };

  it("is the data itself, unknown keys kept", () => {
    const answer = { intake_info: intake, note: 1 };
    expect(checkRecord(validators.IntakeResponse, answer)).toEqual({ valid: true, data: answer });
    expect(checkRecord(validators.IntakeListResponse, { intakes_list: [intake, intake] }).valid).toBe(true);
  });

  it.each<[unknown, string]>([
    [{ intake_info: { image_id: "1002" } }, "intake_info.image_id: expected a number, received a string"],
    [{ intake_info: {} }, "intake_info.image_id: expected a number, received nothing"],
    [{ intakes: [] }, "intake_info: expected a JSON object, received nothing"],
    [[], "the whole record: expected a JSON object, received an array"],
    [
      { intake_info: { ...intake, nutritional_info: "x" } },
      "intake_info.nutritional_info: expected a JSON object or null, received a string",
    ],
    [{ intake_info: { ...intake, foodName: [1] } }, "intake_info.foodName.0: expected a string, received a number"],
    [
      { intake_info: { ...intake, recipe_per_item: [{ food_item_position: true }] } },
      "intake_info.recipe_per_item.0.food_item_position: expected a number or a string, received true or false",
    ],
    [
      { intake_info: { ...intake, nutritional_info: { totalNutrients: { "a/b": { quantity: "1" } } } } },
      "intake_info.nutritional_info.totalNutrients.a/b.quantity: expected a number or null, received a string",
    ],
  ])("%j is refused at the wrong value's path: %s", (answer, line) => {
    expect(describeProblem(problemsOf(validators.IntakeResponse, answer)[0]!)).toBe(line);
  });

  it("in a list, is refused at the intake's index", () => {
    const [problem] = problemsOf(validators.IntakeListResponse, { intakes_list: [intake, { image_id: null }] });
    expect(describeProblem(problem!)).toBe("intakes_list.1.image_id: expected a number, received null");
  });
});

describe("a checked config file", () => {
  it("keeps a profile's keys it does not know", () => {
    const file = { profiles: { default: { user: 101, colour: "red" } } };
    expect(checkRecord(validators.ConfigFile, file)).toEqual({ valid: true, data: file });
  });

  it.each<[unknown, string[], string]>([
    [{ profiles: { default: { user: 1.5 } } }, ["profiles", "default", "user"], "a positive whole number"],
    [{ profiles: { default: { user: 0 } } }, ["profiles", "default", "user"], "a positive whole number"],
    [{ profiles: { default: { timeout: 0 } } }, ["profiles", "default", "timeout"], "a positive number of seconds"],
    [{ profiles: { work: { token: 12345 } } }, ["profiles", "work", "token"], "a token in quotes"],
    [{ profiles: { a: {}, b: "x" } }, ["profiles", "b"], "an object of settings"],
    [{ profiles: [] }, ["profiles"], "an object of profiles"],
    ["just text", [], "a JSON object"],
  ])("refuses %j at its first wrong value, saying what it must be", (file, path, expected) => {
    expect(problemsOf(validators.ConfigFile, file)[0]).toMatchObject({ path, expected });
  });
});

describe("the update's definition", () => {
  it.each<[Record<string, unknown>, boolean]>([
    [{ quantity: 320, salt: "low" }, true],
    [{ quantity: { 1: 150, 2: 80.5 }, oil: { 2: "none" } }, true],
    [{ measures: { manual1: "imperial" }, quantity: { manual2: 40 } }, true],
    [{}, true],
    [{ quantity: 320.5 }, false],
    [{ quantity: 150, salt: { 1: "low" } }, false],
    [{ oil: "low" }, false],
    [{ quantity: { 1: 150, manual2: 40 } }, false],
    [{ salt: { "01": "low" } }, false],
    [{ measures: { 1: "us" } }, false],
  ])("takes %j: %s", (fields, accepted) => {
    expect(UpdateFieldsSchema.safeParse(fields).success).toBe(accepted);
  });
});

describe("checked update fields", () => {
  it("name a key of the wrong form, a key not allowed, and every wrong value", () => {
    const problems = problemsOf(validators.SegmentationUpdate, { quantity: { one: 150, "2": 0 }, salt: { "1": "LOW" }, colour: 1 });
    expect(problems.map(({ path, rule, wrongKey }) => ({ path, rule, wrongKey }))).toEqual([
      { path: ["colour"], rule: "additionalProperties", wrongKey: true },
      { path: ["quantity", "one"], rule: "pattern", wrongKey: true },
      { path: ["quantity", "2"], rule: "minimum", wrongKey: undefined },
      { path: ["salt", "1"], rule: "enum", wrongKey: undefined },
    ]);
    expect(problems.map((problem) => problem.expected).slice(2)).toEqual(["at least 0.1", "one of none, low, medium, high"]);
  });

  it("take any measure name from the CLI, only the API's from the sandbox", () => {
    expect(checkRecord(validators.ClientManualUpdate, { measures: { manual1: "us-customary" } }).valid).toBe(true);
    expect(checkRecord(validators.ManualUpdate, { measures: { manual1: "us-customary" } }).valid).toBe(false);
    expect(checkRecord(validators.ClientManualUpdate, { measures: { manual1: " " } }).valid).toBe(false);
  });
});
