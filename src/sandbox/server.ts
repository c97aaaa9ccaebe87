/**
 * The sandbox: a local emulator of the /v2 intake-management API (api-contract.md), strict
 * about requests, with seeded users and intakes, optional persistence, rate limit and latency.
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { API_PREFIX, routes } from "../api/paths.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../intake/index.js";
import { authenticate, resolveTarget, type Access } from "./access.js";
import type { SandboxContext, SandboxStats } from "./context.js";
import { ApiError, errorBody, notFound } from "./errors.js";
import { renderIntake } from "./render.js";
import { registerDisplayImageRoutes } from "./routes/displayImage.js";
import { registerIntakeRoutes } from "./routes/intakes.js";
import { registerUpdateRoutes } from "./routes/updates.js";
import { SEED_USERS } from "./seed.js";
import { calculateIntake, createSeedState, StateFileError, type SandboxState } from "./state.js";
import { secretKey, signToken } from "./tokens.js";

export type { SandboxStats } from "./context.js";
export { StateFileError } from "./state.js";

export interface SandboxOptions {
  /** 0 = a free port; default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  statePath?: string;
  /** One line per request; default: nothing. */
  log?: (line: string) => void;
  /** HS256 secret; default random, persisted in the state file when statePath is given. */
  secret?: string;
  /** Max requests per second across all /v2 routes; over it → 429 with Retry-After: 1. */
  rateLimit?: number;
  /** Delay every /v2 answer by this much. */
  latencyMs?: number;
}

export interface SeededUserInfo {
  id: number;
  name: string;
  role: "APIUser" | "APIUserManager" | "APICompany";
  plan: string | null;
  token: string;
}

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:43123, no trailing slash. */
  url: string;
  users: SeededUserInfo[];
  tokenFor(name: string): string;
  signToken(claims: { sub: string; role: string; expiresInSeconds?: number }): Promise<string>;
  stats(): SandboxStats;
  /** Deep copy of the stored record as GET would return it; undefined for an unknown id. */
  intake(imageId: number): unknown;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";
const JSON_BODY_LIMIT = 1_048_576;
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** The methods each API route answers; any other method gets 405. */
const API_ROUTE_METHODS: ReadonlyArray<readonly [string, readonly string[]]> = [
  [routes.intake, ["GET", "HEAD"]],
  [routes.intakesList, ["GET", "HEAD"]],
  [routes.confirmQuantity, ["POST"]],
  [routes.displayImage, ["POST", "DELETE"]],
  [routes.recipeIngredients, ["POST"]],
  [routes.recipeNutritionalInfo, ["POST"]],
  [routes.confirmDish, ["POST"]],
];

function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

function baseUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

function isUncounted(path: string): boolean {
  return path === "/sandbox/stats" || path.startsWith("/images/");
}

/** Fastify's and the multipart plugin's own client errors, as one readable sentence each. */
function describeError(error: unknown): { status: number; message: string; headers: Record<string, string> } {
  if (error instanceof ApiError) return { status: error.status, message: error.message, headers: { ...error.headers } };
  const fastifyError = error as Partial<FastifyError> | undefined;
  const status = typeof fastifyError?.statusCode === "number" ? fastifyError.statusCode : 500;
  const code = fastifyError?.code;
  if (status >= 500 || status < 400) return { status: 500, message: "internal sandbox error", headers: {} };
  const messages: Record<string, string> = {
    FST_ERR_CTP_EMPTY_JSON_BODY: "the request body is empty; send a JSON object",
    FST_ERR_CTP_INVALID_JSON_BODY: "the request body is not valid JSON",
    FST_ERR_CTP_BODY_TOO_LARGE: `the request body is larger than ${JSON_BODY_LIMIT} bytes`,
    FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported content type: send application/json (or multipart/form-data for a display image)",
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: "the Content-Length header does not match the request body",
    FST_ERR_CTP_INVALID_TYPE: "the Content-Type header is malformed",
  };
  if (code && messages[code]) return { status, message: messages[code]!, headers: {} };
  if (/prototype property/i.test(fastifyError?.message ?? "")) {
    return { status: 400, message: "the request body contains a forbidden property name (__proto__ or constructor.prototype)", headers: {} };
  }
  if (error instanceof SyntaxError) return { status: 400, message: "the request body is not valid JSON", headers: {} };
  const message = fastifyError?.message?.trim() || "the request was refused";
  return { status, message: message.charAt(0).toLowerCase() + message.slice(1), headers: {} };
}

