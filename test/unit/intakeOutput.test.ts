import { describe, expect, it } from "vitest";
import { IntakeSchema } from "../../src/records/intake.js";
import { readPeriodTotals } from "../../src/api/answers.js";
import { displayImageText, renderIntake, renderIntakeList, renderPeriodTotals } from "../../src/output/intake.js";

/** Times in UTC, a day after the intakes: "(1 d ago)". */
const UTC_CLOCK = { zone: null, now: Date.parse("2026-11-05T19:05:00Z") };

const manual = IntakeSchema.parse({
  image_id: 1003,
  timestamp: "2026-11-04T19:05:00Z",
  occasion: "dinner",
  user_comment: "Line one\nline\ttwo",
  has_display_image: true,
  can_edit_display_image: true,
  image_url: "http://127.0.0.1:8787/images/d.png",
  processed_image_size: { width: 80, height: 60 },
  foodName: ["Spaghetti", "Salad"],
  nutritional_info: { calories: 696.66, totalNutrients: { PROCNT: { quantity: 30.04 } } },
  recipe_per_item: [
    { food_item_position: "manual1", name: "Spaghetti", serving_size: 350, salt: "medium", sugar: "none", oil: "low", measures: "metric" },
    { food_item_position: "manual2", name: "Salad", serving_size: 120.25 },
  ],
  nutritional_info_per_item: [
    { food_item_position: "manual1", nutritional_info: { calories: 600 } },
    { food_item_position: "manual2", nutritional_info: { calories: 96.66 } },
  ],
});

const pipe = { write: () => true, isTTY: false };
const terminal = { write: () => true, isTTY: true, columns: 120 };

describe("renderIntake", () => {
  it("pipes key/value lines, then item and total rows, tab-separated", () => {
    const lines = renderIntake(manual, pipe, true, UTC_CLOCK).trimEnd().split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "image_id\t1003",
      "kind\tmanual",
      "time\t2026-11-04T19:05:00Z",
      "occasion\tdinner",
      "comment\tLine one line two",
      "display image\tattached: http://127.0.0.1:8787/images/d.png (80×60)",
    ]);
    expect(lines).toContain("item\tmanual1\tSpaghetti\t350\tmedium\tnone\tlow\tmetric\t600");
    expect(lines).toContain("item\tmanual2\tSalad\t120.3\t-\t-\t-\t-\t96.7");
    expect(lines).toContain("total\tenergy\t696.7\tkcal");
    expect(lines).toContain("total\tprotein\t30\tg");
    expect(lines).toContain("total\tfat\t-\tg");
    expect(lines.join("\n")).not.toContain("\u001b[");
  });

  it("draws a summary, an item table and totals on a terminal, coloured only when asked", () => {
    const plain = renderIntake(manual, terminal, false, UTC_CLOCK);
    expect(plain).toMatch(/^image_id\s+1003$/m);
    expect(plain).toMatch(/^manual1 {2,}Spaghetti {2,}350/m);
    expect(plain).toMatch(/^comment {8}Line one line two$/m);
    expect(plain).toMatch(/^totals {2}energy 696\.7 kcal · protein 30 g/m);
    expect(plain).not.toContain("\u001b[");
    expect(renderIntake(manual, terminal, true, UTC_CLOCK)).toContain("\u001b[1m");
  });
});

