/**
 * The update operation and dish confirmation on stored intakes. Each is split into a plan
 * (validates everything, changes nothing) and an apply step (cannot fail), so a request that
 * is refused leaves the intake exactly as it was.
 */
import {
  checkUpdateAgainstIntake,
  isLevel,
  isPlainRecord,
  isMeasure,
  planAllowsItemModifiers,
  type UpdateRule,
  type UpdateShape,
} from "../intake/index.js";
import { SERVICE_CODES, type ServiceCode } from "./errors.js";
import type { Dish } from "./seed.js";
import { dishComponents, positionKeys, type StoredIntake, type StoredItem } from "./state.js";
import type { Level, Measure, Plan } from "../records/fields.js";

export interface PortionChange {
  quantity?: number;
  salt?: Level;
  sugar?: Level;
  oil?: Level;
  measures?: Measure;
}

export interface UpdatePlan {
  changes: Map<StoredItem, PortionChange>;
  /** Item-level fields dropped because the owner's plan is below Monitor (docs/api.md, update rule 2). */
  ignored: string[];
}

export type Planned<T> = { ok: true; plan: T } | { ok: false; message: string; code: ServiceCode };

/** The service code of each update rule (docs/api.md, service codes). */
export const RULE_CODES: Record<UpdateRule, ServiceCode> = {
  shape: SERVICE_CODES.badBody,
  quantity: SERVICE_CODES.badQuantity,
  level: SERVICE_CODES.badLevel,
  position: SERVICE_CODES.unknownPosition,
};

const refused = (message: string, code: ServiceCode): { ok: false; message: string; code: ServiceCode } => ({ ok: false, message, code });

function itemAt(intake: StoredIntake, key: string): StoredItem | undefined {
  return intake.items.find((item) => item.position !== null && String(item.position) === key);
}

/**
 * Plans the update fields (already checked on their own by validateUpdateShape) against an intake:
 * the shape must fit its kind, every position must exist (docs/api.md, update rule 1), and item-level modifiers and
 * measures are dropped below Monitor (docs/api.md, update rule 2). Recognition-only salt and sugar apply on every plan.
 */
export function planUpdate(
  intake: StoredIntake,
  fields: Record<string, unknown>,
  shape: UpdateShape,
  ownerPlan: Plan,
): Planned<UpdatePlan> {
  const problems = checkUpdateAgainstIntake(fields, shape, intake.kind, positionKeys(intake));
  const [problem] = problems;
  if (problem) return refused(problem.message, RULE_CODES[problem.rule]);

  const changes = new Map<StoredItem, PortionChange>();
  const ignored = new Set<string>();
  const changeOf = (item: StoredItem) => {
    let change = changes.get(item);
    if (!change) changes.set(item, (change = {}));
    return change;
  };

  if (shape === "recognition") {
    const portion = intake.items[0]!;
    const change = changeOf(portion);
    if (typeof fields.quantity === "number") change.quantity = fields.quantity;
    if (isLevel(fields.salt)) change.salt = fields.salt;
    if (isLevel(fields.sugar)) change.sugar = fields.sugar;
    return { ok: true, plan: { changes, ignored: [] } };
  }

  if (shape === "itemized") {
    const allowsModifiers = planAllowsItemModifiers(ownerPlan);
    for (const field of ["quantity", "salt", "sugar", "oil", "measures"] as const) {
      const values = fields[field];
      if (!isPlainRecord(values)) continue;
      for (const [key, value] of Object.entries(values)) {
        const item = itemAt(intake, key);
        if (!item) return refused(`unknown position ${key}`, SERVICE_CODES.unknownPosition);
        if (field === "quantity") {
          if (typeof value === "number") changeOf(item).quantity = value;
        } else if (!allowsModifiers) {
          ignored.add(field);
        } else if (field === "measures") {
          if (isMeasure(value)) changeOf(item).measures = value;
        } else if (isLevel(value)) {
          changeOf(item)[field] = value;
        }
      }
    }
  }
  return { ok: true, plan: { changes, ignored: [...ignored] } };
}

/** Applies a plan without recalculating nutrition; true when anything was applied. */
export function applyUpdate(plan: UpdatePlan): boolean {
  let applied = false;
  for (const [item, change] of plan.changes) {
    if (change.quantity !== undefined) item.servingSize = change.quantity;
    if (change.salt !== undefined) item.salt = change.salt;
    if (change.sugar !== undefined) item.sugar = change.sugar;
    if (change.oil !== undefined) item.oil = change.oil;
    if (change.measures !== undefined) item.measures = change.measures;
    if (Object.keys(change).length > 0) applied = true;
  }
  return applied;
}

export interface DishPlan {
  replacements: Array<{ item: StoredItem; dish: Dish }>;
}

/**
 * Plans `image/confirm/dish`: itemized intakes name one position per dish; a recognition-only
 * intake confirms exactly one dish and names no positions.
 */
export function planDishConfirmation(
  intake: StoredIntake,
  dishes: readonly Dish[],
  positions: readonly string[] | null,
): Planned<DishPlan> {
  if (intake.kind === "recognition") {
    if (positions !== null && positions.length > 0) {
      return refused("intake is recognition-only: leave out food_item_position", SERVICE_CODES.badBody);
    }
    if (dishes.length !== 1)
      return refused("confirmedClass must hold exactly one dish id for a recognition-only intake", SERVICE_CODES.badBody);
    return { ok: true, plan: { replacements: [{ item: intake.items[0]!, dish: dishes[0]! }] } };
  }
  if (positions === null) return refused("food_item_position is required for an itemized intake", SERVICE_CODES.badBody);
  if (positions.length !== dishes.length) {
    return refused("confirmedClass and food_item_position must have the same length", SERVICE_CODES.badBody);
  }
  const replacements: DishPlan["replacements"] = [];
  for (const [index, key] of positions.entries()) {
    const item = itemAt(intake, key);
    if (!item) {
      return refused(`unknown position ${key} (this intake has ${positionKeys(intake).join(", ")})`, SERVICE_CODES.unknownPosition);
    }
    replacements.push({ item, dish: dishes[index]! });
  }
  return { ok: true, plan: { replacements } };
}

/** Replaces the named items' dishes, keeping their serving sizes, levels and measures. */
export function applyDishConfirmation(plan: DishPlan): void {
  for (const { item, dish } of plan.replacements) {
    item.name = dish.name;
    item.dishId = dish.id;
    item.likelyAddedSugar = dish.likelyAddedSugar;
    item.components = dishComponents(dish);
  }
}
