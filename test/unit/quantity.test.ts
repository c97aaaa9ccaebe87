import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkUpdateFields } from "../../src/change/intakeUpdate.js";
import { parseQuantityArgs } from "../../src/commands/intake/changeArgs.js";
import { checkItemQuantity, checkRecognitionQuantity, parseGrams } from "../../src/intake/quantity.js";
import { MAX_QUANTITY_GRAMS, MIN_QUANTITY_GRAMS } from "../../src/records/fields.js";

describe("checkRecognitionQuantity", () => {
  it.each([1, 320, MAX_QUANTITY_GRAMS])("accepts %d", (value) => {
    expect(checkRecognitionQuantity(value)).toBeNull();
  });

  it.each([
    [0, "must be more than 0 g"],
    [-5, "must be more than 0 g"],
    [80.5, "whole number"],
    [Number.NaN, "number"],
    [Number.POSITIVE_INFINITY, "number"],
    ["320", "number"],
    [{ "1": 150 }, "number"],
    [null, "number"],
    [MAX_QUANTITY_GRAMS + 1, "at most"],
  ])("refuses %j (%s)", (value, why) => {
    expect(checkRecognitionQuantity(value)).toContain(why);
  });
});

describe("checkItemQuantity", () => {
  it.each([1, 0.5, 80.5, 150, MAX_QUANTITY_GRAMS])("accepts %d", (value) => {
    expect(checkItemQuantity(value)).toBeNull();
  });

  it.each([0, -1, -0.5, Number.NaN, Number.NEGATIVE_INFINITY, "80", true, null, MAX_QUANTITY_GRAMS + 0.5])("refuses %j", (value) => {
    expect(checkItemQuantity(value)).not.toBeNull();
  });
});

describe("the minimum quantity (issue 15: 5e-324 g was accepted and stored)", () => {
  it("is 0.1 g, for the CLI and the sandbox alike", () => {
    expect(MIN_QUANTITY_GRAMS).toBe(0.1);
    expect(checkItemQuantity(0.1)).toBeNull();
    for (const value of [5e-324, Number.MIN_VALUE, 0.0999]) expect(checkItemQuantity(value)).toBe("must be at least 0.1 g");
  });

  it("the CLI refuses 1=0.05 with the same rule before sending anything", () => {
    expect(() => checkUpdateFields(1002, parseQuantityArgs(["1=0.05"]))).toThrow("quantity of position 1 must be at least 0.1 g");
    expect(checkUpdateFields(1002, parseQuantityArgs(["1=0.1"]))).toBe("itemized");
  });
});

describe("parseGrams", () => {
  it.each([
    ["150", 150],
    ["80.5", 80.5],
    ["0.25", 0.25],
    ["0", 0],
  ])("reads %s as %d", (text, value) => {
    expect(parseGrams(text)).toBe(value);
  });

  it.each(["", " 150", "150 ", "+150", "-5", "1e3", "0x10", "1,5", "1.", ".5", "01", "Infinity", "NaN", "150g", "1_000"])(
    "refuses %j",
    (text) => {
      expect(parseGrams(text)).toBeNull();
    },
  );

  it("reads back every plain decimal it is given", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const text = cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, "0")}`;
        expect(parseGrams(text)).toBe(Number(text));
      }),
    );
  });
});
