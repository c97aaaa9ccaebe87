/** What every sandbox answers besides the API routes: 405s, the images, the request counters, 404s. */
import type { FastifyInstance } from "fastify";
import { LANGUAGES_ROUTE } from "../../records/languages.js";
import type { SandboxContext } from "../context.js";
import { ApiError, errorBody, notFound, SERVICE_CODES } from "../errors.js";
import { routes } from "../../records/routes.js";

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** The model version public clients name at the end of the recipe and dish routes (docs/api.md, model version). */
export const MODEL_VERSION_SUFFIX = "/v1.0";

/** A route as it is written, and with the model version. */
export function withModelVersion(url: string): [string, string] {
  return [url, `${url}${MODEL_VERSION_SUFFIX}`];
}

/** The methods each API route answers; any other method gets 405. */
const API_ROUTE_METHODS: ReadonlyArray<readonly [string, readonly string[]]> = [
  [routes.intake, ["GET", "HEAD"]],
  [routes.intakesList, ["GET", "HEAD"]],
  [LANGUAGES_ROUTE, ["GET", "HEAD"]],
  [routes.confirmQuantity, ["POST"]],
  [routes.displayImage, ["POST", "DELETE"]],
  ...[routes.recipeIngredients, routes.recipeNutritionalInfo, routes.confirmDish].flatMap((route) =>
    withModelVersion(route).map((url) => [url, ["POST"]] as const),
  ),
];

export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

export function registerMethodNotAllowed(app: FastifyInstance): void {
  for (const [url, allowed] of API_ROUTE_METHODS) {
    const others = HTTP_METHODS.filter((method) => !allowed.includes(method));
    app.route({
      method: others,
      url,
      config: { methodNotAllowed: true },
      onRequest: async (request) => {
        const use = allowed.filter((m) => m !== "HEAD").join(" or ");
        throw new ApiError(405, SERVICE_CODES.methodNotAllowed, `${request.method} is not allowed on ${url}; use ${use}`, {
          allow: allowed.join(", "),
        });
      },
      handler: async () => undefined,
    });
  }
}

export function registerSandboxRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(SERVICE_CODES.unknownPath, `no route ${request.method} ${pathOf(request.url)}`));
  });

  app.get("/images/:name", async (request, reply) => {
    const name = (request.params as { name: string }).name;
    const image = ctx.state.images.get(name);
    if (!image) throw notFound(`no image ${name}`, SERVICE_CODES.unknownPath);
    return reply.header("content-type", image.contentType).header("cache-control", "no-store").send(image.bytes);
  });

  app.get("/sandbox/stats", async () => structuredClone(ctx.stats));
}
