import { LEVELS, MEASURES, PLANS, type Level, type Measure, type Plan } from "../records/fields.js";

export function isLevel(value: unknown): value is Level {
  return typeof value === "string" && (LEVELS as readonly string[]).includes(value);
}

export function isMeasure(value: unknown): value is Measure {
  return typeof value === "string" && (MEASURES as readonly string[]).includes(value);
}

/** Item-level salt, sugar, oil and measures need Monitor or higher (docs/api.md, update rule 2). */
export function planAllowsItemModifiers(plan: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf("Monitor");
}
