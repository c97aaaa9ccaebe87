import { describe, expect, it } from "vitest";
import type { Intake } from "../../src/records/intake.js";
import { checkUpdateFields } from "../../src/change/intakeUpdate.js";
import { checkModifierFlags, parseQuantityArgs, uniquePositions } from "../../src/commands/intake/changeArgs.js";
import { closestValue } from "../../src/intake/closest.js";
import { intakePositions } from "../../src/intake/items.js";
import { buildModifierFields, itemModifierFields, modifierArgumentProblem, type ModifierLevels } from "../../src/intake/modifiers.js";
import { CliError, EXIT } from "../../src/errors.js";

function refusal(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** The four level options, the unnamed ones absent (as the command line gives them). */
const levels = (values: Partial<Record<"salt" | "sugar" | "oil" | "measures", string>>) => ({
  salt: undefined,
  sugar: undefined,
  oil: undefined,
  measures: undefined,
  ...values,
});

/** set-quantity's values as the command reads them: parsed into the update's fields, then the update's one check. */
function readQuantity(values: string[], imageId = 1002) {
  const fields = parseQuantityArgs(values);
  checkUpdateFields(imageId, fields);
  return fields;
}

/** set-modifiers' positions as the command reads them: each once, then judged as the fields they become. */
function readPositions(positions: string[], imageId = 1002) {
  uniquePositions(positions);
  checkUpdateFields(imageId, itemModifierFields(levels({ salt: "low" }), positions));
  return positions;
}

describe("parseQuantityArgs, then the update's check", () => {
  it("reads one whole number as the total of a recognition-only intake", () => {
    expect(readQuantity(["320"])).toEqual({ quantity: 320 });
  });

  it("reads <pos>=<grams> pairs, decimals allowed, as per-item quantities", () => {
    expect(readQuantity(["1=150", "2=80.5"])).toEqual({ quantity: { "1": 150, "2": 80.5 } });
    expect(readQuantity(["manual2=40"])).toEqual({ quantity: { manual2: 40 } });
  });

  it.each([
    ["0", /^quantity must be more than 0 g, got 0$/],
    ["-5", /^quantity must be more than 0 g, got -5$/],
    ["150g", /^quantity: "150g" is not a number of grams: write 150$/],
    ["1e400", /not a number of grams/],
    ["1e3", /not a number of grams/],
    ["NaN", /not a number of grams/],
    ["Infinity", /not a number of grams/],
    ["abc", /not a number of grams/],
    ["", /not a number of grams/],
    ["0x10", /not a number of grams/],
    [" 12", /not a number of grams/],
    ["12.5", /whole number of grams/],
    ["100001", /at most 100000 g/],
  ])("refuses the total %j as a usage error", (text, message) => {
    const error = refusal(() => readQuantity([text]));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(message);
  });

  it.each([
    [["1="], /no grams after "="/],
    [["=5"], /no position before "="/],
    [["x=5"], /"x" is not a food item position/],
    [["0=5"], /"0" is not a food item position/],
    [["manual=5"], /"manual" is not a food item position/],
    [["__proto__=5"], /^"__proto__" is not a food item position/],
    [["1=5", "constructor=5"], /^"constructor" is not a food item position/],
    [["1=0"], /^quantity of position 1 must be more than 0 g, got 0$/],
    [["1=-3"], /^quantity of position 1 must be more than 0 g, got -3$/],
    [["1=80,5"], /^quantity of position 1: "80,5" is not a number of grams: write 80.5$/],
    [["1=1e400"], /is not a number of grams/],
    [["1=NaN"], /is not a number of grams/],
    [["1==5"], /more than one "="/],
    [["1=5", "1=6"], /position 1 is given twice/],
    [["1=5", "manual1=6"], /positions mix segmentation/],
    [["1=5", "320"], /mixes a total with per-item quantities/],
    [["320", "10"], /one total quantity expected/],
    [[], /give a total/],
  ])("refuses %j as a usage error", (values, message) => {
    const error = refusal(() => readQuantity(values));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(message);
  });
});

describe("checkModifierFlags", () => {
  it("keeps the levels given and leaves the others undefined", () => {
    expect(checkModifierFlags({ salt: "low", oil: "high" })).toEqual({ salt: "low", sugar: undefined, oil: "high", measures: undefined });
  });

  it("passes measures through for the server to judge, but for a near miss of metric or imperial", () => {
    expect(checkModifierFlags({ measures: "imperial" }).measures).toBe("imperial");
    expect(checkModifierFlags({ measures: "us-customary" }).measures).toBe("us-customary");
  });

  it.each([
    [{ salt: "lo" }, "low"],
    [{ salt: "hgih" }, "high"],
    [{ sugar: "LOW" }, "low"],
    [{ oil: "mediun" }, "medium"],
    [{ oil: "med" }, "medium"],
    [{ sugar: "nnoe" }, "none"],
    [{ measures: "imperal" }, "imperial"],
    [{ measures: "Metric" }, "metric"],
  ])("refuses %j with a suggestion: did you mean %s?", (flags, suggestion) => {
    const error = refusal(() => checkModifierFlags(flags));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.hint).toBe(`did you mean ${suggestion}?`);
  });

  it("suggests nothing for a value far from every level", () => {
    expect(refusal(() => checkModifierFlags({ salt: "extra" })).hint).toBeUndefined();
  });

  it.each([
    [{ salt: "extra" }, /--salt must be one of none, low, medium, high, got "extra"/],
    [{ sugar: "LOW" }, /--sugar must be one of/],
    [{ oil: "" }, /--oil must be one of/],
    [{ measures: " " }, /--measures needs a value/],
    [{}, /nothing to change/],
  ])("refuses %j as a usage error", (flags, message) => {
    const error = refusal(() => checkModifierFlags(flags));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(message);
  });
});

