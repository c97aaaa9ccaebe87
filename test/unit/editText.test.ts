import { describe, expect, it } from "vitest";
import { readCsv } from "../../src/batch/csv.js";
import { readJsonLines } from "../../src/batch/jsonl.js";
import { checkUpdateFields } from "../../src/change/intakeUpdate.js";
import { checkModifierFlags, parseQuantityArgs } from "../../src/commands/intake/changeArgs.js";
import { decideFormat, lookOf } from "../../src/batch/format.js";
import { readEditText, renderEditText, withProblems } from "../../src/intake/editText.js";
import type { Intake } from "../../src/records/intake.js";
import { segmentationIntake } from "../faults/fixtures.js";

const itemized = segmentationIntake() as Intake;
const recognition: Intake = {
  image_id: 1001,
  serving_size: 320,
  salt: "medium",
  sugar: "none",
  foodName: ["Margherita pizza"],
  nutritional_info: { calories: 700 },
};

/** The rendered text with one line's values replaced (by the position that starts it). */
const edited = (intake: Intake, position: string, values: string) =>
  renderEditText(intake).replace(new RegExp(`^${position} +[^#]*#`, "m"), `${position} ${values} #`);

describe("the edit text", () => {
  it("shows one line per item under the header, the food as a comment, and reads back as no change", () => {
    const text = renderEditText(itemized);
    expect(text).toContain("# intake 1002 (segmentation), 2026-11-02T12:30:00Z, lunch");
    expect(text).toMatch(/^position +quantity +salt +sugar +oil +measures +# food \(not editable\)$/m);
    expect(text).toMatch(/^1 +200 +medium +none +low +metric +# spaghetti bolognese$/m);
    expect(text).toMatch(/^2 +120 +medium +none +low +metric +# side salad$/m);
    expect(readEditText(text, itemized)).toEqual({ kind: "edit", fields: {}, changed: 0 });
  });

  it("sends only the changed values of the changed positions, grams and levels in one update", () => {
    const reading = readEditText(edited(itemized, "2", "150 low none low metric"), itemized);
    expect(reading).toEqual({ kind: "edit", fields: { quantity: { "2": 150 }, salt: { "2": "low" } }, changed: 2 });
  });

  it("a recognition-only intake has one total line of quantity, salt and sugar, sent as plain values", () => {
    const text = renderEditText(recognition);
    expect(text).toMatch(/^position +quantity +salt +sugar +# food \(not editable\)$/m);
    expect(text).toMatch(/^total +320 +medium +none +# Margherita pizza$/m);
    expect(readEditText(edited(recognition, "total", "300 low none"), recognition)).toEqual({
      kind: "edit",
      fields: { quantity: 300, salt: "low" },
      changed: 2,
    });
  });

  it("an emptied text, or one of comments only, is empty (the edit is cancelled)", () => {
    expect(readEditText("", itemized)).toEqual({ kind: "empty" });
    expect(readEditText("# nothing\n\n   \n", itemized)).toEqual({ kind: "empty" });
  });

  it.each([
    [
      "a level not allowed",
      "2",
      "150 lo none low metric",
      /^line \d+: salt of position 2 must be one of none, low, medium, high, got "lo"; did you mean low\?$/,
    ],
    [
      "grams with a unit",
      "2",
      "150g medium none low metric",
      /^line \d+: quantity of position 2: "150g" is not a number of grams: write 150$/,
    ],
    ["zero grams", "1", "0 medium none low metric", /quantity of position 1 must be more than 0 g/],
    ["an unset value", "1", "200 - none low metric", /^line \d+: salt of position 1 cannot be unset \(it is medium\); write a value$/],
    ["a value missing", "1", "200 medium none low", /^line \d+: 5 values for 6 columns/],
  ])("names the line of %s", (_what, position, values, message) => {
    const reading = readEditText(edited(itemized, position, values), itemized);
    expect(reading.kind).toBe("problems");
    expect((reading as { problems: string[] }).problems).toEqual([expect.stringMatching(message)]);
  });

  it("refuses a fractional total for a recognition-only intake, an unknown or repeated position, a removed line, an unknown column", () => {
    const problems = (text: string, intake = itemized) => (readEditText(text, intake) as { problems: string[] }).problems;
    expect(problems(edited(recognition, "total", "300.5 medium none"), recognition)).toEqual([
      expect.stringContaining("must be a whole number of grams"),
    ]);
    const text = renderEditText(itemized);
    expect(problems(`${text}3 100 low none low metric\n`)).toEqual([expect.stringContaining("unknown position 3 (this intake has 1, 2)")]);
    expect(problems(`${text}2 100 low none low metric\n`)).toEqual([expect.stringContaining("position 2 is given twice")]);
    expect(problems(text.replace(/^2 .*$/m, ""))).toEqual(["position 2 is missing: keep every item's line (items are not removed here)"]);
    expect(problems(text.replace(/^position +quantity/m, "position grams"))).toEqual([
      expect.stringContaining('unknown column "grams"; the columns are position quantity salt sugar oil measures'),
    ]);
  });

  it("a header naming fewer columns changes only those", () => {
    expect(readEditText("position quantity\n1 210\n2 120\n", itemized)).toEqual({
      kind: "edit",
      fields: { quantity: { "1": 210 } },
      changed: 1,
    });
  });

  it("writes the problems at the top, replacing those of an earlier save", () => {
    const once = withProblems("position quantity\n1 x\n", ["line 2: first"]);
    const twice = withProblems(once, ["line 2: second"]);
    expect(twice).toBe(
      "# problem: the edit was not sent; fix the lines below and save, or empty the file to cancel\n" +
        "# problem: line 2: second\nposition quantity\n1 x\n",
    );
  });
});

describe("intake apply reading the edit text", () => {
  const chunks = async function* (text: string) {
    yield text;
  };

  it("is found by its # intake line, whatever the file is named", () => {
    const text = renderEditText(itemized);
    expect(lookOf(text.split("\n")[0]!)).toBe("edit");
    expect(decideFormat("fix.txt", "fix.txt", undefined, "edit")).toEqual({ format: "edit" });
  });

  it("gives one change of the intake, with each value a row gives ('-' gives none)", async () => {
    const input = await readCsv(chunks(edited(itemized, "2", "150 low - - -")), {}, true);
    expect(input.problems).toEqual([]);
    const [change] = [...input.changes];
    expect([...input.changes]).toHaveLength(1);
    expect(change).toMatchObject({ imageId: 1002, userId: undefined });
    expect((change!.fields as { quantity: Record<string, number> }).quantity["2"]).toBe(150);
    expect((change!.fields as { salt: Record<string, string> }).salt["2"]).toBe("low");
    expect((change!.fields as { sugar?: Record<string, string> }).sugar?.["2"]).toBeUndefined();
  });

  it("reads a recognition-only intake's total row as the intake's own fields", async () => {
    const input = await readCsv(chunks(edited(recognition, "total", "300 low none")), {}, true);
    expect(input.problems).toEqual([]);
    expect([...input.changes].map((change) => change.fields)).toEqual([{ quantity: 300, salt: "low", sugar: "none" }]);
  });

  it("refuses, by line, a text without its # intake line and a value the rules refuse", async () => {
    const nameless = await readCsv(chunks("position quantity\n1 150\n"), {}, true);
    expect(nameless.problems[0]).toMatchObject({ line: 1, message: expect.stringContaining("# intake <image_id>") });
    const text = edited(itemized, "2", "150 salty - - -");
    const bad = await readCsv(chunks(text), {}, true);
    const line = text.split("\n").findIndex((row) => row.startsWith("2 ")) + 1;
    expect(bad.problems).toEqual([expect.objectContaining({ line, field: "salt" })]);
  });
});

describe("a rule worded once", () => {
  const chunks = async function* (text: string) {
    yield text;
  };
  const csvProblem = async (column: string, cell: string) =>
    (await readCsv(chunks(`image_id,position,${column}\n1002,1,${cell}\n`))).problems.map((problem) => problem.message);
  const jsonlProblem = async (body: Record<string, unknown>) =>
    (await readJsonLines(chunks(`${JSON.stringify({ image_id: 1002, ...body })}\n`))).problems.map((problem) => problem.message);
  const editProblem = (values: string) =>
    (readEditText(edited(itemized, "1", values), itemized) as { problems: string[] }).problems.map((problem) =>
      problem.replace(/^line \d+: /, ""),
    );

  it("says the same of a bad level in an edit text, a CSV cell and a JSON Lines body", async () => {
    const message = 'salt of position 1 must be one of none, low, medium, high, got "LOW"; did you mean low?';
    expect(editProblem("200 LOW none low metric")).toEqual([message]);
    expect(await csvProblem("salt", "LOW")).toEqual([message]);
    expect(await jsonlProblem({ salt: { 1: "LOW" } })).toEqual([message]);
    // set-modifiers names its flag, with the near miss as its hint.
    expect(() => checkModifierFlags({ salt: "LOW" })).toThrow('--salt must be one of none, low, medium, high, got "LOW"');
    let hint: string | undefined;
    try {
      checkModifierFlags({ salt: "LOW" });
    } catch (error) {
      hint = (error as { hint?: string }).hint;
    }
    expect(hint).toBe("did you mean low?");
  });

  it("says the same of bad grams in an edit text, a CSV cell and set-quantity's arguments", async () => {
    const message = 'quantity of position 1: "150g" is not a number of grams: write 150';
    expect(editProblem("150g medium none low metric")).toEqual([message]);
    expect(await csvProblem("quantity", "150g")).toEqual([message]);
    expect(() => checkUpdateFields(1002, parseQuantityArgs(["1=150g"]))).toThrow(message);
  });

  it("lists every problem of a row, each with its line, and numbers them as a reopened file shows them", () => {
    const text = edited(itemized, "2", "0 LOW none lo metric");
    const line = text.split("\n").findIndex((row) => row.startsWith("2 ")) + 1;
    const problems = (readEditText(text, itemized, { lineOffset: 3 }) as { problems: string[] }).problems;
    expect(problems).toEqual([
      `line ${line + 3}: quantity of position 2 must be more than 0 g, got 0`,
      `line ${line + 3}: salt of position 2 must be one of none, low, medium, high, got "LOW"; did you mean low?`,
      `line ${line + 3}: oil of position 2 must be one of none, low, medium, high, got "lo"; did you mean low?`,
    ]);
  });

  it("judges only what changed: a value the intake already holds is not sent, so not refused", () => {
    const fractional: Intake = { ...recognition, serving_size: 320.5 };
    expect(readEditText(renderEditText(fractional), fractional)).toEqual({ kind: "edit", fields: {}, changed: 0 });
    expect(readEditText(edited(fractional, "total", "320.7 medium none"), fractional)).toEqual({
      kind: "problems",
      problems: [expect.stringMatching(/^line \d+: quantity must be a whole number of grams for a recognition-only intake, got 320.7$/)],
    });
  });
});
