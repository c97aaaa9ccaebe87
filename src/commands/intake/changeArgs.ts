/** Command-line forms of an update, checked before anything is read or sent (exit 2). */
import { usageError } from "../../errors.js";
import { isLevel, LEVELS } from "../../intake/levels.js";
import type { ModifierLevels } from "../../intake/modifiers.js";
import { parsePositionKey } from "../../intake/positions.js";
import { readGramsText } from "../../intake/quantity.js";

function mixedPositions(key: string) {
  const hint = "an intake has one kind of position; see `foodctl intake show <image_id>`";
  return usageError(`positions mix segmentation (1, 2, …) and manual (manual1, …) forms: "${key}"`, { hint });
}

export type QuantityArgs = { form: "total"; grams: number } | { form: "items"; quantities: Record<string, number> };

/** `<grams>` (recognition-only total) or `<pos>=<grams>...` (itemized). */
export function parseQuantityArgs(values: string[]): QuantityArgs {
  if (values.length === 0) throw usageError("give a total (e.g. 320) or quantities per position (e.g. 1=150 2=80.5)");
  const withPosition = values.filter((value) => value.includes("="));
  if (withPosition.length === 0) {
    if (values.length > 1)
      throw usageError(`one total quantity expected, got ${values.length} values; per-item quantities are written <pos>=<grams>`);
    const text = values[0]!;
    const read = readGramsText(text, "quantity", true);
    if ("problem" in read) throw usageError(read.problem);
    return { form: "total", grams: read.grams };
  }
  if (withPosition.length !== values.length) {
    const total = values.find((value) => !value.includes("="));
    throw usageError(`mixes a total with per-item quantities: "${total}"`, { hint: "write every quantity as <pos>=<grams>" });
  }
  const quantities: Record<string, number> = {};
  const kinds = new Set<string>();
  for (const value of values) {
    const [key = "", gramsText = "", ...rest] = value.split("=");
    if (rest.length) throw usageError(`"${value}" has more than one "="`);
    if (key === "") throw usageError(`"${value}" has no position before "="`);
    const position = parsePositionKey(key);
    if (!position) throw usageError(`"${key}" is not a food item position (1, 2, … or manual1, manual2, …)`);
    if (gramsText === "") throw usageError(`"${value}" has no grams after "="`);
    if (Object.hasOwn(quantities, key)) throw usageError(`position ${key} is given twice`);
    kinds.add(position.kind);
    if (kinds.size > 1) throw mixedPositions(key);
    const read = readGramsText(gramsText, `quantity of position ${key}`, false);
    if ("problem" in read) throw usageError(read.problem);
    quantities[key] = read.grams;
  }
  return { form: "items", quantities };
}

export interface ModifierFlags {
  salt?: string | undefined;
  sugar?: string | undefined;
  oil?: string | undefined;
  measures?: string | undefined;
}

export function checkModifierFlags(flags: ModifierFlags): ModifierLevels {
  for (const name of ["salt", "sugar", "oil"] as const) {
    const value = flags[name];
    if (value !== undefined && !isLevel(value)) throw usageError(`--${name} must be one of ${LEVELS.join(", ")}, got "${value}"`);
  }
  if (flags.measures !== undefined && flags.measures.trim() === "") throw usageError("--measures needs a value (metric or imperial)");
  if ([flags.salt, flags.sugar, flags.oil, flags.measures].every((value) => value === undefined)) {
    throw usageError("nothing to change: give at least one of --salt, --sugar, --oil, --measures");
  }
  return { salt: flags.salt, sugar: flags.sugar, oil: flags.oil, measures: flags.measures };
}

export function checkPositionArgs(positions: string[]): string[] {
  const seen = new Set<string>();
  const kinds = new Set<string>();
  for (const position of positions) {
    const parsed = parsePositionKey(position);
    if (!parsed) throw usageError(`"${position}" is not a food item position (1, 2, … or manual1, manual2, …)`);
    if (seen.has(position)) throw usageError(`position ${position} is given twice`);
    kinds.add(parsed.kind);
    if (kinds.size > 1) throw mixedPositions(position);
    seen.add(position);
  }
  return positions;
}
