/**
 * The before → after of a change as a person sees it at 40, 60, 80 and 120 columns, against a
 * fresh sandbox each: every changed value whole, no line wider than the terminal.
 */
import { describe, expect, it } from "vitest";
import { formatAmount } from "../../../src/intake/amounts.js";
import type { IntakeRecord } from "../../../src/sandbox/render.js";
import { expectExit, itemOf, startTestSandbox } from "./harness.js";

const widest = (text: string) => Math.max(...text.split("\n").map((line) => [...line].length));

/** What changed on the item, as `before → after` texts. */
function changedValues(before: IntakeRecord, after: IntakeRecord, positions: number[]): string[] {
  const values: string[] = [];
  for (const position of positions) {
    const was = itemOf(before, position);
    const now = itemOf(after, position);
    for (const level of ["salt", "oil"] as const) {
      if (was.recipe[level] !== now.recipe[level]) values.push(`${was.recipe[level]} → ${now.recipe[level]}`);
    }
    const kcal = [was.nutrition.nutritional_info.calories, now.nutrition.nutritional_info.calories].map((value) => formatAmount(value));
    if (kcal[0] !== kcal[1]) values.push(`${kcal[0]} → ${kcal[1]}`);
  }
  return values;
}

describe("set-modifiers on a terminal: the before → after fits at any width", () => {
  it.each([40, 60, 80, 120])("two modifiers on every item of 4003 at %i columns: every changed value whole", async (columns) => {
    const sandbox = await startTestSandbox();
    try {
      const before = structuredClone(sandbox.intake(4003));
      const args = ["intake", "set-modifiers", "4003", "--all-items", "--salt", "low", "--oil", "medium"];
      const result = await sandbox.cli(args, { as: "erin", tty: true, columns, env: { NO_COLOR: "1" } });
      expectExit(result, 0);
      const values = changedValues(before, sandbox.intake(4003), [1, 3]);
      // Salt on item 3, oil and kcal on item 1 (item 1's salt was low already).
      expect(values).toHaveLength(3);
      for (const value of values) expect(result.stdout).toContain(value);
      expect(result.stdout).toContain(
        `energy ${formatAmount(before.nutritional_info?.calories)} → ${formatAmount(sandbox.intake(4003).nutritional_info?.calories)} kcal`,
      );
      expect(widest(result.stdout)).toBeLessThanOrEqual(columns);
    } finally {
      await sandbox.close();
    }
  });
});
