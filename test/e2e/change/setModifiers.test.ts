import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine } from "../../helpers/cli.js";
import { expectExit, GET_INTAKE, itemOf, POST_QUANTITY, startTestSandbox, type TestSandbox } from "./harness.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const nutrient = (info: { totalNutrients: Record<string, { quantity: number }> }, code: string) => info.totalNutrients[code]!.quantity;
const weightOf = (recipe: Array<{ name: string; weight: number }>, name: string) =>
  recipe.find((component) => component.name === name)?.weight;

describe("intake set-modifiers against the sandbox", () => {
  it("salt, sugar and oil change the item's recipe components and its nutrition (update rule 3), for a Monitor user", async () => {
    // alice (Monitor), 1002 item 3: pancakes with maple syrup, likely to contain added sugars.
    const was = itemOf(sandbox.intake(1002), 3);
    expect([was.recipe.salt, was.recipe.sugar, was.recipe.oil]).toEqual(["low", "low", "low"]);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-modifiers", "1002", "3", "--salt", "high", "--sugar", "high", "--oil", "high"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
    expect(result.stderr).toBe("");

    const now = itemOf(sandbox.intake(1002), 3);
    expect([now.recipe.salt, now.recipe.sugar, now.recipe.oil]).toEqual(["high", "high", "high"]);
    expect(now.recipe.serving_size).toBe(was.recipe.serving_size);
    // The sandbox model: salt 1.5 %, sugar 10 %, oil 10 % of the serving at "high".
    expect(weightOf(now.recipe.recipe, "salt")).toBeCloseTo(3, 2);
    expect(weightOf(now.recipe.recipe, "sugar")).toBeCloseTo(20, 2);
    expect(weightOf(now.recipe.recipe, "oil")).toBeCloseTo(20, 2);
    expect(nutrient(now.nutrition.nutritional_info, "NA")).toBeGreaterThan(nutrient(was.nutrition.nutritional_info, "NA"));
    expect(nutrient(now.nutrition.nutritional_info, "SUGAR")).toBeGreaterThan(nutrient(was.nutrition.nutritional_info, "SUGAR"));
    expect(nutrient(now.nutrition.nutritional_info, "FAT")).toBeGreaterThan(nutrient(was.nutrition.nutritional_info, "FAT"));

    // The printed change: a row per changed field of the one changed item, before and after apart.
    const itemLines = result.stdout.split("\n").filter((line) => line.startsWith("item\t"));
    expect(itemLines.map((line) => line.split("\t").slice(0, 7))).toEqual([
      ["item", "1002", "3", "Pancakes with maple syrup", "salt", "low", "high"],
      ["item", "1002", "3", "Pancakes with maple syrup", "sugar", "low", "high"],
      ["item", "1002", "3", "Pancakes with maple syrup", "oil", "low", "high"],
      ["item", "1002", "3", "Pancakes with maple syrup", "kcal", expect.stringMatching(/^[\d.]+$/), expect.stringMatching(/^[\d.]+$/)],
    ]);
    expect(result.stdout).toMatch(/^total\t1002\t-\t-\tsodium\t[\d.]+\t[\d.]+\tmg$/m);
  });

  it("sugar on a dish not likely to contain added sugars stores the level and keeps nutrition (update rule 4)", async () => {
    // 1002 item 1: scrambled eggs on toast.
    const before = sandbox.intake(1002);
    const was = itemOf(before, 1);
    const result = await sandbox.cli(["intake", "set-modifiers", "1002", "1", "--sugar", "high"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    const after = sandbox.intake(1002);
    const now = itemOf(after, 1);
    expect(now.recipe.sugar).toBe("high");
    expect(now.nutrition).toEqual(was.nutrition);
    expect(now.recipe.recipe).toEqual(was.recipe.recipe);
    expect(after.nutritional_info).toEqual(before.nutritional_info);
    expect(result.stdout).toBe(
      "row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit\nitem\t1002\t1\tScrambled eggs on toast\tsugar\tnone\thigh\t-\n",
    );
    expect(result.stdout).not.toMatch(/^total\t/m);
  });

  it("measures are stored per item, and --all-items reaches every item", async () => {
    const result = await sandbox.cli(["intake", "set-modifiers", "1003", "--all-items", "--measures", "imperial"]);
    expectExit(result, 0);
    const intake = sandbox.intake(1003);
    expect(intake.recipe_per_item!.map((item) => item.measures)).toEqual(["imperial", "imperial"]);
  });

  it("recognition-only salt and sugar apply on every plan: bob (Analyse) sees no warning", async () => {
    const result = await sandbox.cli(["intake", "set-modifiers", "2001", "--salt", "high"], { as: "bob" });
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    expect(sandbox.intake(2001).salt).toBe("high");
    expect(result.stdout).toMatch(/^item\t2001\t-\tTeriyaki chicken with rice\tsalt\tlow\thigh\t-$/m);
  });

  describe("below Monitor (bob, Analyse) item-level modifiers are ignored (update rule 2)", () => {
    it("warns naming the positions and the plan, and exits 0", async () => {
      const before = sandbox.intake(2002);
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", "2002", "1", "2", "--salt", "high", "--oil", "medium"], { as: "bob" });
      expectExit(result, 0);
      expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
      expect(result.stderr).toBe(
        "warning: intake 2002: salt high at positions 1, 2 (still medium/low); oil medium at positions 1, 2 (still low/none) did not take effect: the user's plan is probably below Monitor, which item-level salt, sugar, oil and measures need\nintake 2002: no change\n",
      );
      expect(result.stdout).toBe("");
      expect(sandbox.intake(2002)).toEqual(before);
    });

    it("exits 7 with --strict, after printing the warning", async () => {
      const result = await sandbox.cli(["intake", "set-modifiers", "2002", "2", "--sugar", "high", "--strict"], { as: "bob" });
      expectExit(result, 7);
      expect(result.stderr).toContain(
        "warning: intake 2002: sugar high at position 2 (still medium) did not take effect: the user's plan is probably below Monitor",
      );
      expect(result.stderr).toContain("error: intake 2002: requested modifiers did not take effect (--strict)");
      expect(itemOf(sandbox.intake(2002), 2).recipe.sugar).toBe("medium");
    });

    it("--strict --json still prints the intake on stdout and the error as JSON on stderr", async () => {
      const result = await sandbox.cli(["intake", "set-modifiers", "2003", "manual1", "--salt", "low", "--strict", "--json"], {
        as: "bob",
      });
      expectExit(result, 7);
      expect(JSON.parse(result.stdout).intake_info.image_id).toBe(2003);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines[0]).toContain("warning: intake 2003: salt low at position manual1 (still none)");
      expect(JSON.parse(lines[1]!)).toMatchObject({ error: { code: "rejected", exit_code: 7 } });
    });
  });

  it("--json prints the intake after the change exactly as a following `intake show --json` does", async () => {
    const result = await sandbox.cli(["intake", "set-modifiers", "4001", "2", "--salt", "none", "--json"], { as: "erin" });
    expectExit(result, 0);
    const show = await sandbox.cli(["intake", "show", "4001", "--json"], { as: "erin" });
    expect(result.stdout).toBe(show.stdout);
    expect(JSON.parse(result.stdout).intake_info.recipe_per_item[1].salt).toBe("none");
  });

  describe("refuses, after reading the intake, what its kind cannot take; nothing else is sent", () => {
    it.each([
      [
        "--oil with --all-items on a recognition-only intake",
        ["1001", "--all-items", "--oil", "low"],
        7,
        "error: intake 1001 is recognition-only: --oil applies only to itemized intakes",
      ],
      [
        "positions on a recognition-only intake",
        ["1001", "1", "--salt", "low"],
        7,
        "error: intake 1001 is recognition-only: it has no item positions",
      ],
      ["an unknown position", ["1002", "4", "--salt", "low"], 7, "error: intake 1002: unknown position 4 (this intake has 1, 2, 3)"],
      // Not a syntax error: only the intake shows it needs positions, so exit 7 (docs/cli.md, exit codes).
      [
        "an itemized intake without positions or --all-items",
        ["1002", "--salt", "low"],
        7,
        "error: intake 1002 is itemized: name the positions (1, 2, 3) or use --all-items",
      ],
    ])("%s", async (_name, args, code, message) => {
      const before = sandbox.intake(Number(args[0]));
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", ...args]);
      expectExit(result, code);
      expect(result.stderr).toContain(message);
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
      expect(sandbox.intake(Number(args[0]))).toEqual(before);
    });
  });

  describe("--oil or --measures without positions or --all-items: refused before any request (they exist only per item)", () => {
    it("on an itemized intake: exit 2, nothing sent, and the hint's command then works", async () => {
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", "1002", "--oil", "high"]);
      expectErrorLine(result, 2, "error: --oil applies per item: name the positions or use --all-items");
      const retry = /every item: (foodctl [^(]+) \(/.exec(result.stderr)?.[1];
      expect(retry).toBe("foodctl intake set-modifiers 1002 --all-items --oil high");
      expect(result.stderr).toContain("(a recognition-only intake has no oil: drop --oil)");
      expect(count()).toEqual({});
      expectExit(await sandbox.cli(retry!.split(" ").slice(1)), 0);
      expect([1, 2, 3].map((position) => itemOf(sandbox.intake(1002), position).recipe.oil)).toEqual(["high", "high", "high"]);
    });

    it("the hint's command keeps the run's change flags, and a dry run followed sends nothing", async () => {
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", "1003", "--oil", "none", "--dry-run", "--no-verify", "--strict"]);
      expectErrorLine(result, 2, "error: --oil applies per item: name the positions or use --all-items");
      const retry = /every item: (foodctl [^(]+) \(/.exec(result.stderr)?.[1];
      expect(retry).toBe("foodctl intake set-modifiers 1003 --all-items --oil none --strict --dry-run --no-verify");
      const before = sandbox.intake(1003);
      expectExit(await sandbox.cli(retry!.split(" ").slice(1)), 0);
      expect(sandbox.intake(1003)).toEqual(before);
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
    });

    it("on a recognition-only intake: the same refusal, which says to drop --oil; nothing is read", async () => {
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", "1001", "--salt", "low", "--measures", "imperial"]);
      expectErrorLine(result, 2, "error: --measures applies per item: name the positions or use --all-items");
      expect(result.stderr).toContain(
        "--all-items --salt low --measures imperial (a recognition-only intake has no measures: drop --measures)",
      );
      expect(count()).toEqual({});
    });
  });

  describe("refuses before any request what the arguments alone rule out (exit 2, nothing sent)", () => {
    it.each([
      ["positions and --all-items", ["1002", "1", "--all-items", "--salt", "low"], "error: give positions or --all-items, not both", null],
      [
        "a level that is a near miss",
        ["1002", "1", "--salt", "lo"],
        'error: --salt must be one of none, low, medium, high, got "lo"',
        "hint: did you mean low?",
      ],
      [
        "a measure that is a near miss",
        ["1002", "1", "--measures", "imperal"],
        'error: --measures "imperal" is not metric or imperial',
        "hint: did you mean imperial?",
      ],
    ])("%s", async (_name, args, message, hint) => {
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-modifiers", ...args]);
      expectErrorLine(result, 2);
      expect(result.stderr).toContain(message);
      if (hint !== null) expect(result.stderr).toContain(hint);
      expect(count()).toEqual({});
    });
  });
});
