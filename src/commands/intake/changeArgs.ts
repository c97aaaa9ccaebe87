/** Command-line forms of an update, checked before anything is read or sent (exit 2). */
import { usageError } from "../../errors.js";
import { isLevel, isMeasure } from "../../intake/levels.js";
import type { ModifierLevels } from "../../intake/modifiers.js";
import { parsePositionKey } from "../../intake/positions.js";
import { readGramsText } from "../../intake/quantity.js";
import { LEVELS, MEASURES } from "../../records/fields.js";

/** Checks each position as it comes: a food item position, not given before, of the same kind as the ones before it. */
function positionChecker(imageId: number): (key: string) => void {
  const seen = new Set<string>();
  const kinds = new Set<string>();
  return (key) => {
    const position = parsePositionKey(key);
    if (!position) throw usageError(`"${key}" is not a food item position (1, 2, … or manual1, manual2, …)`);
    if (seen.has(key)) throw usageError(`position ${key} is given twice`);
    seen.add(key);
    kinds.add(position.kind);
    if (kinds.size > 1) {
      const hint = `an intake has one kind of position; see them with \`foodctl intake show ${imageId}\``;
      throw usageError(`positions mix segmentation (1, 2, …) and manual (manual1, …) forms: "${key}"`, { hint });
    }
  };
}

export type QuantityArgs = { form: "total"; grams: number } | { form: "items"; quantities: Record<string, number> };

/** `<grams>` (recognition-only total) or `<pos>=<grams>...` (itemized). */
export function parseQuantityArgs(values: string[], imageId: number): QuantityArgs {
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
  const checkPosition = positionChecker(imageId);
  for (const value of values) {
    const [key = "", gramsText = "", ...rest] = value.split("=");
    if (rest.length) throw usageError(`"${value}" has more than one "="`);
    if (key === "") throw usageError(`"${value}" has no position before "="`);
    if (gramsText === "" && parsePositionKey(key)) throw usageError(`"${value}" has no grams after "="`);
    checkPosition(key);
    const read = readGramsText(gramsText, `quantity of position ${key}`, false);
    if ("problem" in read) throw usageError(read.problem);
    quantities[key] = read.grams;
  }
  return { form: "items", quantities };
}

export type ModifierFlags = Partial<ModifierLevels>;

/** Edits (insert, delete, replace, swap two neighbours) that turn one text into the other. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The one known value a mistyped one most likely meant: another case, a prefix (`lo`), or at most two edits away. */
export function closestValue(typed: string, known: readonly string[]): string | undefined {
  const text = typed.trim().toLowerCase();
  if (text === "") return undefined;
  const prefixed = known.filter((value) => value.startsWith(text));
  if (prefixed.length === 1) return prefixed[0];
  const distances = known.map((value) => ({ value, distance: editDistance(text, value) }));
  const nearest = Math.min(...distances.map((entry) => entry.distance));
  const best = distances.filter((entry) => entry.distance === nearest);
  return nearest <= 2 && best.length === 1 ? best[0]!.value : undefined;
}

const didYouMean = (typed: string, known: readonly string[]) => {
  const suggestion = closestValue(typed, known);
  return suggestion === undefined ? undefined : `did you mean ${suggestion}?`;
};

export function checkModifierFlags(flags: ModifierFlags): ModifierLevels {
  for (const name of ["salt", "sugar", "oil"] as const) {
    const value = flags[name];
    if (value !== undefined && !isLevel(value))
      throw usageError(`--${name} must be one of ${LEVELS.join(", ")}, got "${value}"`, { hint: didYouMean(value, LEVELS) });
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

export function checkPositionArgs(positions: string[], imageId: number): string[] {
  positions.forEach(positionChecker(imageId));
  return positions;
}
