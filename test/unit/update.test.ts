import { describe, expect, it } from "vitest";
import { checkUpdateAgainstIntake, pickUpdateFields, updateShape, validateUpdateShape } from "../../src/intake/update.js";

const cli = { strictMeasures: false };
const sandbox = { strictMeasures: true };

describe("pickUpdateFields", () => {
  it("keeps only the update fields", () => {
    expect(pickUpdateFields({ imageId: 1, image_id: 1, user_id: 2, quantity: 3, salt: "low", extra: true })).toEqual({
      quantity: 3,
      salt: "low",
    });
  });
});

describe("validateUpdateShape", () => {
  it("calls a body without update fields empty", () => {
    expect(validateUpdateShape({}, cli)).toEqual({ shape: "empty", problems: [] });
  });

  it("accepts a recognition-only body: integer quantity, salt and sugar levels", () => {
    expect(validateUpdateShape({ quantity: 320, salt: "low", sugar: "none" }, cli)).toEqual({ shape: "recognition", problems: [] });
  });

  it.each([
    [{ quantity: 80.5 }, "quantity"],
    [{ quantity: 0 }, "quantity"],
    [{ quantity: "320" }, "quantity"],
    [{ salt: "salty" }, "salt"],
    [{ oil: "low" }, "oil"],
    [{ measures: "metric" }, "measures"],
  ])("refuses the recognition-only body %j at %s", (fields, field) => {
    const result = validateUpdateShape(fields, cli);
    expect(result.shape).toBe("recognition");
    expect(result.problems.map((problem) => problem.field)).toEqual([field]);
  });

  it("accepts an itemized body keyed by segmentation positions", () => {
    const fields = {
      quantity: { "1": 150, "2": 80.5 },
      salt: { "1": "low" },
      sugar: { "2": "none" },
      oil: { "1": "high" },
      measures: { "1": "imperial" },
    };
    expect(validateUpdateShape(fields, sandbox)).toEqual({ shape: "itemized", problems: [] });
  });

  it("accepts an itemized body keyed by manual positions", () => {
    expect(validateUpdateShape({ quantity: { manual1: 40, manual2: 12.5 } }, sandbox)).toEqual({ shape: "itemized", problems: [] });
  });

  it("refuses a body mixing plain and per-position fields", () => {
    const result = validateUpdateShape({ quantity: 320, salt: { "1": "low" } }, cli);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toMatch(/object keyed by position/);
  });

  it("refuses malformed position keys and mixed position forms", () => {
    expect(validateUpdateShape({ quantity: { one: 150 } }, cli).problems[0]).toMatchObject({ field: "quantity.one" });
    expect(validateUpdateShape({ quantity: { "1": 150, manual2: 40 } }, cli).problems[0]!.message).toMatch(/mix/);
  });

  it.each([
    [{ quantity: { "1": 0 } }, "quantity.1"],
    [{ quantity: { "1": -3 } }, "quantity.1"],
    [{ quantity: { "1": "150" } }, "quantity.1"],
    [{ salt: { "1": "extra" } }, "salt.1"],
    [{ oil: { manual1: 3 } }, "oil.manual1"],
  ])("refuses the itemized body %j at %s", (fields, field) => {
    expect(validateUpdateShape(fields, cli).problems.map((problem) => problem.field)).toEqual([field]);
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ quantity: 320.5 }, "quantity", "quantity must be a whole number of grams for a recognition-only intake, got 320.5"],
    [{ quantity: { 2: 0.05 } }, "quantity.2", "quantity of position 2 must be at least 0.1 g, got 0.05"],
    [{ quantity: { 1: 100_001 } }, "quantity.1", "quantity of position 1 must be at most 100000 g, got 100001"],
    [{ quantity: { 1: "150" } }, "quantity.1", "quantity of position 1 must be a JSON number, not text: write 150"],
    [{ salt: { "01": "low" } }, "salt.01", '"01" is not a food item position (1, 2, … or manual1, manual2, …)'],
    [{ quantity: { manual1: 5 }, salt: { 2: "low" } }, "salt.2", 'positions mix segmentation (1, 2, …) and manual (manual1, …) forms: "2"'],
    [
      { measures: { 1: "us" } },
      "measures.1",
      'measures of position 1 must be metric or imperial, got "us": the service also has cooking measures and portions, but has not published their names',
    ],
    [{ sugar: 3 }, "sugar", "sugar must be one of none, low, medium, high, got 3"],
    [{ salt: { 1: "LOW" } }, "salt.1", 'salt of position 1 must be one of none, low, medium, high, got "LOW"; did you mean low?'],
  ])("words the sandbox's refusal of %j at %s", (fields, field, message) => {
    expect(validateUpdateShape(fields, sandbox).problems).toEqual([expect.objectContaining({ field, message })]);
  });

  it("gives every problem in the fields' order, each with the rule the sandbox answers with a code of its own", () => {
    const fields = { oil: "low", quantity: "x", salt: "LOW" };
    expect(validateUpdateShape(fields, sandbox).problems.map(({ field, rule }) => [field, rule])).toEqual([
      ["quantity", "quantity"],
      ["salt", "level"],
      ["oil", "shape"],
    ]);
  });

  it("lets the server judge unknown measures in the CLI but not in the sandbox", () => {
    expect(validateUpdateShape({ measures: { "1": "us-customary" } }, cli).problems).toEqual([]);
    expect(validateUpdateShape({ measures: { "1": "us-customary" } }, sandbox).problems[0]).toMatchObject({ field: "measures.1" });
    expect(validateUpdateShape({ measures: { "1": " " } }, cli).problems[0]).toMatchObject({ field: "measures.1" });
  });
});

