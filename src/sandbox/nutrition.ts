import type { Level, Modifier } from "../records/fields.js";
/**
 * The sandbox's nutrition model (docs/api.md, the sandbox's nutrition model): an item is a set of base
 * components with fixed shares plus modifier components (salt, sugar, oil) whose weight is a
 * share of the serving size; nutrition is the sum of weight × per-100 g values. Pure.
 */

/**
 * The codes, labels and units of `totalNutrients`, as the public service writes them (docs/api.md,
 * nutrition): its reference pages give "Saturated fats", "Added sugars", "Trans fat" and "µg".
 */
export const NUTRIENTS = {
  ENERC_KCAL: { label: "Energy", unit: "kcal" },
  PROCNT: { label: "Protein", unit: "g" },
  FAT: { label: "Fat", unit: "g" },
  CHOCDF: { label: "Carbs", unit: "g" },
  SUGAR: { label: "Sugars", unit: "g" },
  NA: { label: "Sodium", unit: "mg" },
  FIBTG: { label: "Fiber", unit: "g" },
  FASAT: { label: "Saturated fats", unit: "g" },
  FAMS: { label: "Monounsaturated fats", unit: "g" },
  FAPU: { label: "Polyunsaturated fats", unit: "g" },
  CHOLE: { label: "Cholesterol", unit: "mg" },
  "SUGAR.added": { label: "Added sugars", unit: "g" },
  K: { label: "Potassium", unit: "mg" },
  CA: { label: "Calcium", unit: "mg" },
  FE: { label: "Iron", unit: "mg" },
  VITC: { label: "Vitamin C", unit: "mg" },
  FATRN: { label: "Trans fat", unit: "g" },
  VITD: { label: "Vitamin D", unit: "µg" },
} as const;
export type NutrientCode = keyof typeof NUTRIENTS;
export const NUTRIENT_CODES = Object.keys(NUTRIENTS) as NutrientCode[];
export type NutrientValues = Record<NutrientCode, number>;

/** Share of the serving size taken by a modifier component at each level. */
export const MODIFIER_SHARES: Record<Modifier, Record<Level, number>> = {
  salt: { none: 0, low: 0.0025, medium: 0.0075, high: 0.015 },
  sugar: { none: 0, low: 0.025, medium: 0.05, high: 0.1 },
  oil: { none: 0, low: 0.02, medium: 0.05, high: 0.1 },
};

export function zeroNutrients(): NutrientValues {
  return Object.fromEntries(NUTRIENT_CODES.map((code) => [code, 0])) as NutrientValues;
}

/** Nutrient values with every code not given at 0. */
export function nutrientValues(given: Partial<NutrientValues>): NutrientValues {
  return { ...zeroNutrients(), ...given };
}

/** Per-100 g values of the modifier components (table salt is 38.758 % sodium; the oil is olive oil). */
export const MODIFIER_PER_100G: Record<Modifier, NutrientValues> = {
  salt: nutrientValues({ NA: 38_758, K: 8, CA: 24, FE: 0.3 }),
  sugar: nutrientValues({ ENERC_KCAL: 387, CHOCDF: 100, SUGAR: 100, "SUGAR.added": 100, NA: 1, K: 2, CA: 1 }),
  oil: nutrientValues({ ENERC_KCAL: 884, FAT: 100, FASAT: 14, FAMS: 73, FAPU: 11, FE: 0.6 }),
};

export interface BaseComponent {
  name: string;
  /** Share of the non-modifier part of the serving; the shares of an item sum to 1. */
  share: number;
  per100g: NutrientValues;
}

export interface PortionInput {
  servingSize: number;
  levels: Record<Modifier, Level>;
  likelyAddedSugar: boolean;
  components: readonly BaseComponent[];
}

export interface WeighedComponent {
  name: string;
  weight: number;
}

