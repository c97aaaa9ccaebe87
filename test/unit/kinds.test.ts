import { describe, expect, it } from "vitest";
import { isItemized, readIntakeKind } from "../../src/intake/kinds.js";
import { intakePositions } from "../../src/intake/items.js";
import { parsePositionKey, positionKey } from "../../src/intake/positions.js";
import { IntakeSchema } from "../../src/records/intake.js";

const recipe = (position: number | string) => ({ food_item_position: position, name: `food ${position}`, serving_size: 100, recipe: [] });
const nutrition = (position: number | string) => ({ food_item_position: position, serving_size: 100, hasNutritionalInfo: true });

describe("readIntakeKind", () => {
  it("not confirmed: a record without items, recipe, levels or an editable display image does not tell its kind", () => {
    expect(readIntakeKind({})).toBe("unknown");
    expect(
      readIntakeKind({ recipe_per_item: null, nutritional_info_per_item: null, can_edit_display_image: false, foodName: ["Pasta"] }),
    ).toBe("unknown");
    expect(readIntakeKind({ recipe_per_item: [], nutritional_info_per_item: [] })).toBe("unknown");
  });

  it("reads a whole-intake recipe, salt or sugar as recognition-only", () => {
    expect(readIntakeKind({ recipe: [{ name: "pasta", weight: 300, unit: "g" }] })).toBe("recognition");
    expect(readIntakeKind({ salt: "low", recipe_per_item: null })).toBe("recognition");
    expect(readIntakeKind({ sugar: "none" })).toBe("recognition");
  });

  it("reads an editable display image without items as manual, several foods without items as segmentation", () => {
    expect(readIntakeKind({ can_edit_display_image: true })).toBe("manual");
    expect(readIntakeKind({ foodName: ["rice", "curry"], can_edit_display_image: false })).toBe("segmentation");
  });

  it("positions with gaps (1 and 3 only) are segmentation", () => {
    expect(readIntakeKind({ recipe_per_item: [recipe(1), recipe(3)] })).toBe("segmentation");
    expect(intakePositions(IntakeSchema.parse({ image_id: 1, recipe_per_item: [recipe(1), recipe(3)] }))).toEqual(["1", "3"]);
  });

  it("reads integer positions as segmentation", () => {
    expect(readIntakeKind({ recipe_per_item: [recipe(1), recipe(2), recipe(3)] })).toBe("segmentation");
  });

  it("reads manualN positions as manual", () => {
    expect(readIntakeKind({ recipe_per_item: [recipe("manual1"), recipe("manual2")] })).toBe("manual");
  });

  it("reads a manual intake stored as APIImage (one manual item, display image editable) as manual", () => {
    // Favourites, custom recipes and barcode products are stored as APIImage but keep manualN positions.
    const apiImage = IntakeSchema.parse({
      image_id: 1004,
      can_edit_display_image: true,
      has_display_image: false,
      foodName: ["Barcode bar"],
      recipe_per_item: [recipe("manual1")],
      nutritional_info_per_item: [nutrition("manual1")],
    });
    expect(readIntakeKind(apiImage)).toBe("manual");
  });

  it("falls back to nutritional_info_per_item when a server omits recipe_per_item", () => {
    expect(readIntakeKind({ nutritional_info_per_item: [nutrition("manual1")] })).toBe("manual");
    expect(readIntakeKind({ nutritional_info_per_item: [nutrition(1)] })).toBe("segmentation");
  });

  it("reads integer positions sent as strings as segmentation", () => {
    expect(readIntakeKind({ recipe_per_item: [recipe("1"), recipe("2")] })).toBe("segmentation");
  });

  it("says which kinds are itemized", () => {
    expect(isItemized("recognition")).toBe(false);
    expect(isItemized("segmentation")).toBe(true);
    expect(isItemized("manual")).toBe(true);
  });
});

describe("positions", () => {
  it.each([
    ["1", "segmentation"],
    ["12", "segmentation"],
    ["manual1", "manual"],
    ["manual10", "manual"],
  ])("accepts %s as a %s position", (key, kind) => {
    expect(parsePositionKey(key)).toEqual({ key, kind });
  });

  it.each(["0", "01", "-1", "1.5", "", " 1", "manual", "manual0", "manual01", "Manual1", "manual1 ", "m1", "1e2", "9999999999"])(
    "refuses %j as a position",
    (key) => {
      expect(parsePositionKey(key)).toBeNull();
    },
  );

  it("turns record positions into body keys", () => {
    expect(positionKey(2)).toBe("2");
    expect(positionKey("manual2")).toBe("manual2");
  });

  it("lists an intake's positions in record order", () => {
    const intake = IntakeSchema.parse({ image_id: 1, recipe_per_item: [recipe(3), recipe(1)] });
    expect(intakePositions(intake)).toEqual(["3", "1"]);
    expect(intakePositions(IntakeSchema.parse({ image_id: 1 }))).toEqual([]);
  });
});