describe("checkUpdateAgainstIntake", () => {
  it("accepts an empty update on every kind", () => {
    expect(checkUpdateAgainstIntake({}, "empty", "manual", ["manual1"])).toEqual([]);
    expect(checkUpdateAgainstIntake({}, "empty", "recognition", [])).toEqual([]);
  });

  it("refuses one total for an itemized intake, suggesting the per-position form", () => {
    const [problem] = checkUpdateAgainstIntake({ quantity: 320 }, "recognition", "segmentation", ["1", "2"]);
    expect(problem!.message).toMatch(/segmentation/);
    expect(problem!.message).toContain("1=150");
    const [manual] = checkUpdateAgainstIntake({ quantity: 320 }, "recognition", "manual", ["manual1"]);
    expect(manual!.message).toContain("manual1=150");
  });

  it("refuses per-position values for a recognition-only intake", () => {
    const [problem] = checkUpdateAgainstIntake({ quantity: { "1": 150 } }, "itemized", "recognition", []);
    expect(problem!.message).toMatch(/recognition-only/);
  });

  it("names every unknown position and the positions the intake has", () => {
    const problems = checkUpdateAgainstIntake({ quantity: { "1": 150, "4": 10 }, salt: { "5": "low" } }, "itemized", "segmentation", [
      "1",
      "2",
      "3",
    ]);
    expect(problems.map((problem) => problem.field)).toEqual(["quantity.4", "salt.5"]);
    expect(problems[0]!.message).toContain("1, 2, 3");
  });

  it("treats manual positions on a segmentation intake as unknown", () => {
    const problems = checkUpdateAgainstIntake({ quantity: { manual1: 10 } }, "itemized", "segmentation", ["1"]);
    expect(problems.map((problem) => problem.field)).toEqual(["quantity.manual1"]);
  });

  it("accepts known positions of a manual intake stored as APIImage", () => {
    expect(checkUpdateAgainstIntake({ quantity: { manual1: 60 }, sugar: { manual1: "low" } }, "itemized", "manual", ["manual1"])).toEqual(
      [],
    );
  });
});

describe("updateShape (fields checked already: a batch line, set-quantity's arguments)", () => {
  it.each([
    [{}, "empty"],
    [{ quantity: 320, salt: "low" }, "recognition"],
    [{ quantity: { "1": 150 }, oil: { "1": "low" } }, "itemized"],
    [{ measures: { manual1: "metric" } }, "itemized"],
    [{ image_id: 1002, sugar: "none" }, "recognition"],
  ])("reads %j as the shape the check gave it: %s", (fields, shape) => {
    expect(updateShape(fields)).toBe(shape);
    expect(validateUpdateShape(fields, { strictMeasures: false })).toEqual({ shape, problems: [] });
  });
});