/** Answers HTTP-level parse errors with the same JSON error shape, then closes the connection. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const body = JSON.stringify(errorBody(status, status === 431 ? "request headers are too large" : status === 408 ? "request timed out" : "malformed HTTP request"));
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : status === 408 ? "Request Timeout" : "Bad Request"}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Runtime {
  state: SandboxState;
  stats: SandboxStats;
  key: Uint8Array;
  url: string;
  host: string;
  options: SandboxOptions;
  persist: (() => void) | null;
}

function buildApp(runtime: Runtime): FastifyInstance {
  const { state, stats, options } = runtime;
  const log = options.log;
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT,
    forceCloseConnections: true,
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // Fastify's own routing errors (a malformed URL) before any route runs.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody(400, "the request URL is malformed"));
    },
  });

  app.removeContentTypeParser("text/plain");
  void app.register(fastifyMultipart, {
    limits: { fileSize: MAX_DISPLAY_IMAGE_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 },
  });

  const accesses = new WeakMap<FastifyRequest, Access>();
  const ctx: SandboxContext = {
    state,
    stats,
    authenticate: async (request) => {
      const caller = await authenticate(request.headers.authorization, runtime.key);
      const target = resolveTarget(caller, (request.query as Record<string, unknown> | undefined)?.user_id);
      accesses.set(request, { caller, target });
    },
    accessOf: (request) => {
      const access = accesses.get(request);
      if (!access) throw new Error("route registered without the authenticate hook");
      return access;
    },
    render: (request, intake) => {
      const base = isWildcardHost(runtime.host) && request.host ? `${request.protocol}://${request.host}` : runtime.url;
      return renderIntake(intake, state.images, (name) => `${base}/images/${name}`);
    },
    recalculate: (intake) => {
      calculateIntake(intake);
      stats.nutrition_calculations += 1;
    },
    commit: () => {
      if (!runtime.persist) return;
      try {
        runtime.persist();
      } catch (error) {
        log?.(`state: could not save ${options.statePath}: ${(error as Error).message}`);
      }
    },
  };

  // Sliding window: never more than `allowed` API requests in any `windowMs`.
  const rate = options.rateLimit;
  const allowed = rate === undefined ? Infinity : Math.max(1, Math.floor(rate));
  const windowMs = rate === undefined ? 1000 : Math.max(1000, 1000 / rate);
  const recent: number[] = [];
  app.addHook("onRequest", async (request) => {
    const path = pathOf(request.url);
    if (isUncounted(path)) return;
    const methodNotAllowed = (request.routeOptions.config as { methodNotAllowed?: boolean } | undefined)?.methodNotAllowed === true;
    const pattern = request.is404 || methodNotAllowed ? "*" : (request.routeOptions.url ?? "*");
    const key = `${request.method} ${pattern}`;
    stats.requests[key] = (stats.requests[key] ?? 0) + 1;
    stats.total_requests += 1;

    if (rate !== undefined && isApiPath(path)) {
      const now = performance.now();
      while (recent.length > 0 && recent[0]! <= now - windowMs) recent.shift();
      if (recent.length >= allowed) {
        const retryAfter = Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000));
        throw new ApiError(429, `rate limit exceeded: at most ${rate} requests per second`, { "retry-after": String(retryAfter) });
      }
      recent.push(now);
    }
  });

  if (options.latencyMs !== undefined && options.latencyMs > 0) {
    const latency = options.latencyMs;
    app.addHook("onSend", async (request) => {
      if (isApiPath(pathOf(request.url))) await sleep(latency);
    });
  }

  if (log) {
    app.addHook("onResponse", async (request, reply) => {
      log(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    });
  }

  app.setErrorHandler((error: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    const { status, message, headers } = describeError(error);
    if (status >= 500) log?.(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void reply.code(status).headers(headers).send(errorBody(status, message));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(404, `no route ${request.method} ${pathOf(request.url)}`));
  });

  registerIntakeRoutes(app, ctx);
  registerUpdateRoutes(app, ctx);
  registerDisplayImageRoutes(app, ctx);

  for (const [url, allowed] of API_ROUTE_METHODS) {
    const others = HTTP_METHODS.filter((method) => !allowed.includes(method));
    app.route({
      method: others,
      url,
      config: { methodNotAllowed: true },
      onRequest: async (request) => {
        throw new ApiError(405, `${request.method} is not allowed on ${url}; use ${allowed.filter((m) => m !== "HEAD").join(" or ")}`, {
          allow: allowed.join(", "),
        });
      },
      handler: async () => undefined,
    });
  }

  app.get("/images/:name", async (request, reply) => {
    const name = (request.params as { name: string }).name;
    const image = state.images.get(name);
    if (!image) throw notFound(`no image ${name}`);
    return reply.header("content-type", image.contentType).header("cache-control", "no-store").send(image.bytes);
  });

  app.get("/sandbox/stats", async () => structuredClone(stats));

  return app;
}

function userInfo(tokens: ReadonlyMap<string, string>): SeededUserInfo[] {
  return SEED_USERS.map((user) => ({ id: user.id, name: user.name, role: user.role, plan: user.plan, token: tokens.get(user.name)! }));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const stateFile = options.statePath === undefined ? null : await import("./stateFile.js");
  const loaded = stateFile && options.statePath !== undefined ? stateFile.loadStateFile(options.statePath) : null;
  const secret = options.secret ?? loaded?.secret ?? randomBytes(32).toString("base64url");
  const state = loaded ?? createSeedState(secret);
  const secretChanged = state.secret !== secret;
  state.secret = secret;

  const stats: SandboxStats = { requests: {}, total_requests: 0, nutrition_calculations: 0 };
  const statePath = options.statePath;
  const runtime: Runtime = {
    state,
    stats,
    key: secretKey(secret),
    url: "",
    host,
    options,
    persist: statePath === undefined || stateFile === null ? null : () => stateFile.saveStateFile(statePath, state),
  };
  const app = buildApp(runtime);
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  runtime.url = baseUrl(host, boundPort);

  if (runtime.persist && (loaded === null || secretChanged)) {
    try {
      runtime.persist();
    } catch (error) {
      await app.close();
      throw new StateFileError(`cannot write state file ${statePath}: ${(error as Error).message}`);
    }
  }

  const tokens = new Map<string, string>();
  for (const user of SEED_USERS) tokens.set(user.name, signToken(runtime.key, { sub: String(user.id), role: user.role }));
  // Warm up what the first requests need, without delaying start-up.
  void import("jose").catch(() => undefined);
  void import("image-size").catch(() => undefined);

  let closing: Promise<void> | null = null;
  return {
    url: runtime.url,
    users: userInfo(tokens),
    tokenFor(name) {
      const token = tokens.get(name);
      if (token === undefined) throw new Error(`unknown sandbox user "${name}" (known: ${SEED_USERS.map((u) => u.name).join(", ")})`);
      return token;
    },
    signToken: async (claims) => signToken(runtime.key, claims),
    stats: () => structuredClone(stats),
    intake(imageId) {
      const intake = state.intakes.get(imageId);
      if (!intake) return undefined;
      return structuredClone(renderIntake(intake, state.images, (name) => `${runtime.url}/images/${name}`));
    },
    close() {
      closing ??= app.close();
      return closing;
    },
  };
}

