/**
 * Quantity rules (docs/api.md, the update operation): recognition-only intakes take a whole
 * number of grams; itemized intakes take a finite number of grams per item. Both lie between
 * MIN_QUANTITY_GRAMS and MAX_QUANTITY_GRAMS. The CLI and the sandbox check with these functions.
 */
import { MAX_QUANTITY_GRAMS, MIN_QUANTITY_GRAMS } from "../records/fields.js";

export type QuantityProblem = string | null;

function checkRange(value: number): QuantityProblem {
  if (value <= 0) return "must be more than 0 g";
  if (value < MIN_QUANTITY_GRAMS) return `must be at least ${MIN_QUANTITY_GRAMS} g`;
  if (value > MAX_QUANTITY_GRAMS) return `must be at most ${MAX_QUANTITY_GRAMS} g`;
  return null;
}

export function checkRecognitionQuantity(value: unknown): QuantityProblem {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
  if (value > 0 && !Number.isInteger(value)) return "must be a whole number of grams for a recognition-only intake";
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

/** What a text that is not plain grams should have been: "150g" → "150", "1,5" → "1.5". */
function gramsSuggestion(text: string): string | null {
  const withUnit = /^\s*(-?[0-9]+(?:[.,][0-9]+)?)\s*(?:g|gr|grams?)\s*$/i.exec(text);
  const number = (withUnit?.[1] ?? text.trim()).replace(",", ".");
  return parseGrams(number) !== null && number !== text ? number : null;
}

/** The value a quantity problem quotes: text in double quotes, a number as is. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

const SIGNED_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/**
 * The one message for a bad quantity, whether it came as a JSON value, a CSV cell or a
 * command-line argument (`where` is "quantity" or "quantity of position 1"):
 * `"150g" is not a number of grams: write 150`; zero and negative values "must be more than 0 g".
 */
export function quantityProblem(value: unknown, where: string, recognition: boolean): QuantityProblem {
  if (typeof value === "string") {
    if (SIGNED_NUMBER.test(value)) return `${where} must be a JSON number, not text: write ${value}`;
    const suggestion = gramsSuggestion(value);
    return `${where}: ${shown(value)} is not a number of grams${suggestion !== null ? `: write ${suggestion}` : ""}`;
  }
  if (typeof value !== "number") return `${where} must be a number of grams, got ${shown(value)}`;
  const problem = recognition ? checkRecognitionQuantity(value) : checkItemQuantity(value);
  return problem === null ? null : `${where} ${problem}, got ${shown(value)}`;
}

/** Grams written as text (a CSV cell, a command-line value) as the value the update's check judges: a number when it reads as one, else the text. */
export function gramsValue(text: string): number | string {
  return SIGNED_NUMBER.test(text) ? Number(text) : text;
}
