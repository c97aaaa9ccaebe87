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

/** The body key of a position as it appears in an intake record. */
export function positionKey(position: Position): string {
  return String(position);
}