export interface PortionResult {
  recipe: WeighedComponent[];
  nutrition: NutrientValues;
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * Weighs the components of one portion and sums its nutrition from the exact weights. Shown
 * weights are rounded to 2 decimals, with the rounding residue given to the largest base
 * component so they still add up to the serving size; nutrients are rounded to 1 decimal.
 */
export function calculatePortion(input: PortionInput, modifiers: readonly Modifier[]): PortionResult {
  const serving = input.servingSize;
  const modifierWeights = modifiers.map((modifier) => {
    const applies = modifier !== "sugar" || input.likelyAddedSugar;
    const share = applies ? MODIFIER_SHARES[modifier][input.levels[modifier]] : 0;
    return { modifier, weight: serving * share };
  });
  const baseTotal = serving - modifierWeights.reduce((sum, m) => sum + m.weight, 0);
  const baseWeights = input.components.map((component) => baseTotal * component.share);

  const nutrition = zeroNutrients();
  const add = (weight: number, per100g: NutrientValues) => {
    for (const code of NUTRIENT_CODES) nutrition[code] += (weight * per100g[code]) / 100;
  };
  input.components.forEach((component, index) => add(baseWeights[index]!, component.per100g));
  for (const { modifier, weight } of modifierWeights) add(weight, MODIFIER_PER_100G[modifier]);
  for (const code of NUTRIENT_CODES) nutrition[code] = roundTo(nutrition[code], 1);

  const shownModifiers = modifierWeights.map(({ modifier, weight }) => ({ name: modifier, weight: roundTo(weight, 2) }));
  const shownBase = input.components.map((component, index) => ({ name: component.name, weight: roundTo(baseWeights[index]!, 2) }));
  if (shownBase.length > 0) {
    let largest = 0;
    input.components.forEach((component, index) => {
      if (component.share > input.components[largest]!.share) largest = index;
    });
    const others = [...shownBase, ...shownModifiers].reduce(
      (sum, component, index) => (index === largest ? sum : sum + component.weight),
      0,
    );
    shownBase[largest]!.weight = Math.max(0, roundTo(serving - others, 2));
  }
  return { recipe: [...shownBase, ...shownModifiers], nutrition };
}

export function sumNutrients(values: readonly NutrientValues[]): NutrientValues {
  const total = zeroNutrients();
  for (const value of values) for (const code of NUTRIENT_CODES) total[code] += value[code];
  for (const code of NUTRIENT_CODES) total[code] = roundTo(total[code], 1);
  return total;
}

export interface NutrientRecord {
  label: string;
  quantity: number;
  unit: string;
}

/**
 * How much of a daily reference one serving holds, in the service's words (docs/api.md, nutrition):
 * `NONE` when the reference could not be calculated or the code has its levels disabled.
 */
export const REFERENCE_LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;
export type ReferenceLevel = (typeof REFERENCE_LEVELS)[number];

export interface DailyReferenceRecord {
  label: string;
  level: ReferenceLevel;
  /** Share of the daily reference amount, in %. */
  percent: number;
}

/** The eight codes the service gives a daily reference for. */
export type ReferenceCode = "CHOCDF" | "ENERC_KCAL" | "FASAT" | "FAT" | "NA" | "PROCNT" | "SUGAR" | "SUGAR.added";

export interface NutritionRecord {
  calories: number;
  totalNutrients: Record<NutrientCode, NutrientRecord>;
  /** Keyed by nutrient code, as a captured answer of the public service carries it. */
  dailyIntakeReference: Record<ReferenceCode, DailyReferenceRecord>;
}

/**
 * Daily reference amounts (adult, 2,000 kcal) of the service's eight codes, and whether the code
 * has levels: energy and sugars are `NONE` in a captured answer at 43.6 % and 34.4 %.
 */
const DAILY_REFERENCE: Record<ReferenceCode, { amount: number; levels: boolean }> = {
  CHOCDF: { amount: 260, levels: true },
  ENERC_KCAL: { amount: 2000, levels: false },
  FASAT: { amount: 20, levels: true },
  FAT: { amount: 70, levels: true },
  NA: { amount: 2400, levels: true },
  PROCNT: { amount: 50, levels: true },
  SUGAR: { amount: 90, levels: false },
  "SUGAR.added": { amount: 50, levels: true },
};

export const REFERENCE_CODES = Object.keys(DAILY_REFERENCE) as ReferenceCode[];

/** The service's rule: under 20 % of the daily reference is LOW, 20 % to under 35 % MEDIUM, from 35 % HIGH. */
export function referenceLevel(percent: number): Exclude<ReferenceLevel, "NONE"> {
  if (percent < 20) return "LOW";
  return percent < 35 ? "MEDIUM" : "HIGH";
}

export function nutritionRecord(values: NutrientValues): NutritionRecord {
  const totalNutrients = {} as NutritionRecord["totalNutrients"];
  for (const code of NUTRIENT_CODES) {
    totalNutrients[code] = { label: NUTRIENTS[code].label, quantity: values[code], unit: NUTRIENTS[code].unit };
  }
  const dailyIntakeReference = {} as NutritionRecord["dailyIntakeReference"];
  for (const code of REFERENCE_CODES) {
    const { amount, levels } = DAILY_REFERENCE[code];
    const percent = roundTo((values[code] / amount) * 100, 1);
    dailyIntakeReference[code] = { label: NUTRIENTS[code].label, level: levels ? referenceLevel(percent) : "NONE", percent };
  }
  return { calories: values.ENERC_KCAL, totalNutrients, dailyIntakeReference };
}
