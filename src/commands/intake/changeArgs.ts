/** Command-line forms of an update, checked before anything is read or sent (exit 2). */
import { usageError } from "../../errors.js";
import { didYouMean } from "../../intake/closest.js";
import { isLevel, isMeasure } from "../../intake/levels.js";
import { MEASURES } from "../../records/fields.js";
import type { ModifierLevels } from "../../intake/modifiers.js";
import { parsePositionKey } from "../../intake/positions.js";
import { gramsValue } from "../../intake/quantity.js";
import { levelProblem } from "../../intake/update.js";

/** Positions as given, each once: what they name and whether the intake has them is the update's check (checkUpdateFields). */
export function uniquePositions(keys: readonly string[]): string[] {
  const twice = keys.find((key, index) => keys.indexOf(key) !== index);
  if (twice !== undefined) throw usageError(`position ${twice} is given twice`);
  return [...keys];
}

/** `<grams>` (recognition-only total) or `<pos>=<grams>...` (itemized), read into the update's quantity: text to values only. */
export function parseQuantityArgs(values: string[]): { quantity: unknown } {
  if (values.length === 0) throw usageError("give a total (e.g. 320) or quantities per position (e.g. 1=150 2=80.5)");
  const withPosition = values.filter((value) => value.includes("="));
  if (withPosition.length === 0) {
    if (values.length > 1)
      throw usageError(`one total quantity expected, got ${values.length} values; per-item quantities are written <pos>=<grams>`);
    return { quantity: gramsValue(values[0]!) };
  }
  if (withPosition.length !== values.length) {
    const total = values.find((value) => !value.includes("="));
    throw usageError(`mixes a total with per-item quantities: "${total}"`, { hint: "write every quantity as <pos>=<grams>" });
  }
  const pairs = values.map((value) => {
    const [key = "", gramsText = "", ...rest] = value.split("=");
    if (rest.length) throw usageError(`"${value}" has more than one "="`);
    if (key === "") throw usageError(`"${value}" has no position before "="`);
    if (gramsText === "" && parsePositionKey(key)) throw usageError(`"${value}" has no grams after "="`);
    return [key, gramsValue(gramsText)] as const;
  });
  uniquePositions(pairs.map(([key]) => key));
  // fromEntries defines each key as its own, "__proto__" too, so the check sees every one.
  return { quantity: Object.fromEntries(pairs) };
}

export type ModifierFlags = Partial<ModifierLevels>;

export function checkModifierFlags(flags: ModifierFlags): ModifierLevels {
  for (const name of ["salt", "sugar", "oil"] as const) {
    const value = flags[name];
    if (value === undefined || isLevel(value)) continue;
    const { message, suggestion } = levelProblem(`--${name}`, value);
    throw usageError(message, { hint: suggestion });
  }
  if (flags.measures !== undefined && flags.measures.trim() === "") throw usageError("--measures needs a value (metric or imperial)");
  // Other systems pass through for the server to judge; only a near miss of a known one is surely a typo.
  const measure = flags.measures === undefined || isMeasure(flags.measures) ? undefined : didYouMean(flags.measures, MEASURES);
  if (measure !== undefined) {
    throw usageError(`--measures "${flags.measures}" is not ${MEASURES.join(" or ")}`, { hint: measure });
  }
  if ([flags.salt, flags.sugar, flags.oil, flags.measures].every((value) => value === undefined)) {
    throw usageError("nothing to change: give at least one of --salt, --sugar, --oil, --measures");
  }
  return { salt: flags.salt, sugar: flags.sugar, oil: flags.oil, measures: flags.measures };
}
