import { describe, expect, it } from "vitest";
import type { Intake } from "../../src/records/intake.js";
import { describeIgnored } from "../../src/output/change.js";
import { diffIntakes, findIgnoredModifiers } from "../../src/intake/diff.js";
import { renderDiff } from "../../src/output/change.js";

const nutrition = (kcal: number, sodium = 500) => ({
  calories: kcal,
  totalNutrients: {
    ENERC_KCAL: { label: "Energy", quantity: kcal, unit: "kcal" },
    PROCNT: { label: "Protein", quantity: 20, unit: "g" },
    FAT: { label: "Fat", quantity: 10, unit: "g" },
    CHOCDF: { label: "Carbs", quantity: 50, unit: "g" },
    SUGAR: { label: "Sugar", quantity: 5, unit: "g" },
    NA: { label: "Sodium", quantity: sodium, unit: "mg" },
  },
});

function segmentation(overrides: { grams1?: number; kcal1?: number; salt1?: string; total?: number; sodium?: number } = {}): Intake {
  const grams1 = overrides.grams1 ?? 180;
  const kcal1 = overrides.kcal1 ?? 300;
  return {
    image_id: 1002,
    has_display_image: false,
    can_edit_display_image: false,
    image_url: "http://127.0.0.1/images/a.png",
    processed_image_size: { width: 64, height: 48 },
    foodName: ["Scrambled eggs on toast", "Fresh fruit salad"],
    serving_size: grams1 + 150,
    nutritional_info: nutrition(overrides.total ?? kcal1 + 80, overrides.sodium),
    nutritional_info_per_item: [
      { food_item_position: 1, serving_size: grams1, nutritional_info: nutrition(kcal1) },
      { food_item_position: 2, serving_size: 150, nutritional_info: nutrition(80) },
    ],
    recipe_per_item: [
      {
        food_item_position: 1,
        name: "Scrambled eggs on toast",
        serving_size: grams1,
        salt: overrides.salt1 ?? "medium",
        sugar: "none",
        oil: "low",
        measures: "metric",
      },
      { food_item_position: 2, name: "Fresh fruit salad", serving_size: 150, salt: "none", sugar: "none", oil: "none", measures: "metric" },
    ],
  };
}

function manual(display: { url: string; width: number; height: number } | null): Intake {
  return {
    image_id: 1003,
    has_display_image: display !== null,
    can_edit_display_image: true,
    image_url: display?.url ?? "http://127.0.0.1/images/normal.png",
    processed_image_size: display ? { width: display.width, height: display.height } : { width: 60, height: 40 },
    foodName: ["Spaghetti bolognese"],
    serving_size: 350,
    nutritional_info: nutrition(500),
    nutritional_info_per_item: [{ food_item_position: "manual1", serving_size: 350, nutritional_info: nutrition(500) }],
    recipe_per_item: [
      {
        food_item_position: "manual1",
        name: "Spaghetti bolognese",
        serving_size: 350,
        salt: "medium",
        sugar: "none",
        oil: "low",
        measures: "metric",
      },
    ],
  };
}

const piped = { write: () => true, isTTY: false };
const terminal = { write: () => true, isTTY: true, columns: 120 };

describe("diffIntakes", () => {
  it("marks only the items whose grams, kcal or levels changed", () => {
    const diff = diffIntakes(segmentation(), segmentation({ grams1: 150, kcal1: 250 }));
    expect(diff.changed).toBe(true);
    expect(diff.items.map((item) => [item.position, item.changed])).toEqual([
      ["1", true],
      ["2", false],
    ]);
    expect(diff.items[0]!.grams).toEqual({ before: 180, after: 150 });
    expect(diff.items[0]!.kcal).toEqual({ before: 300, after: 250 });
    expect(diff.totals.find((total) => total.label === "energy")).toMatchObject({ before: 380, after: 330, unit: "kcal" });
  });

  it("sees a level change even when grams and kcal stay", () => {
    const diff = diffIntakes(segmentation(), segmentation({ salt1: "low" }));
    expect(diff.items[0]!.changed).toBe(true);
    expect(diff.items[0]!.salt).toEqual({ before: "medium", after: "low" });
  });

  it("ignores floating-point noise below 0.05", () => {
    const diff = diffIntakes(segmentation(), segmentation({ kcal1: 300.01, total: 380.01 }));
    expect(diff.changed).toBe(false);
  });

  it("reports a display image attached, with its URL and dimensions", () => {
    const diff = diffIntakes(manual(null), manual({ url: "http://127.0.0.1/images/new.png", width: 8, height: 6 }));
    expect(diff.changed).toBe(true);
    expect(diff.items.every((item) => !item.changed)).toBe(true);
    expect(diff.displayImage.after).toEqual({ attached: true, url: "http://127.0.0.1/images/new.png", width: 8, height: 6 });
    expect(diff.displayImage.before.attached).toBe(false);
  });

  it("reads a recognition-only intake as one row without a position", () => {
    const before: Intake = {
      image_id: 1001,
      foodName: ["Margherita pizza"],
      serving_size: 320,
      salt: "medium",
      sugar: "none",
      nutritional_info: nutrition(800),
    };
    const diff = diffIntakes(before, { ...before, serving_size: 400, nutritional_info: nutrition(1000) });
    expect(diff.items).toHaveLength(1);
    expect(diff.items[0]).toMatchObject({
      position: null,
      food: "Margherita pizza",
      grams: { before: 320, after: 400 },
      kcal: { before: 800, after: 1000 },
      changed: true,
    });
  });
});

