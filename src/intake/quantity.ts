/**
 * Quantity rules (interface §2, api-contract §4): recognition-only intakes take a positive
 * integer total; itemized intakes take a positive finite number of grams per item.
 */
export const MAX_QUANTITY_GRAMS = 100_000;

export type QuantityProblem = string | null;

export function checkRecognitionQuantity(value: unknown): QuantityProblem {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
  if (!Number.isInteger(value)) return "must be a whole number of grams for a recognition-only intake";
  if (value <= 0) return "must be positive";
  if (value > MAX_QUANTITY_GRAMS) return `must be at most ${MAX_QUANTITY_GRAMS} g`;
  return null;
}

export function checkItemQuantity(value: unknown): QuantityProblem {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a finite number";
  if (value <= 0) return "must be positive";
  if (value > MAX_QUANTITY_GRAMS) return `must be at most ${MAX_QUANTITY_GRAMS} g`;
  return null;
}

/** Parses a grams argument from the command line strictly: plain decimal notation only. */
export function parseGrams(text: string): number | null {
  if (!/^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