describe("at the terminal's width", () => {
  const long = IntakeSchema.parse({
    ...manual,
    image_url: `http://127.0.0.1:8787/images/${"a".repeat(64)}.png`,
    foodName: ["Scrambled eggs on toast", "Fresh fruit salad", "Pancakes with maple syrup"],
    recipe_per_item: [{ food_item_position: "manual1", name: "Scrambled eggs on toast with chives and butter", serving_size: 350 }],
  });
  const at = (columns: number) => ({ write: () => true, isTTY: true, columns });
  const widest = (text: string) =>
    Math.max(
      ...text
        .trimEnd()
        .split("\n")
        .map((line) => [...line].length),
    );

  it("at 80 columns intake show fits, long foods cut with …, the URL whole on a line of its own and never cut", () => {
    const show = renderIntake(long, at(80), false, UTC_CLOCK);
    expect(widest(show.replace(long.image_url!, ""))).toBeLessThanOrEqual(80);
    expect(show).toContain(`display image  attached:\n${long.image_url}\n               (80×60)\n`);
    expect(show).toMatch(/^manual1 {2,}Scrambled eggs on toast w\S*…/m);
  });

  it("a URL wider than the terminal is printed whole, alone on its line, for the terminal to wrap; words around it wrap under the key", () => {
    const url = `http://127.0.0.1:4247/images/${"b".repeat(90)}.png`;
    const wide = IntakeSchema.parse({ ...manual, image_url: url, has_display_image: false, user_comment: "word ".repeat(30).trim() });
    const lines = renderIntake(wide, at(80), false, UTC_CLOCK).split("\n");
    expect(lines).toContain(url);
    expect(lines.filter((line) => line !== url).every((line) => [...line].length <= 80)).toBe(true);
    const at50 = renderIntake(wide, at(50), false, UTC_CLOCK);
    expect(at50).toContain(`display image  none (can attach); image:\n${url}\n               (80×60)\n`);
    expect(at50).toMatch(/^comment {8}word word( word)+\n {15}word( word)+\n/m);
    expect(at50).not.toContain("…");
  });

  it("at 80 columns intake list moves the foods under each row, whole, wrapped between foods", () => {
    const list = renderIntakeList([long, manual], at(80), false);
    expect(widest(list)).toBeLessThanOrEqual(80);
    expect(list).not.toContain("…");
    expect(list.trimEnd().split("\n")).toEqual([
      "  id  time (UTC)        occasion  kind     kcal  display",
      "      foods",
      "─".repeat(56),
      "1003  2026-11-04 19:05  dinner    manual  696.7  yes",
      "      Scrambled eggs on toast, Fresh fruit salad, Pancakes with maple syrup",
      "1003  2026-11-04 19:05  dinner    manual  696.7  yes",
      "      Spaghetti, Salad",
    ]);
    // At 50 the row without its foods needs 56 columns with the time whole: one intake per block, the foods wrapped.
    const narrow = renderIntakeList([long], at(50), false).trimEnd().split("\n");
    expect(narrow.slice(4, 6)).toEqual([
      "foods       Scrambled eggs on toast, Fresh fruit",
      "            salad, Pancakes with maple syrup",
    ]);
  });

  /** alice's 1002 as the sandbox seeds it: three items, each row 65 columns wide with the food cut to 12. */
  const brunch = IntakeSchema.parse({
    ...manual,
    image_id: 1002,
    foodName: ["Scrambled eggs on toast", "Fresh fruit salad", "Pancakes with maple syrup"],
    recipe_per_item: [
      {
        food_item_position: "1",
        name: "Scrambled eggs on toast",
        serving_size: 180,
        salt: "medium",
        sugar: "none",
        oil: "low",
        measures: "metric",
      },
      {
        food_item_position: "2",
        name: "Fresh fruit salad",
        serving_size: 150,
        salt: "none",
        sugar: "none",
        oil: "none",
        measures: "metric",
      },
      {
        food_item_position: "3",
        name: "Pancakes with maple syrup",
        serving_size: 200,
        salt: "low",
        sugar: "low",
        oil: "low",
        measures: "metric",
      },
    ],
    nutritional_info_per_item: [
      { food_item_position: "1", nutritional_info: { calories: 402.4 } },
      { food_item_position: "2", nutritional_info: { calories: 100.6 } },
      { food_item_position: "3", nutritional_info: { calories: 530.2 } },
    ],
  });
  const linesOf = (text: string) => text.trimEnd().split("\n");

  it("at 60 and 40 columns intake show's items come one per block, nothing cut, no line past the width", () => {
    for (const columns of [60, 40]) {
      const show = renderIntake(brunch, at(columns), false, UTC_CLOCK);
      expect(widest(show.replace(brunch.image_url!, ""))).toBeLessThanOrEqual(columns);
      expect(show).not.toContain("…");
      expect(show).toContain(
        [
          "position  1",
          "food      Scrambled eggs on toast",
          "grams     180",
          "salt      medium",
          "sugar     none",
          "oil       low",
          "measures  metric",
          "kcal      402.4",
          "",
        ].join("\n"),
      );
      expect(show).toMatch(/kcal {6}530\.2\n\ntotals {2}energy/);
    }
    // Where the table fits, it stays a table.
    expect(renderIntake(brunch, at(80), false, UTC_CLOCK)).toMatch(/^position {2}food {2,}grams/m);
  });

  it("at 60 columns intake list cuts a text column before the time, and at 40 shows one intake per block", () => {
    const at60 = linesOf(renderIntakeList([brunch], at(60), false));
    expect(widest(at60.join("\n"))).toBeLessThanOrEqual(60);
    expect(at60[3]).toMatch(/^1002 {2}2026-11-04 19:05 {2}/);
    expect(at60.slice(4)).toEqual(["      Scrambled eggs on toast, Fresh fruit salad", "      Pancakes with maple syrup"]);
    const at40 = renderIntakeList([brunch, manual], at(40), false);
    expect(widest(at40)).toBeLessThanOrEqual(40);
    expect(at40).not.toContain("…");
    expect(linesOf(at40).slice(0, 9)).toEqual([
      "id          1002",
      "time (UTC)  2026-11-04 19:05",
      "occasion    dinner",
      "kind        segmentation",
      "foods       Scrambled eggs on toast,",
      "            Fresh fruit salad, Pancakes",
      "            with maple syrup",
      "kcal        696.7",
      "display     yes",
    ]);
    expect(linesOf(at40)[10]).toBe("id          1003");
  });

  it("a food with a terminal control in its name is cleaned on the foods line too", () => {
    const hostile = IntakeSchema.parse({ ...manual, foodName: ["Soup\u001b[31m red"] });
    const list = renderIntakeList([hostile, long], at(80), false);
    expect(list).not.toContain("\u001b");
    expect(list).toContain("      Soup\ufffd[31m red\n");
  });

  it("at 200 columns everything is whole, and on a stream without a width (--wide) too", () => {
    for (const stream of [at(200), { write: () => true, isTTY: true }]) {
      const list = renderIntakeList([long], stream, false);
      expect(list).toContain("Scrambled eggs on toast, Fresh fruit salad, Pancakes with maple syrup");
      expect(list).not.toContain("…");
    }
    expect(renderIntake(long, { write: () => true, isTTY: true }, false, UTC_CLOCK)).toContain(`${"a".repeat(64)}.png (80×60)`);
  });
});

