/**
 * The sandbox's HTTP application: Fastify with the sandbox's body parser, limits and timeouts,
 * the per-request counting and rate limit, and every route.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type onRequestAsyncHookHandler } from "fastify";
import { authenticate, requireRole, resolveTarget, type Access, type TokenBook } from "./access.js";
import { createAccount, DEFAULT_CREDITS } from "./account.js";
import type { SandboxContext, SandboxStats } from "./context.js";
import { errorBody, SERVICE_CODES, unsupportedMedia } from "./errors.js";
import { answerClientError, describeFailure, JSON_BODY_LIMIT } from "./failures.js";
import { parseJsonBody } from "./json.js";
import { isLoopbackHost } from "./network.js";
import { readLanguage } from "./request.js";
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
  /** Connections open at once; a new one over it takes an idle one's place, or is closed; default 256. */
  maxConnections: number;
  /** Connections open at once from one address (all of loopback is one), so one client cannot take them all; default 128. */
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

/** The address a connection counts under: every loopback address is one (127.0.0.2 and ::1 are this machine too). */
function capKey(address: string): string {
  const host = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return isLoopbackHost(host) ? "loopback" : host;
}

/**
 * Caps the connections open at once, in all and per address (loopback counting as one). A
 * connection over a cap takes the place of the oldest connection with no request under way (one
 * that has sent no request for a moment first, then an idle keep-alive one): of its address when
 * that cap is full, else of any. With none to take, it is closed at once. So silent or trickling clients
 * cannot hold the places a client that sends its request needs (docs/sandbox.md, safety).
 */
function capConnections(server: Server, limits: SandboxLimits): void {
  interface Slot {
    key: string;
    /** When it connected (performance.now): a connection is given a moment to send its request before it counts as silent. */
    since: number;
    requests: number;
    /** The answer under way, until it is sent whole or its connection ends. */
    response: ServerResponse | undefined;
  }
  // In the order they connected: the first idle one found is the oldest.
  const open = new Map<Socket, Slot>();
  const counts = new Map<string, number>();
  const grace = Math.min(1000, limits.headersTimeoutMs / 4);
  const evictable = (key?: string) => {
    const now = performance.now();
    let idle: Socket | undefined;
    for (const [socket, slot] of open) {
      if (slot.response !== undefined || (key !== undefined && slot.key !== key)) continue;
      if (slot.requests === 0 && now - slot.since >= grace) return socket;
      if (slot.requests > 0) idle ??= socket;
    }
    return idle;
  };
  server.on("connection", (socket: Socket) => {
    const key = capKey(socket.remoteAddress ?? "");
    const full = (counts.get(key) ?? 0) >= limits.maxConnectionsPerAddress ? key : open.size >= limits.maxConnections ? null : undefined;
    if (full !== undefined) {
      const victim = evictable(full ?? undefined);
      if (victim === undefined) return void socket.destroy();
      victim.destroy();
      forget(victim);
    }
    open.set(socket, { key, since: performance.now(), requests: 0, response: undefined });
    counts.set(key, (counts.get(key) ?? 0) + 1);
    socket.once("close", () => forget(socket));
    // Answered on the socket itself (a 408 for a slow request) and ended: nothing under way any more.
    socket.once("finish", () => {
      const slot = open.get(socket);
      if (slot) slot.response = undefined;
    });
  });
  const forget = (socket: Socket) => {
    const slot = open.get(socket);
    if (!slot) return;
    open.delete(socket);
    const left = (counts.get(slot.key) ?? 1) - 1;
    if (left > 0) counts.set(slot.key, left);
    else counts.delete(slot.key);
  };
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const slot = open.get(request.socket);
    if (!slot) return;
    slot.requests++;
    slot.response = response;
    response.once("close", () => (slot.response = undefined));
  });
  // A connection silent for the header timeout (Fastify's connectionTimeout) is closed, unless a
  // route is still working on its answer (--latency): a client that never reads its answer too.
  server.on("timeout", (socket: Socket) => {
    const response = open.get(socket)?.response;
    if (response !== undefined && !response.headersSent && !socket.writableEnded) socket.setTimeout(limits.headersTimeoutMs);
    else socket.destroy();
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
    // A connection silent this long (sending nothing, or reading nothing of its answer) is closed.
    connectionTimeout: limits.headersTimeoutMs,
    http: { headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs), connectionsCheckingInterval: interval },
    clientErrorHandler: answerClientError,
    // Fastify's own routing errors (a malformed URL) before any route runs.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody(SERVICE_CODES.badQuery, "the request URL is malformed"));
    },
  });
  capConnections(app.server, limits);
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
    const metered = request.routeOptions.config.unmetered !== true;
    const now = runtime.now ? runtime.now() : performance.now();
    const window = limiter && caller.role === "APIUser" ? limiter : null;
    const decision = window ? (metered ? window.take(caller.id, now) : window.peek(caller.id, now)) : null;
    if (metered && decision?.allowed !== false) account.charge();
    void reply.headers({ ...account.headers(caller), ...decision?.headers });
    if (decision && !decision.allowed && rate) throw rateLimited(rate, decision.headers);
    requireRole(caller, `${request.method} ${request.routeOptions.url}`, request.routeOptions.config.roles);
    const target = resolveTarget(caller, (request.query as Record<string, unknown> | undefined)?.user_id);
    accesses.set(request, { caller, target });
  };
}

function createContext(runtime: AppRuntime): SandboxContext {
  const accesses = new WeakMap<FastifyRequest, Access>();
  const language = (request: FastifyRequest) => readLanguage(request, accesses.get(request)?.target.language ?? "eng");
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
    language,
    render: (request, intake) => {
      const imageUrl = (name: string) => `${runtime.imageBase(request)}/images/${name}`;
      return renderIntake(intake, runtime.state.images, imageUrl, language(request));
    },
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
