/** The update body for salt, sugar, oil and measures on one intake: pure, returns problems. */
import { isItemized, readIntakeKind, type KindEvidence } from "./kinds.js";

export interface ModifierLevels {
  salt: string | undefined;
  sugar: string | undefined;
  oil: string | undefined;
  measures: string | undefined;
}

/** What keeps the levels from being sent, and what to do about it. */
export interface ModifierProblem {
  field: string;
  message: string;
  hint: string;
}

const ITEM_FIELDS = ["salt", "sugar", "oil", "measures"] as const;

export type ModifierFields = { fields: Record<string, unknown>; problem: null } | { fields: null; problem: ModifierProblem };

const refuse = (field: string, message: string, hint: string): ModifierFields => ({ fields: null, problem: { field, message, hint } });

/**
 * What the arguments alone rule out, before the intake is read. Oil and measures exist only per
 * item (docs/api.md, the update body): without positions or --all-items no intake can take them.
 * `retry` is the command line that works on an itemized intake (the same change with --all-items).
 */
export function modifierArgumentProblem(
  positions: readonly string[],
  allItems: boolean,
  levels: ModifierLevels,
  retry: string,
): ModifierProblem | null {
  if (allItems && positions.length)
    return { field: "positions", message: "give positions or --all-items, not both", hint: "nothing was sent" };
  const itemOnly = (["oil", "measures"] as const).filter((name) => levels[name] !== undefined);
  if (!allItems && !positions.length && itemOnly.length) {
    const flags = itemOnly.map((name) => `--${name}`).join(" and ");
    return {
      field: itemOnly[0]!,
      message: `${flags} ${itemOnly.length > 1 ? "apply" : "applies"} per item: name the positions or use --all-items`,
      hint: `nothing was sent; every item: ${retry} (a recognition-only intake has no ${itemOnly.join(" or ")}: drop ${flags})`,
    };
  }
  return null;
}

/**
 * The body fields for these levels on this intake: a recognition-only intake takes salt and
 * sugar for the whole intake; an itemized one takes every field per position.
 */
export function buildModifierFields(
  intake: KindEvidence & { image_id: number },
  itemPositions: readonly string[],
  levels: ModifierLevels,
  positions: readonly string[],
  allItems: boolean,
): ModifierFields {
  const kind = readIntakeKind(intake);
  if (kind === "unknown" && (allItems || !positions.length)) {
    const message = `intake ${intake.image_id} does not tell its kind yet (no recipe, no per-item nutrition): whole-intake levels are not guessed`;
    return refuse("positions", message, "name the positions to change (e.g. `1 --salt low`); nothing was sent");
  }
  if (kind !== "unknown" && !isItemized(kind)) {
    const id = intake.image_id;
    if (positions.length)
      return refuse(
        "positions",
        `intake ${id} is recognition-only: it has no item positions`,
        "drop the positions; salt and sugar apply to the whole intake",
      );
    const itemOnly = (["oil", "measures"] as const).find((name) => levels[name] !== undefined);
    if (itemOnly)
      return refuse(
        itemOnly,
        `intake ${id} is recognition-only: --${itemOnly} applies only to itemized intakes`,
        `drop --${itemOnly}: a recognition-only intake takes --salt and --sugar for the whole intake; nothing was sent`,
      );
    const fields: Record<string, unknown> = {};
    if (levels.salt !== undefined) fields.salt = levels.salt;
    if (levels.sugar !== undefined) fields.sugar = levels.sugar;
    return { fields, problem: null };
  }
  if (!positions.length && !allItems) {
    const list = itemPositions.join(", ");
    return refuse(
      "positions",
      `intake ${intake.image_id} is itemized: name the positions (${list}) or use --all-items`,
      "nothing was sent",
    );
  }
  return { fields: itemModifierFields(levels, allItems ? itemPositions : positions), problem: null };
}

/** The levels for each of these positions of an itemized intake. */
export function itemModifierFields(levels: ModifierLevels, positions: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ITEM_FIELDS) {
    const level = levels[name];
    if (level !== undefined) fields[name] = Object.fromEntries(positions.map((position) => [position, level]));
  }
  return fields;
}
