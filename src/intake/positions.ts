import { MANUAL_KEY, SEGMENT_KEY } from "../records/fields.js";

/**
 * Food item positions: integers 1, 2, 3 … for segmentation intakes, "manual1", "manual2" …
 * for manual intakes. In request bodies both are object keys ("1", "manual2").
 */
export type Position = number | string;

export type PositionKind = "segmentation" | "manual";

/** Reads a position key as written in a request body or on the command line; null if malformed. */
export function parsePositionKey(key: string): { key: string; kind: PositionKind } | null {
  if (SEGMENT_KEY.test(key)) return { key, kind: "segmentation" };
  if (MANUAL_KEY.test(key)) return { key, kind: "manual" };
  return null;
}

/** The one wording of a key that is not a position, whichever form it came in (an argument, a JSON key, a CSV cell). */
export const notAPosition = (key: string) => `"${key}" is not a food item position (1, 2, … or manual1, manual2, …)`;
/** The one wording of an update whose positions are of both forms; the hint says why that cannot be. */
export const MIXED_POSITIONS = {
  message: (key: string) => `positions mix segmentation (1, 2, …) and manual (manual1, …) forms: "${key}"`,
  hint: "an intake has one kind of position",
};

/** The body key of a position as it appears in an intake record. */
export function positionKey(position: Position): string {
  return String(position);
}