describe("renderDiff", () => {
  it("piped: one tagged row per changed item, totals with before and after columns", () => {
    const text = renderDiff(diffIntakes(segmentation(), segmentation({ grams1: 150, kcal1: 250 })), piped, false);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("item\t1\tScrambled eggs on toast\t180 → 150\tmedium\tnone\tlow\tmetric\t300 → 250");
    expect(lines).toContain("total\tenergy\t380\t330\tkcal");
    expect(lines.some((line) => line.startsWith("item\t2\t"))).toBe(false);
  });

  it("piped: the display image line names the URLs and dimensions", () => {
    const text = renderDiff(
      diffIntakes(manual(null), manual({ url: "http://127.0.0.1/images/new.png", width: 8, height: 6 })),
      piped,
      false,
    );
    expect(text).toBe(
      "image\tnormal image http://127.0.0.1/images/normal.png (60×40) → display image http://127.0.0.1/images/new.png (8×6)\n",
    );
  });

  it("prints nothing piped and says so on a terminal when nothing changed", () => {
    const diff = diffIntakes(segmentation(), segmentation());
    expect(renderDiff(diff, piped, false)).toBe("");
    expect(renderDiff(diff, terminal, false)).toBe("intake 1002: no change\n");
  });

  it("on a terminal draws a table with the arrows", () => {
    const text = renderDiff(diffIntakes(segmentation(), segmentation({ salt1: "high", kcal1: 301, total: 381 })), terminal, false);
    expect(text).toContain("medium → high");
    expect(text).toContain("300 → 301");
    expect(text).toContain("totals  energy 380 → 381 kcal");
  });
});

describe("renderDiff at 80 columns", () => {
  const narrow = { ...terminal, columns: 80 };
  const widest = (text: string) => Math.max(...text.split("\n").map((line) => line.length));

  it("wraps the totals line as `intake show` does", () => {
    const after = segmentation({ grams1: 150, kcal1: 250, total: 330, sodium: 450 });
    const text = renderDiff(diffIntakes(segmentation(), after), { ...terminal, columns: 40 }, false);
    expect(text).toContain("totals  energy 380 → 330 kcal\n        sodium 500 → 450 mg\n");
  });

  it("puts the display image's before and after on a line each, cut to the width", () => {
    const long = `http://127.0.0.1/images/${"a".repeat(64)}.png`;
    const text = renderDiff(diffIntakes(manual(null), manual({ url: long, width: 8, height: 6 })), narrow, false);
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(text).toMatch(
      /^image {2}normal image http:\/\/127\.0\.0\.1\/images\/normal\.png \(60×40\)\n {5}→ display image http:\/\/127\.0\.0\.1\/images\/a+…\n/,
    );
  });
});

describe("findIgnoredModifiers", () => {
  it("lists the requested levels the intake does not show afterwards, per position", () => {
    const after = segmentation();
    const ignored = findIgnoredModifiers({ salt: { "1": "low", "2": "none" }, oil: { "2": "high" }, quantity: { "1": 150 } }, after);
    expect(ignored).toEqual([
      { position: "1", field: "salt", requested: "low", actual: "medium" },
      { position: "2", field: "oil", requested: "high", actual: "none" },
    ]);
  });

  it("compares a recognition-only intake's plain levels", () => {
    const after: Intake = { image_id: 1001, foodName: ["Pizza"], salt: "medium", sugar: "none" };
    expect(findIgnoredModifiers({ salt: "low", sugar: "none" }, after)).toEqual([
      { position: null, field: "salt", requested: "low", actual: "medium" },
    ]);
  });

  it("finds nothing when only quantities were asked for", () => {
    expect(findIgnoredModifiers({ quantity: { "1": 10 } }, segmentation())).toEqual([]);
  });
});

describe("describeIgnored", () => {
  it("names the field, the positions and the plan as the likely cause", () => {
    const line = describeIgnored(2002, [
      { position: "1", field: "salt", requested: "low", actual: "medium" },
      { position: "2", field: "salt", requested: "low", actual: "none" },
      { position: "1", field: "oil", requested: "high", actual: "low" },
    ]);
    expect(line).toBe(
      "intake 2002: salt low at positions 1, 2 (still medium/none); oil high at position 1 (still low) did not take effect: the user's plan is probably below Monitor, which item-level salt, sugar, oil and measures need",
    );
  });
});
