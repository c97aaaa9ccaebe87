import { describe, expect, it } from "vitest";
import type { Intake } from "../../src/records/intake.js";
import { describeIgnored } from "../../src/output/changeResult.js";
import { diffIntakes, findIgnoredModifiers } from "../../src/intake/diff.js";
import { renderDiff } from "../../src/output/changeResult.js";

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
  it("piped: a header, then one row per changed field with before and after in fields of their own", () => {
    const text = renderDiff(diffIntakes(segmentation(), segmentation({ grams1: 150, kcal1: 250 })), piped, false);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit");
    expect(lines.slice(1, 3)).toEqual([
      "item\t1002\t1\tScrambled eggs on toast\tgrams\t180\t150\tg",
      "item\t1002\t1\tScrambled eggs on toast\tkcal\t300\t250\tkcal",
    ]);
    expect(lines).toContain("total\t1002\t-\t-\tenergy\t380\t330\tkcal");
    expect(lines.some((line) => line.startsWith("item\t1002\t2\t"))).toBe(false);
    expect(lines.every((line) => line.split("\t").length === 8)).toBe(true);
  });

  it("piped: a level's row names the field, with no unit", () => {
    const text = renderDiff(diffIntakes(segmentation(), segmentation({ salt1: "high" })), piped, false);
    expect(text).toBe(
      "row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit\nitem\t1002\t1\tScrambled eggs on toast\tsalt\tmedium\thigh\t-\n",
    );
  });

  it("piped: the display image row names the URLs and dimensions", () => {
    const text = renderDiff(
      diffIntakes(manual(null), manual({ url: "http://127.0.0.1/images/new.png", width: 8, height: 6 })),
      piped,
      false,
    );
    expect(text.split("\n")[1]).toBe(
      "image\t1003\t-\t-\tdisplay_image\tnormal image http://127.0.0.1/images/normal.png (60×40)\tdisplay image http://127.0.0.1/images/new.png (8×6)\t-",
    );
  });

  it("prints nothing piped and says so on a terminal when nothing changed", () => {
    const diff = diffIntakes(segmentation(), segmentation());
    expect(renderDiff(diff, piped, false)).toBe("");
    expect(renderDiff(diff, terminal, false)).toBe("intake 1002: no change\n");
  });

  it("overwritten: the field shows what this change sent and marks the value found as another writer's", () => {
    // This change sent 150 g; another writer's 120 g was read back.
    const diff = diffIntakes(segmentation(), segmentation({ grams1: 120, kcal1: 200, total: 280 }));
    const overwritten = [{ position: "1", field: "grams", sent: "150", now: "120" }];
    const text = renderDiff(diff, terminal, false, overwritten);
    expect(text).toContain("180 → 150 sent; now 120 (another writer's)");
    expect(text).not.toMatch(/180 → 120(?! \()/);
    expect(text).toContain("totals (now, another writer's values included)\n        energy 380 → 280 kcal");
    const narrow = renderDiff(diff, { ...terminal, columns: 60 }, false, overwritten);
    expect(
      narrow
        .trimEnd()
        .split("\n")
        .every((line) => [...line].length <= 60),
    ).toBe(true);
    expect(narrow).toContain("180 → 150 sent; now 120 (another writer's)");
    const piped_ = renderDiff(diff, piped, false, overwritten).trimEnd().split("\n");
    expect(piped_).toContain("overwritten\t1002\t1\tScrambled eggs on toast\tgrams\t150\t120\tg");
    expect(piped_).toContain("item\t1002\t1\tScrambled eggs on toast\tgrams\t180\t120\tg");
  });

  it("overwritten back to the value before: the field is still shown, with what was sent", () => {
    const diff = diffIntakes(segmentation(), segmentation());
    const overwritten = [{ position: "1", field: "salt", sent: "high", now: "medium" }];
    expect(renderDiff(diff, terminal, false, overwritten)).toContain("medium → high sent; now medium (another writer's)");
    expect(renderDiff(diff, piped, false, overwritten)).toBe(
      "row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit\noverwritten\t1002\t1\tScrambled eggs on toast\tsalt\thigh\tmedium\t-\n",
    );
  });

  it("overwritten display image: the image found is marked as another writer's", () => {
    const attached = manual({ url: "http://127.0.0.1/images/theirs.png", width: 8, height: 6 });
    const text = renderDiff(diffIntakes(attached, attached), terminal, false, [
      { position: null, field: "display image", sent: "none", now: "attached" },
    ]);
    expect(text).toContain("→ display image http://127.0.0.1/images/theirs.png (8×6) (another writer's; this change removed it)");
  });

  it("a display image URL too long for its line starts a line of its own, whole, at 80 columns", () => {
    const url = "http://127.0.0.1:46621/images/309ce4e6024fa15e23a8fa7acd53bbce.png";
    const text = renderDiff(diffIntakes(manual(null), manual({ url, width: 80, height: 60 })), { ...terminal, columns: 80 }, false);
    const lines = text.trimEnd().split("\n");
    expect(lines.every((line) => [...line].length <= 80)).toBe(true);
    expect(lines).toContain(`       ${url}`);
    expect(text).toContain(`image  normal image http://127.0.0.1/images/normal.png (60×40)\n`);
    expect(text).toContain(`     → display image\n       ${url}\n       (80×60)\n`);
  });

  it("on a terminal draws a table with the arrows", () => {
    const text = renderDiff(diffIntakes(segmentation(), segmentation({ salt1: "high", kcal1: 301, total: 381 })), terminal, false);
    expect(text).toContain("medium → high");
    expect(text).toContain("300 → 301");
    expect(text).toContain("totals  energy 380 → 381 kcal");
  });
});