describe("displayImageText", () => {
  it("says whether a display image can be attached", () => {
    expect(displayImageText(IntakeSchema.parse({ image_id: 1, can_edit_display_image: true, image_url: "u" }))).toBe(
      "none (can attach); image: u",
    );
    expect(displayImageText(IntakeSchema.parse({ image_id: 1, can_edit_display_image: false }))).toBe(
      "not editable (not a manual intake); image: -",
    );
  });
});

describe("renderIntakeList", () => {
  it("pipes one row per intake: id, time, occasion, kind, foods, kcal, display image", () => {
    expect(renderIntakeList([manual], pipe, false)).toBe("1003\t2026-11-04T19:05:00Z\tdinner\tmanual\tSpaghetti, Salad\t696.7\tyes\n");
  });
});

describe("the history list's period totals", () => {
  it("reads total_intake when it is an object of numbers, and gives nothing for an answer without it or with an unreadable one", () => {
    const totals = { calories: 3014.1, carbohydrates: 361.6, fat: 122.6, protein: 119.3 };
    expect(readPeriodTotals({ intakes_list: [], total_intake: totals })).toEqual(totals);
    expect(readPeriodTotals({ intakes_list: [] })).toBeNull();
    expect(readPeriodTotals({ intakes_list: [], total_intake: null })).toBeNull();
    expect(readPeriodTotals({ intakes_list: [], total_intake: "3014 kcal" })).toBeNull();
    expect(readPeriodTotals({ intakes_list: [], total_intake: { calories: "3014" } })).toBeNull();
  });

  it("prints the nutrients the answer gives, in order, wrapped at the terminal's width, and nothing when it gives none", () => {
    const all = { calories: 3014.1, carbohydrates: 361.6, fat: 122.6, protein: 119.3 };
    expect(renderPeriodTotals(all, terminal, false)).toBe("totals  calories 3014.1 kcal · carbs 361.6 g · fat 122.6 g · protein 119.3 g\n");
    expect(renderPeriodTotals({ calories: 500, protein: null }, terminal, false)).toBe("totals  calories 500 kcal\n");
    expect(renderPeriodTotals({}, terminal, false)).toBe("");
    const narrow = renderPeriodTotals(all, { ...terminal, columns: 50 }, false)
      .trimEnd()
      .split("\n");
    expect(narrow).toEqual(["totals  calories 3014.1 kcal · carbs 361.6 g", "        fat 122.6 g · protein 119.3 g"]);
  });
});
