import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectExit, GET_INTAKE, itemOf, POST_QUANTITY, startTestSandbox, type TestSandbox } from "./harness.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe("intake set-quantity against the sandbox", () => {
  it("changes only the supplied positions (update rule 1), with one read before, the update, one read after", async () => {
    const before = sandbox.intake(1002);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "1002", "2=100"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });

    const after = sandbox.intake(1002);
    expect(itemOf(after, 2).recipe.serving_size).toBe(100);
    expect(itemOf(after, 1)).toEqual(itemOf(before, 1));
    expect(itemOf(after, 3)).toEqual(itemOf(before, 3));
  });

  it("rescales every component of the item proportionally, keeps their names, and recalculates the totals (rules 5, 6)", async () => {
    const before = sandbox.intake(1002);
    const was = itemOf(before, 1);
    const result = await sandbox.cli(["intake", "set-quantity", "1002", "1=90"]);
    expectExit(result, 0);

    const now = itemOf(sandbox.intake(1002), 1);
    const factor = 90 / was.recipe.serving_size;
    expect(now.recipe.serving_size).toBe(90);
    expect(now.recipe.recipe.map((component) => component.name)).toEqual(was.recipe.recipe.map((component) => component.name));
    now.recipe.recipe.forEach((component, index) => expect(component.weight).toBeCloseTo(was.recipe.recipe[index]!.weight * factor, 1));
    expect(now.recipe.recipe.reduce((sum, component) => sum + component.weight, 0)).toBeCloseTo(90, 1);
    expect(now.nutrition.nutritional_info.calories).toBeCloseTo(was.nutrition.nutritional_info.calories * factor, 0);

    const after = sandbox.intake(1002);
    expect(after.serving_size).toBeCloseTo(before.serving_size - was.recipe.serving_size + 90, 6);
    const kcalDrop = was.nutrition.nutritional_info.calories - now.nutrition.nutritional_info.calories;
    expect(after.nutritional_info.calories).toBeCloseTo(before.nutritional_info.calories - kcalDrop, 0);

    // The printed change: the header, the item's grams and kcal before and after, then the totals'.
    const fmt = (value: number) => String(Number(value.toFixed(1)));
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit",
      `item\t1002\t1\tScrambled eggs on toast\tgrams\t${fmt(was.recipe.serving_size)}\t90\tg`,
      `item\t1002\t1\tScrambled eggs on toast\tkcal\t${fmt(was.nutrition.nutritional_info.calories)}\t${fmt(now.nutrition.nutritional_info.calories)}\tkcal`,
    ]);
    expect(lines).toContain(
      `total\t1002\t-\t-\tenergy\t${fmt(before.nutritional_info.calories)}\t${fmt(after.nutritional_info.calories)}\tkcal`,
    );
    expect(lines.filter((line) => line.startsWith("item\t"))).toHaveLength(2);
  });

  it("sets the total of a recognition-only intake and rescales its recipe", async () => {
    const before = sandbox.intake(1001);
    const result = await sandbox.cli(["intake", "set-quantity", "1001", "400"]);
    expectExit(result, 0);
    const after = sandbox.intake(1001);
    expect(after.serving_size).toBe(400);
    const factor = 400 / before.serving_size;
    after.recipe!.forEach((component, index) => expect(component.weight).toBeCloseTo(before.recipe![index]!.weight * factor, 1));
    expect(after.nutritional_info.calories).toBeCloseTo(before.nutritional_info.calories * factor, 0);
    expect(result.stdout.split("\n")[1]).toBe("item\t1001\t-\tMargherita pizza\tgrams\t320\t400\tg");
  });

  it("takes a decimal quantity for a manual item", async () => {
    const result = await sandbox.cli(["intake", "set-quantity", "1003", "manual2=80.5"]);
    expectExit(result, 0);
    expect(itemOf(sandbox.intake(1003), "manual2").recipe.serving_size).toBe(80.5);
  });

  it("--json prints the intake after the change exactly as a following `intake show --json` does", async () => {
    const result = await sandbox.cli(["intake", "set-quantity", "1003", "manual1=300", "--json"]);
    expectExit(result, 0);
    const show = await sandbox.cli(["intake", "show", "1003", "--json"]);
    expectExit(show, 0);
    expect(result.stdout).toBe(show.stdout);
    expect(JSON.parse(result.stdout).intake_info.recipe_per_item[0].serving_size).toBe(300);
  });

  it("--no-verify sends the update without the read after it", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "2003", "manual2=120", "--no-verify"], { as: "bob" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 1, [POST_QUANTITY]: 1 });
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("quantity change sent for intake 2003 (not verified: --no-verify)");
    expect(itemOf(sandbox.intake(2003), "manual2").recipe.serving_size).toBe(120);
  });

  it("--no-verify --json prints that the change was applied, unverified, with the update's answer", async () => {
    const result = await sandbox.cli(["intake", "set-quantity", "2001", "350", "--no-verify", "--json"], { as: "bob" });
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toEqual({
      image_id: 2001,
      status: "applied",
      verified: false,
      response: { message: "intake 2001 updated", imageId: 2001 },
    });
    expect(sandbox.intake(2001).serving_size).toBe(350);
  });

  describe("refuses what cannot apply after reading the intake, sending nothing else (exit 7)", () => {
    it.each([
      ["an unknown position", ["1002", "9=100"], "unknown position 9 (this intake has 1, 2, 3)"],
      ["a manual position on a segmentation intake", ["1002", "manual1=100"], "unknown position manual1"],
      ["the <grams> form on an itemized intake", ["1002", "150"], "intake is a segmentation intake: give values per position (e.g. 1=150)"],
      ["the <grams> form on a manual intake", ["1003", "150"], "intake is a manual intake: give values per position (e.g. manual1=150)"],
      [
        "<pos>=<grams> on a recognition-only intake",
        ["1001", "1=100"],
        "quantity is given per position, but intake is recognition-only: give one total quantity",
      ],
    ])("%s", async (_name, args, message) => {
      const before = sandbox.intake(Number(args[0]));
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["intake", "set-quantity", ...args]);
      expectExit(result, 7);
      expect(result.stderr).toContain(`error: intake ${args[0]}: ${message}`);
      expect(result.stderr).toContain("hint: nothing was sent");
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
      expect(sandbox.intake(Number(args[0]))).toEqual(before);
    });
  });

  it("an unknown intake is exit 6 after the one read", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "9999", "100"]);
    expectExit(result, 6);
    expect(result.stderr).toMatch(/answered 404 \(code 1301\): no intake 9999/);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });
});