/** 4003 of the sandbox as `set-modifiers 4003 --all-items --salt low --oil medium` leaves it. */
function twoModifiers(): { before: Intake; after: Intake } {
  const before = segmentation({ kcal1: 467.7 });
  before.foodName = ["Salmon with rice and broccoli", "Mixed green salad"];
  before.recipe_per_item![0]!.name = "Salmon with rice and broccoli";
  before.recipe_per_item![1]!.name = "Mixed green salad";
  before.recipe_per_item![0]!.salt = "low";
  const after = structuredClone(before);
  after.recipe_per_item![0]!.oil = "medium";
  after.recipe_per_item![1]!.salt = "low";
  after.nutritional_info_per_item![0]!.nutritional_info = nutrition(534.5);
  after.nutritional_info = nutrition(614.5, 560);
  return { before, after };
}

describe("renderDiff at any width: every changed value whole", () => {
  const at = (columns: number) => ({ ...terminal, columns });
  const lines = (text: string) => text.trimEnd().split("\n");
  const widest = (text: string) => Math.max(...lines(text).map((line) => [...line].length));
  const changed = ["low → medium", "467.7 → 534.5", "none → low", "547.7 → 614.5", "500 → 560"];

  it.each([40, 60, 80, 120])("at %i columns two changed modifiers on two items fit and show whole", (columns) => {
    const { before, after } = twoModifiers();
    const text = renderDiff(diffIntakes(before, after), at(columns), false);
    expect(widest(text)).toBeLessThanOrEqual(columns);
    for (const value of changed) expect(text).toContain(value);
    expect(text).not.toMatch(/→ \S*…|\S*… →/);
  });

  it("at 120 columns: the whole table, unchanged columns too", () => {
    const { before, after } = twoModifiers();
    const text = renderDiff(diffIntakes(before, after), at(120), false);
    expect(lines(text)[0]).toMatch(/^position {2}food {2,}grams {2}salt {2,}sugar {2}oil {2,}measures {2,}kcal$/);
    expect(text).toMatch(/^1 {9}Salmon with rice and broccoli {2}/m);
  });

  it("at 80 columns: the unchanged levels give way, then the food is shortened", () => {
    const { before, after } = twoModifiers();
    const text = renderDiff(diffIntakes(before, after), at(80), false);
    expect(lines(text)[0]).toMatch(/^position {2}food {2,}grams {2}salt {2,}oil {2,}kcal$/);
    expect(text).toMatch(/^1 {9}Salmon with rice and\S*… +180 {2}low {9}low → medium {2}467\.7 → 534\.5$/m);
    expect(text).toMatch(/^2 {9}Mixed green salad +150 {2}none → low {2}none +80$/m);
  });

  it("at 60 and 40 columns: one line per changed field, the food shortened to the room left", () => {
    const { before, after } = twoModifiers();
    expect(lines(renderDiff(diffIntakes(before, after), at(60), false)).slice(0, 3)).toEqual([
      "1  Salmon with rice and broccoli  oil   low → medium",
      "1  Salmon with rice and broccoli  kcal  467.7 → 534.5",
      "2  Mixed green salad              salt  none → low",
    ]);
    expect(lines(renderDiff(diffIntakes(before, after), at(40), false)).slice(0, 3)).toEqual([
      "1  Salmon with ric…  oil   low → medium",
      "1  Salmon with ric…  kcal  467.7 → 534.5",
      "2  Mixed green sal…  salt  none → low",
    ]);
  });

  it("so narrow that no food fits: the position alone, the value still whole", () => {
    const { before, after } = twoModifiers();
    const text = renderDiff(diffIntakes(before, after), at(20), false);
    expect(lines(text).slice(0, 3)).toEqual(["1  oil   low → medium", "1  kcal  467.7 → 534.5", "2  salt  none → low"]);
  });

  it("a recognition-only intake's line has `-` for its position", () => {
    const before: Intake = {
      image_id: 1001,
      foodName: ["Margherita pizza"],
      serving_size: 320,
      salt: "medium",
      nutritional_info: nutrition(800),
    };
    const text = renderDiff(diffIntakes(before, { ...before, serving_size: 400, nutritional_info: nutrition(1000) }), at(40), false);
    expect(text).toMatch(/^- {2}Margherita pizza {2}grams {2}320 → 400\n- {2}Margherita pizza {2}kcal {3}800 → 1000\n/);
  });

  it("wraps the totals line as `intake show` does", () => {
    const after = segmentation({ grams1: 150, kcal1: 250, total: 330, sodium: 450 });
    const text = renderDiff(diffIntakes(segmentation(), after), at(40), false);
    expect(text).toContain("totals  energy 380 → 330 kcal\n        sodium 500 → 450 mg\n");
  });

  it("at 40 columns the display image's URLs are whole, each on a line of its own", () => {
    const long = `http://127.0.0.1/images/${"a".repeat(64)}.png`;
    const text = renderDiff(diffIntakes(manual(null), manual({ url: long, width: 8, height: 6 })), at(40), false);
    expect(lines(text)).toEqual([
      "image  normal image",
      "http://127.0.0.1/images/normal.png",
      "       (60×40)",
      "     → display image",
      long,
      "       (8×6)",
    ]);
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
