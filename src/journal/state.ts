/**
 * The part of an intake a change can touch, as the journal keeps it: per position grams, salt,
 * sugar, oil and measures, and the display image. Pure: no I/O.
 */
import type { Intake } from "../records/intake.js";
import type { IntakeState } from "../records/journal.js";
import { readItems } from "../intake/items.js";
import { readIntakeKind } from "../intake/kinds.js";

export type { IntakeState } from "../records/journal.js";
export type PositionState = IntakeState["items"][number];

export const STATE_FIELDS = ["grams", "salt", "sugar", "oil", "measures"] as const;
export type StateField = (typeof STATE_FIELDS)[number];

/** The update's fields (its body) by the state field each sets. */
export const UPDATE_TO_STATE: Record<string, StateField> = {
  quantity: "grams",
  salt: "salt",
  sugar: "sugar",
  oil: "oil",
  measures: "measures",
};

export function intakeState(intake: Intake): IntakeState {
  const items = readItems(intake).map(({ position, grams, salt, sugar, oil, measures }) => ({
    position,
    grams,
    salt,
    sugar,
    oil,
    measures,
  }));
  return {
    kind: readIntakeKind(intake),
    items,
    display_image: { attached: intake.has_display_image === true, url: intake.image_url ?? null },
  };
}

export const sameValue = (a: unknown, b: unknown) => (typeof a === "number" && typeof b === "number" ? Math.abs(a - b) < 0.05 : a === b);
export const show = (value: unknown) => (value === null || value === undefined ? "-" : String(value));

export interface StateDifference {
  position: string | null;
  field: StateField | "display image" | "position";
  was: string;
  now: string;
}

/**
 * Where `now` differs from `was`, field by field. `ignoreImageUrl`: a re-attached copy gets a
 * new URL from the server, so after an undo only whether an image is attached can be compared.
 */
export function stateDifferences(was: IntakeState, now: IntakeState, options: { ignoreImageUrl?: boolean } = {}): StateDifference[] {
  const differences: StateDifference[] = [];
  const nowItems = new Map(now.items.map((item) => [item.position, item]));
  for (const item of was.items) {
    const current = nowItems.get(item.position);
    if (!current) {
      differences.push({ position: item.position, field: "position", was: "present", now: "gone" });
      continue;
    }
    for (const field of STATE_FIELDS) {
      if (!sameValue(item[field], current[field]))
        differences.push({ position: item.position, field, was: show(item[field]), now: show(current[field]) });
    }
  }
  const image = (state: IntakeState) =>
    state.display_image.attached ? `attached${options.ignoreImageUrl ? "" : ` ${show(state.display_image.url)}`}` : "none";
  if (image(was) !== image(now)) differences.push({ position: null, field: "display image", was: image(was), now: image(now) });
  return differences;
}
