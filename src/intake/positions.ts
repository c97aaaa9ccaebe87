/**
 * Food item positions: integers 1, 2, 3 … for segmentation intakes, "manual1", "manual2" …
 * for manual intakes. In request bodies both are object keys ("1", "manual2").
 */
export type Position = number | string;

/** A position key of each form (the update payload's schema keys its objects with these). */
export const SEGMENT_KEY = /^[1-9][0-9]{0,8}$/;
export const MANUAL_KEY = /^manual[1-9][0-9]{0,8}$/;

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
