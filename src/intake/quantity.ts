/**
 * Quantity rules (docs/api.md, the update operation): recognition-only intakes take a whole
 * number of grams; itemized intakes take a finite number of grams per item. Both lie between
 * MIN_QUANTITY_GRAMS and MAX_QUANTITY_GRAMS. The CLI and the sandbox check with these functions.
 */
export const MAX_QUANTITY_GRAMS = 100_000;
/** The smallest quantity either side accepts: 0.1 g (5e-324 is a number, not a portion). */
export const MIN_QUANTITY_GRAMS = 0.1;

export type QuantityProblem = string | null;

function checkRange(value: number): QuantityProblem {
  if (value <= 0) return "must be positive";
  if (value < MIN_QUANTITY_GRAMS) return `must be at least ${MIN_QUANTITY_GRAMS} g`;
  if (value > MAX_QUANTITY_GRAMS) return `must be at most ${MAX_QUANTITY_GRAMS} g`;
  return null;
}

export function checkRecognitionQuantity(value: unknown): QuantityProblem {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
  if (!Number.isInteger(value)) return "must be a whole number of grams for a recognition-only intake";
  return checkRange(value);
}

export function checkItemQuantity(value: unknown): QuantityProblem {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a finite number";
  return checkRange(value);
}

/** Parses a grams argument from the command line strictly: plain decimal notation only. */
export function parseGrams(text: string): number | null {
  if (!/^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
