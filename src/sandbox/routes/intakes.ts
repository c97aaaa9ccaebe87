/** Reading intakes: GET intake, the history list, recipe/ingredients, recipe/nutritionalInfo and the languages. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isPlainRecord } from "../../intake/index.js";
import { LANGUAGES, LANGUAGES_ROUTE, type LanguageCode } from "../../records/languages.js";
import { lookupIntake } from "../access.js";
import type { SandboxContext } from "../context.js";
import { badQuery, badRequest, notFound, SERVICE_CODES } from "../errors.js";
import { calculatePortion, nutritionRecord, roundTo, sumNutrients } from "../nutrition.js";
import { itemName, itemNutritionRecord, itemRecipeRecord, totalNutrition, totalServingSize } from "../render.js";
import { readBodyImageId, readHistoryDate, readImageIdParam, readJsonBody, readQuery, type BodyPolicy } from "../request.js";
import { dishName, findDish } from "../seed.js";
import { dishComponents, type StoredIntake } from "../state.js";
import { withModelVersion } from "./misc.js";
import { routes } from "../../records/routes.js";

/**
 * The period's total intake of the main nutrients beside the history list (docs/api.md, the
 * history list): the service's pages name the nutrients, not the fields, so the names are ours.
 */
export function periodTotals(intakes: readonly StoredIntake[]) {
  const total = sumNutrients(intakes.flatMap((intake) => intake.items.map((item) => item.nutrition)));
  return {
    calories: roundTo(total.ENERC_KCAL, 1),
    carbohydrates: roundTo(total.CHOCDF, 1),
    fat: roundTo(total.FAT, 1),
    protein: roundTo(total.PROCNT, 1),
  };
}

/** A `class_id` as public clients send it: a dish id, or a string of its digits (refused with `--strict`, as `imageId`). */
function readClassId(body: Record<string, unknown>, policy: BodyPolicy): number {
  const value = body.class_id;
  const digits = typeof value === "string" && !policy.strict && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : value;
  if (typeof digits !== "number" || !Number.isSafeInteger(digits) || digits <= 0) {
    throw badQuery(`class_id must be a dish id (a positive integer), not ${JSON.stringify(value)}`);
  }
  if (digits !== value) policy.note(`class_id given as the string "${String(value)}", read as ${digits} (--strict refuses it)`);
  return digits;
}

/** A dish's standard portion, as the catalogue's recipe makes it, without salt, sugar or oil added. */
function dishNutritionalInfo(classId: number, language: LanguageCode) {
  const dish = findDish(classId);
  if (!dish) throw notFound(`no dish has class_id ${classId}`, SERVICE_CODES.unknownPath);
  const portion = calculatePortion(
    {
      servingSize: dish.portion,
      levels: { salt: "none", sugar: "none", oil: "none" },
      likelyAddedSugar: dish.likelyAddedSugar,
      components: dishComponents(dish),
    },
    [],
  );
  return {
    class_id: dish.id,
    ids: [dish.id],
    foodName: [dishName(dish, language)],
    serving_size: dish.portion,
    hasNutritionalInfo: true,
    nutritional_info: nutritionRecord(portion.nutrition),
  };
}

/** "The provided imageId or class_id": an intake's nutrition, or a dish's standard portion when only class_id is given. */
function nutritionalInfoHandler(ctx: SandboxContext) {
  return async (request: FastifyRequest) => {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const raw = request.body;
    if (isPlainRecord(raw) && raw.imageId === undefined) {
      if (raw.class_id === undefined) throw badRequest("imageId or class_id is required: an intake's image id, or a dish's class id");
      return dishNutritionalInfo(readClassId(readJsonBody(request, ["class_id"], policy), policy), ctx.language(request));
    }
    const imageId = readBodyImageId(readJsonBody(request, ["imageId"], policy), policy);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    const language = ctx.language(request);
    return {
      imageId,
      ids: intake.items.map((item) => item.dishId),
      foodName: intake.items.map((item) => itemName(item, language)),
      serving_size: totalServingSize(intake),
      hasNutritionalInfo: true,
      nutritional_info: totalNutrition(intake),
      ...(intake.kind === "recognition" ? {} : { nutritional_info_per_item: intake.items.map((item) => itemNutritionRecord(item)) }),
    };
  };
}

export function registerIntakeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const onRequest = ctx.authenticate;
  // The history list and nutritionalInfo are documented as limited per second only: no credit, no daily call.
  const unmetered = { onRequest, config: { unmetered: true as const } };

  app.get(routes.intake, { onRequest }, async (request) => {
    readQuery(request, ["user_id"]);
    const imageId = readImageIdParam(request.params);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    return { intake_info: ctx.render(request, intake) };
  });

  app.get(routes.intakesList, unmetered, async (request) => {
    const query = readQuery(request, ["user_id", "date_from", "date_to"]);
    // Both dates are required (docs/api.md, the history list): the public service reads "between two dates".
    if (query.date_from === undefined && query.date_to === undefined) {
      throw badQuery("date_from and date_to are required, e.g. date_from=2026/11/01, 00:00:00 and date_to=2026/11/08, 00:00:00");
    }
    const { target } = ctx.accessOf(request);
    // The dates are the user's wall-clock times; intakes keep their instants (docs/api.md, the history list).
    const from = readHistoryDate(query.date_from, "date_from", target.timeZone, "start");
    const to = readHistoryDate(query.date_to, "date_to", target.timeZone, "end");
    if (from > to) throw badQuery("date_from is later than date_to");
    const intakes = [...ctx.state.intakes.values()]
      .filter((intake) => intake.ownerId === target.id)
      .map((intake) => ({ intake, time: Date.parse(intake.timestamp) }))
      .filter(({ time }) => time >= from && time <= to)
      .sort((a, b) => a.time - b.time || a.intake.imageId - b.intake.imageId)
      .map(({ intake }) => intake);
    return { intakes_list: intakes.map((intake) => ctx.render(request, intake)), total_intake: periodTotals(intakes) };
  });

  app.get(LANGUAGES_ROUTE, unmetered, async (request) => {
    readQuery(request, ["user_id"]);
    return { languages: LANGUAGES.map(({ code, name }) => ({ code, name })) };
  });

  for (const url of withModelVersion(routes.recipeIngredients)) app.post(url, { onRequest }, recipeIngredients);
  const recipeNutritionalInfo = nutritionalInfoHandler(ctx);
  for (const url of withModelVersion(routes.recipeNutritionalInfo)) app.post(url, unmetered, recipeNutritionalInfo);

  async function recipeIngredients(request: FastifyRequest) {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const imageId = readBodyImageId(readJsonBody(request, ["imageId"], policy), policy);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    if (intake.kind === "recognition") {
      return { imageId, serving_size: totalServingSize(intake), recipe: ctx.render(request, intake).recipe };
    }
    const language = ctx.language(request);
    return { imageId, recipe_per_item: intake.items.map((item) => itemRecipeRecord(item, language)) };
  }
}
