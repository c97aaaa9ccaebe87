/** Reading intakes: GET intake, the history list, recipe/ingredients and recipe/nutritionalInfo. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { lookupIntake } from "../access.js";
import type { SandboxContext } from "../context.js";
import { badQuery } from "../errors.js";
import { itemId, itemNutritionRecord, itemRecipeRecord, totalNutrition, totalServingSize } from "../render.js";
import { readBodyImageId, readHistoryDate, readImageIdParam, readJsonBody, readQuery } from "../request.js";
import { withModelVersion } from "./misc.js";
import { routes } from "../../records/routes.js";

export function registerIntakeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const onRequest = ctx.authenticate;

  app.get(routes.intake, { onRequest }, async (request) => {
    readQuery(request, ["user_id"]);
    const imageId = readImageIdParam(request.params);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    return { intake_info: ctx.render(request, intake) };
  });

  app.get(routes.intakesList, { onRequest }, async (request) => {
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
      .sort((a, b) => a.time - b.time || a.intake.imageId - b.intake.imageId);
    return { intakes_list: intakes.map(({ intake }) => ctx.render(request, intake)) };
  });

  for (const url of withModelVersion(routes.recipeIngredients)) app.post(url, { onRequest }, recipeIngredients);
  for (const url of withModelVersion(routes.recipeNutritionalInfo)) app.post(url, { onRequest }, recipeNutritionalInfo);

  async function recipeIngredients(request: FastifyRequest) {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const imageId = readBodyImageId(readJsonBody(request, ["imageId"], policy), policy);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    if (intake.kind === "recognition") {
      return { imageId, serving_size: totalServingSize(intake), recipe: ctx.render(request, intake).recipe };
    }
    return { imageId, recipe_per_item: intake.items.map((item) => itemRecipeRecord(imageId, item)) };
  }

  async function recipeNutritionalInfo(request: FastifyRequest) {
    readQuery(request, ["user_id"]);
    const policy = ctx.bodyPolicy(request);
    const imageId = readBodyImageId(readJsonBody(request, ["imageId"], policy), policy);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    return {
      imageId,
      ids: intake.items.map((item) => itemId(imageId, item)),
      foodName: intake.items.map((item) => item.name),
      serving_size: totalServingSize(intake),
      hasNutritionalInfo: true,
      nutritional_info: totalNutrition(intake),
      ...(intake.kind === "recognition"
        ? {}
        : { nutritional_info_per_item: intake.items.map((item) => itemNutritionRecord(imageId, item)) }),
    };
  }
}
