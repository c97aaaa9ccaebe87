import { describe, expect, it } from "vitest";
import type { Intake } from "../../src/records/intake.js";
import { buildRestoreFields, buildSmokeChange, describeState, stateDifference } from "../../src/intake/editable.js";
import { readItems } from "../../src/intake/items.js";
import { xmlEscape } from "../../src/output/smoke.js";
import { manualIntake, segmentationIntake } from "../faults/fixtures.js";

const recognition = (grams: number): Intake => ({
  image_id: 1001,
  serving_size: grams,
  salt: "low",
  sugar: "none",
  foodName: ["pizza"],
  nutritional_info: { calories: 700 },
});

describe("the editable state of an intake", () => {
  it("the smoke change puts one gram on the first item of an itemized intake", () => {
    const change = buildSmokeChange(manualIntake() as Intake)!;
    expect(change.fields).toEqual({ quantity: { manual1: 251 } });
    expect(change.position).toBe("manual1");
    expect(stateDifference(change.expected, readItems(manualIntake() as Intake))).toBe("position manual1: 251 g instead of 250 g");
  });

  it("the smoke change takes a recognition-only total to the next whole gram", () => {
    expect(buildSmokeChange(recognition(320))).toMatchObject({
      fields: { quantity: 321 },
      position: null,
      grams: { before: 320, after: 321 },
    });
    expect(buildSmokeChange(recognition(320.4))?.fields).toEqual({ quantity: 321 });
  });

  it("restore fields carry every quantity and level of the original, absolute", () => {
    expect(buildRestoreFields(recognition(320))).toEqual({ quantity: 320, salt: "low", sugar: "none" });
    expect(buildRestoreFields(segmentationIntake(1002, [200, 120]) as Intake)).toEqual({
      quantity: { "1": 200, "2": 120 },
      salt: { "1": "medium", "2": "medium" },
      sugar: { "1": "none", "2": "none" },
      oil: { "1": "low", "2": "low" },
      measures: { "1": "metric", "2": "metric" },
    });
  });

  it("a level that differs is named with its field", () => {
    const changed = segmentationIntake(1002) as Intake;
    changed.recipe_per_item![1]!.salt = "high";
    expect(stateDifference(readItems(changed), readItems(segmentationIntake(1002) as Intake))).toBe(
      "position 2: salt high instead of medium",
    );
  });

  it("describes each item on one line for a person to restore by hand", () => {
    expect(describeState(readItems(recognition(320)))).toEqual(["total  pizza  320 g  salt low  sugar none"]);
  });
});

describe("xmlEscape", () => {
  it("escapes XML's five special characters and replaces what XML 1.0 cannot hold", () => {
    expect(xmlEscape(`<a href="x">&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
    expect(xmlEscape("bell\u0007 esc\u001b tab\t nl\n \ud800 ok \ud83d\ude00")).toBe(
      "bell\ufffd esc\ufffd tab\t nl\n \ufffd ok \ud83d\ude00",
    );
  });
});
