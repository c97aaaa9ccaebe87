/**
 * Changing intakes: the update operation (confirm/quantity) and dish confirmation. Everything
 * is validated before the first change, and validation and change run without an await in
 * between, so concurrent requests never see or leave a half-applied intake.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parsePositionKey, pickUpdateFields, validateUpdateShape, UPDATE_FIELDS } from "../../intake/index.js";
import { lookupIntake, type RouteRoles } from "../access.js";
import type { SandboxContext } from "../context.js";
import { badRequest, SERVICE_CODES } from "../errors.js";
import { describeValue, readBodyImageId, readJsonBody, readQuery } from "../request.js";
import { findDish, type Dish } from "../seed.js";
import { applyDishConfirmation, applyUpdate, planDishConfirmation, planUpdate, RULE_CODES, type UpdatePlan } from "../update.js";
import { withModelVersion } from "./misc.js";
import type { Plan } from "../../records/fields.js";
import { routes } from "../../records/routes.js";

const MAX_CONFIRMED = 100;

/** The ingredients-edition guide: confirm/quantity is for APIUser and APIUserManager tokens, not APICompany (docs/api.md, users and tokens). */
const QUANTITY_ROLES: RouteRoles = { roles: ["APIUser", "APIUserManager"], action: "change quantities" };

function readUpdateFields(body: Record<string, unknown>) {
  const fields = pickUpdateFields(body);
  const { shape, problems } = validateUpdateShape(fields, { strictMeasures: true });
  const [problem] = problems;
  if (problem) throw badRequest(problem.message, RULE_CODES[problem.rule]);
  return { fields, shape };
}

function readConfirmedClass(value: unknown): Dish[] {
  if (value === undefined) throw badRequest("confirmedClass is required: a list of dish ids");
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CONFIRMED) {
    throw badRequest(`confirmedClass must be a list of 1 to ${MAX_CONFIRMED} dish ids`);
  }
  return value.map((id) => {
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
      throw badRequest(`confirmedClass holds ${describeValue(id)}, which is not a dish id`);
    }
    const dish = findDish(id);
    if (!dish) throw badRequest(`unknown dish id ${id}`);
    return dish;
  });
}

/** Positions as in an intake record (1, "manual2") or as body keys ("1"); null when absent. */
function readPositionList(value: unknown): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length > MAX_CONFIRMED) {
    throw badRequest(`food_item_position must be a list of at most ${MAX_CONFIRMED} positions`);
  }
  const keys = value.map((position) => {
    const key = typeof position === "number" && Number.isSafeInteger(position) ? String(position) : position;
    if (typeof key !== "string" || !parsePositionKey(key)) {
      throw badRequest(
        `food_item_position holds ${describeValue(position)}, which is not a food item position`,
        SERVICE_CODES.unknownPosition,
      );
    }
    return key;
  });
  if (new Set(keys).size !== keys.length) throw badRequest("food_item_position names a position more than once");
  return keys;
}

function updateMessage(imageId: number, plan: UpdatePlan, applied: boolean, ownerPlan: Plan): string {
  const base = applied ? `intake ${imageId} updated` : `intake ${imageId} unchanged`;
  if (plan.ignored.length === 0) return base;
  return `${base}; item-level ${plan.ignored.join(", ")} ignored because the ${ownerPlan} plan is below Monitor`;
}

export function registerUpdateRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const onRequest = ctx.authenticate;

  app.post(routes.confirmQuantity, { onRequest, config: { roles: QUANTITY_ROLES } }, async (request) => {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const body = readJsonBody(request, ["imageId", ...UPDATE_FIELDS], policy);
    const imageId = readBodyImageId(body, policy);
    const { fields, shape } = readUpdateFields(body);
    const access = ctx.accessOf(request);
    const intake = lookupIntake(ctx.state.intakes, access, imageId);
    const ownerPlan = access.target.plan ?? "Free";
    const planned = planUpdate(intake, fields, shape, ownerPlan);
    if (!planned.ok) throw badRequest(planned.message, planned.code);

    const applied = applyUpdate(planned.plan);
    if (applied) {
      ctx.recalculate(intake);
      ctx.commit();
    }
    return { message: updateMessage(imageId, planned.plan, applied, ownerPlan), imageId };
  });

  for (const url of withModelVersion(routes.confirmDish)) app.post(url, { onRequest }, confirmDish);

  async function confirmDish(request: FastifyRequest) {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const body = readJsonBody(request, ["imageId", "confirmedClass", "food_item_position", ...UPDATE_FIELDS], policy);
    const imageId = readBodyImageId(body, policy);
    const dishes = readConfirmedClass(body.confirmedClass);
    const positions = readPositionList(body.food_item_position);
    const { fields, shape } = readUpdateFields(body);
    const access = ctx.accessOf(request);
    const intake = lookupIntake(ctx.state.intakes, access, imageId);
    const ownerPlan = access.target.plan ?? "Free";
    const dishPlan = planDishConfirmation(intake, dishes, positions);
    if (!dishPlan.ok) throw badRequest(dishPlan.message, dishPlan.code);
    const updatePlan = planUpdate(intake, fields, shape, ownerPlan);
    if (!updatePlan.ok) throw badRequest(updatePlan.message, updatePlan.code);

    // docs/api.md, update rule 7: the update runs without its own recalculation; nutrition is calculated once, at the end.
    applyDishConfirmation(dishPlan.plan);
    applyUpdate(updatePlan.plan);
    ctx.recalculate(intake);
    ctx.commit();
    const ignored = updatePlan.plan.ignored;
    const note = ignored.length > 0 ? `; item-level ${ignored.join(", ")} ignored because the ${ownerPlan} plan is below Monitor` : "";
    return { message: `intake ${imageId}: ${dishes.length === 1 ? "dish" : "dishes"} confirmed${note}`, imageId };
  }
}
