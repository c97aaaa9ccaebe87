/** Salt, sugar and oil levels, lowest to highest (docs/api.md, levels and measures). */
export const LEVELS = ["none", "low", "medium", "high"] as const;
export type Level = (typeof LEVELS)[number];

/** Measurement systems the sandbox accepts; the CLI passes other strings through. */
export const MEASURES = ["metric", "imperial"] as const;
export type Measure = (typeof MEASURES)[number];

export const MODIFIERS = ["salt", "sugar", "oil"] as const;
export type Modifier = (typeof MODIFIERS)[number];

export function isLevel(value: unknown): value is Level {
  return typeof value === "string" && (LEVELS as readonly string[]).includes(value);
}

export function isMeasure(value: unknown): value is Measure {
  return typeof value === "string" && (MEASURES as readonly string[]).includes(value);
}

/** Plan tiers, lowest to highest, as the current plans page lists them ("Free (Trial)" is Free; docs/api.md, users and tokens). */
export const PLANS = ["Free", "Analyse", "Monitor", "Recommend", "Custom"] as const;
export type Plan = (typeof PLANS)[number];

/** Item-level salt, sugar, oil and measures need Monitor or higher (docs/api.md, update rule 2). */
export function planAllowsItemModifiers(plan: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf("Monitor");
}
