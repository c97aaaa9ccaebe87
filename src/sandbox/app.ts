/**
 * The sandbox's HTTP application: Fastify with the sandbox's body parser, limits and timeouts,
 * the per-request counting and rate limit, and every route.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type onRequestAsyncHookHandler } from "fastify";
import { authenticate, requireRole, resolveTarget, type Access, type TokenBook } from "./access.js";
import { createAccount, DEFAULT_CREDITS } from "./account.js";
import type { SandboxContext, SandboxStats } from "./context.js";
import { errorBody, SERVICE_CODES, unsupportedMedia } from "./errors.js";
import { answerClientError, describeFailure, JSON_BODY_LIMIT } from "./failures.js";
import { parseJsonBody } from "./json.js";
import { createRateLimiter, rateLimited, type RateLimitSpec } from "./rateLimit.js";
import { renderIntake } from "./render.js";
import { registerDisplayImageRoutes } from "./routes/displayImage.js";
import { registerIntakeRoutes } from "./routes/intakes.js";
import { pathOf, registerMethodNotAllowed, registerSandboxRoutes } from "./routes/misc.js";
import { registerUpdateRoutes } from "./routes/updates.js";
import { calculateIntake, type SandboxState } from "./state.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../records/fields.js";
import { API_PREFIX } from "../records/routes.js";

/** How long a client may take, and how many may be connected at once (docs/sandbox.md, safety). */
export interface SandboxLimits {
  /** The whole request, headers and body; default 30 s. */
  requestTimeoutMs: number;
  /** The request's headers; default 10 s. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection between requests; default 5 s. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed at once; default 256. */
  maxConnections: number;
  /** Connections open at once from one address; more from it are closed at once, so one client cannot take them all; default 128. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
  maxConnectionsPerAddress: 128,
};

export interface AppRuntime {
  state: SandboxState;
  stats: SandboxStats;
  tokens: TokenBook;
  limits: SandboxLimits;
  /** APIUser requests per rolling window; none: no limit. */
  rateLimit?: RateLimitSpec | undefined;
  /** Milliseconds for the rate limit's window; default performance.now (tests pass their fake clock's). */
  now?: (() => number) | undefined;
  /** Credits the account starts with; default DEFAULT_CREDITS. */
  credits?: number | undefined;
  latencyMs?: number | undefined;
  /** Refuse body fields a route does not use, and string ids, instead of accepting them as the public service does. */
  strict?: boolean | undefined;
  log?: ((line: string) => void) | undefined;
  /** The absolute base of image URLs for this request (from the listening address). */
  imageBase(request: FastifyRequest): string;
  /** Persists the state after a change (when a state file is in use). */
  commit(): void;
}

/** Closes at once a connection from an address that already has `cap` open: trickling sockets from one client leave room for others. */
function capConnectionsPerAddress(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function createFastify(limits: SandboxLimits): FastifyInstance {
  // Node checks the request and header timeouts every interval: a fraction of the shortest one.
  const interval = Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT,
    forceCloseConnections: true,
    return503OnClosing: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs), connectionsCheckingInterval: interval },
    clientErrorHandler: answerClientError,
    // Fastify's own routing errors (a malformed URL) before any route runs.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody(SERVICE_CODES.badQuery, "the request URL is malformed"));
    },
  });
  app.server.maxConnections = limits.maxConnections;
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);
  app.removeContentTypeParser(["text/plain", "application/json"]);
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: JSON_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  void app.register(fastifyMultipart, {
    limits: { fileSize: MAX_DISPLAY_IMAGE_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 },
  });
  return app;
}

/**
 * Who is calling, checked in the order of docs/api.md: the token (401); the quota headers, and
 * the rate limit for an APIUser (429); the route's roles (403); the `user_id` rules (400, 403).
 */