describe("closestValue", () => {
  it.each([
    ["lo", ["none", "low", "medium", "high"], "low"],
    ["m", ["none", "low", "medium", "high"], "medium"],
    ["hihg", ["none", "low", "medium", "high"], "high"],
    ["metirc", ["metric", "imperial"], "metric"],
  ])("%s among %j is %s", (typed, known, expected) => {
    expect(closestValue(typed, known)).toBe(expected);
  });

  it.each([
    ["", ["low"]],
    ["xyz", ["none", "low", "medium", "high"]],
    ["mo", ["no", "so"]],
    ["lox", ["low", "lot"]],
  ])("%j among %j has no single suggestion", (typed, known) => {
    expect(closestValue(typed, known)).toBeUndefined();
  });
});

describe("set-modifiers' positions: each once, then the update's check", () => {
  it("returns well-formed positions in order", () => {
    expect(readPositions(["2", "1"])).toEqual(["2", "1"]);
    expect(readPositions(["manual1", "manual2"])).toEqual(["manual1", "manual2"]);
  });

  it.each([
    [["1", "1"], /position 1 is given twice/],
    [["first"], /"first" is not a food item position/],
    [["__proto__"], /^"__proto__" is not a food item position/],
    [["1", "manual1"], /positions mix/],
  ])("refuses %j as a usage error", (positions, message) => {
    const error = refusal(() => readPositions(positions));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(message);
  });
});

describe("mixed positions", () => {
  it("hint at the intake's own id, never a placeholder", () => {
    for (const error of [refusal(() => readPositions(["1", "manual1"], 4003)), refusal(() => readQuantity(["1=5", "manual1=5"], 4003))]) {
      expect(error.hint).toBe("an intake has one kind of position; see them with `foodctl intake show 4003`");
    }
  });
});

describe("buildModifierFields (domain: problems, not errors)", () => {
  const recognition: Intake = { image_id: 1001, foodName: ["Margherita pizza"], serving_size: 320, salt: "medium", sugar: "none" };
  const segmentation: Intake = {
    image_id: 1002,
    recipe_per_item: [
      { food_item_position: 1, name: "Scrambled eggs on toast" },
      { food_item_position: 2, name: "Fresh fruit salad" },
    ],
  };
  const build = (intake: Intake, values: Parameters<typeof levels>[0], positions: string[], allItems: boolean) =>
    buildModifierFields(intake, intakePositions(intake), levels(values), positions, allItems);

  it("sends plain levels for a recognition-only intake", () => {
    expect(build(recognition, { salt: "low", sugar: "none" }, [], false).fields).toEqual({ salt: "low", sugar: "none" });
  });

  it("refuses --oil and --measures for a recognition-only intake", () => {
    for (const name of ["oil", "measures"] as const) {
      const built = build(recognition, { [name]: name === "oil" ? "low" : "metric" }, [], true);
      expect(built.fields).toBeNull();
      expect(built.problem?.message).toContain(`--${name} applies only to itemized intakes`);
      expect(built.problem?.hint).toContain(`drop --${name}: a recognition-only intake takes --salt and --sugar`);
    }
  });

  it("refuses positions for a recognition-only intake", () => {
    expect(build(recognition, { salt: "low" }, ["1"], false).problem?.message).toContain("recognition-only: it has no item positions");
  });

  it("keys each level by the positions named", () => {
    expect(build(segmentation, { salt: "none", oil: "high" }, ["2"], false).fields).toEqual({
      salt: { "2": "none" },
      oil: { "2": "high" },
    });
  });

  it("targets every item with --all-items", () => {
    expect(build(segmentation, { measures: "imperial" }, [], true).fields).toEqual({ measures: { "1": "imperial", "2": "imperial" } });
  });

  it("asks for positions or --all-items on an itemized intake, naming the positions", () => {
    expect(build(segmentation, { salt: "low" }, [], false).problem?.message).toContain("(1, 2) or use --all-items");
  });
});

describe("modifierArgumentProblem: what the arguments alone rule out, before any request", () => {
  const levels = (given: Partial<ModifierLevels>): ModifierLevels => ({
    salt: undefined,
    sugar: undefined,
    oil: undefined,
    measures: undefined,
    ...given,
  });
  const retry = "foodctl intake set-modifiers 1002 --all-items --oil high";

  it("refuses positions together with --all-items", () => {
    expect(modifierArgumentProblem(["1"], true, levels({ salt: "low" }), retry)?.message).toMatch(/positions or --all-items, not both/);
  });

  it("refuses --oil or --measures without positions or --all-items: they exist only per item, so no intake takes them", () => {
    const oil = modifierArgumentProblem([], false, levels({ oil: "high" }), retry);
    expect(oil).toEqual({
      field: "oil",
      message: "--oil applies per item: name the positions or use --all-items",
      hint: `nothing was sent; every item: ${retry} (a recognition-only intake has no oil: drop --oil)`,
    });
    expect(modifierArgumentProblem([], false, levels({ oil: "low", measures: "imperial" }), retry)?.message).toBe(
      "--oil and --measures apply per item: name the positions or use --all-items",
    );
  });

  it("leaves salt and sugar without positions to the intake: a recognition-only one takes them whole", () => {
    expect(modifierArgumentProblem([], false, levels({ salt: "low", sugar: "none" }), retry)).toBeNull();
    expect(modifierArgumentProblem(["1"], false, levels({ oil: "low" }), retry)).toBeNull();
    expect(modifierArgumentProblem([], true, levels({ oil: "low" }), retry)).toBeNull();
  });
});