function createAuthenticate(runtime: AppRuntime, accesses: WeakMap<FastifyRequest, Access>): onRequestAsyncHookHandler {
  const rate = runtime.rateLimit;
  const limiter = rate === undefined ? null : createRateLimiter(rate);
  const account = createAccount(runtime.credits ?? DEFAULT_CREDITS);
  return async (request, reply) => {
    const caller = await authenticate(request.headers.authorization, runtime.tokens);
    const decision = limiter && caller.role === "APIUser" ? limiter.take(caller.id, runtime.now ? runtime.now() : performance.now()) : null;
    if (decision?.allowed !== false) account.charge();
    void reply.headers({ ...account.headers(caller), ...decision?.headers });
    if (decision && !decision.allowed && rate) throw rateLimited(rate, decision.headers);
    requireRole(caller, `${request.method} ${request.routeOptions.url}`, request.routeOptions.config.roles);
    const target = resolveTarget(caller, (request.query as Record<string, unknown> | undefined)?.user_id);
    accesses.set(request, { caller, target });
  };
}

function createContext(runtime: AppRuntime): SandboxContext {
  const accesses = new WeakMap<FastifyRequest, Access>();
  return {
    state: runtime.state,
    stats: runtime.stats,
    authenticate: createAuthenticate(runtime, accesses),
    accessOf: (request) => {
      const access = accesses.get(request);
      if (!access) throw new Error("route registered without the authenticate hook");
      return access;
    },
    bodyPolicy: (request) => ({
      strict: runtime.strict === true,
      note: (message) => runtime.log?.(`note: ${request.method} ${pathOf(request.url)}: ${message}`),
    }),
    render: (request, intake) => renderIntake(intake, runtime.state.images, (name) => `${runtime.imageBase(request)}/images/${name}`),
    recalculate: (intake) => {
      calculateIntake(intake);
      runtime.stats.nutrition_calculations += 1;
    },
    commit: () => runtime.commit(),
  };
}

function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

function countRequest(stats: SandboxStats, request: FastifyRequest): void {
  const methodNotAllowed = (request.routeOptions.config as { methodNotAllowed?: boolean } | undefined)?.methodNotAllowed === true;
  const pattern = request.is404 || methodNotAllowed ? "*" : (request.routeOptions.url ?? "*");
  const key = `${request.method} ${pattern}`;
  stats.requests[key] = (stats.requests[key] ?? 0) + 1;
  stats.total_requests += 1;
}

/** A body the sandbox would have to decode: refused, whatever the encoding (docs/api.md, bodies). */
function refuseEncodedBody(request: FastifyRequest): void {
  const encoding = request.headers["content-encoding"];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
    throw unsupportedMedia(`request bodies must not be encoded (Content-Encoding: ${encoding}); send them uncompressed`);
  }
}

function installRequestHooks(app: FastifyInstance, runtime: AppRuntime): void {
  app.addHook("onRequest", async (request) => {
    const path = pathOf(request.url);
    if (path === "/sandbox/stats" || path.startsWith("/images/")) return;
    countRequest(runtime.stats, request);
    refuseEncodedBody(request);
  });

  const latency = runtime.latencyMs;
  if (latency !== undefined && latency > 0) {
    app.addHook("onSend", async (request) => {
      if (isApiPath(pathOf(request.url))) await new Promise((resolve) => setTimeout(resolve, latency));
    });
  }
  const log = runtime.log;
  if (log) {
    app.addHook("onResponse", async (request, reply) => {
      log(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    });
  }
  app.setErrorHandler((error: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    const failure = describeFailure(error);
    if (failure.status >= 500) log?.(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void reply.code(failure.status).headers(failure.headers).send(errorBody(failure.code, failure.message));
  });
}

export function buildApp(runtime: AppRuntime): FastifyInstance {
  const app = createFastify(runtime.limits);
  const ctx = createContext(runtime);
  installRequestHooks(app, runtime);
  registerIntakeRoutes(app, ctx);
  registerUpdateRoutes(app, ctx);
  registerDisplayImageRoutes(app, ctx);
  registerMethodNotAllowed(app);
  registerSandboxRoutes(app, ctx);
  return app;
}
