/**
 * The sandbox: a local emulator of the /v2 intake-management API (docs/api.md), strict about
 * requests, with seeded users and intakes, optional persistence, rate limit and latency.
 */
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { buildApp, DEFAULT_LIMITS, type SandboxLimits } from "./app.js";
import type { TokenBook } from "./access.js";
import type { SandboxStats } from "./context.js";
import type { StateLock } from "./stateLock.js";
import { clientUrl, httpUrl, isWildcardHost, networkWarning, socketUrl } from "./network.js";
import type { RateLimitSpec } from "./rateLimit.js";
import { renderIntake } from "./render.js";
import { SEED_USERS, type SeedUser } from "./seed.js";
import { createSeedState, StateFileError, type SandboxState } from "./state.js";
import { opaqueToken, secretKey, signToken } from "./tokens.js";

export type { SandboxStats } from "./context.js";
export type { SandboxLimits } from "./app.js";
export type { RateLimitSpec } from "./rateLimit.js";
export { DEFAULT_LIMITS } from "./app.js";
export { StateFileError } from "./state.js";
export { StateLockedError } from "./stateLock.js";

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
  /** Requests each APIUser may make in any rolling window (docs/api.md, rate limit); over it → 429. */
  rateLimit?: RateLimitSpec;
  /** The rate limit's clock in milliseconds; default performance.now. Tests share a fake clock with the CLI. */
  now?: () => number;
  /** Credits the account starts with (X-Account-Credits-Remaining); default 100,000. */
  credits?: number;
  /** Delay every /v2 answer by this much. */
  latencyMs?: number;
  /** Refuse body fields a route does not use and string ids (400) instead of accepting them as the public service does. */
  strict?: boolean;
  /** Timeouts and the connection cap; each defaults to DEFAULT_LIMITS. */
  limits?: Partial<SandboxLimits>;
}

export interface SeededUserInfo {
  id: number;
  name: string;
  role: "APIUser" | "APIUserManager" | "APICompany";
  plan: string | null;
  /** The user's IANA zone: the history list reads its dates in it (docs/api.md, the history list). */
  time_zone: string;
  /** A JWT, as the sandbox has always issued. */
  token: string;
  /** 40 hex characters, as the public service issues them; accepted everywhere a JWT is. */
  opaque_token: string;
}

export interface SandboxHandle {
  /** The URL clients on this machine use, e.g. http://127.0.0.1:43123, no trailing slash. */
  url: string;
  /** The address actually listened on, e.g. http://0.0.0.0:8787 (differs from url for a wildcard host). */
  listeningUrl: string;
  /** Set when the sandbox is reachable from the network: print it. */
  networkWarning: string | null;
  /** Leftover temporary files removed beside the state file at start. */
  removedTemporaries: string[];
  users: SeededUserInfo[];
  tokenFor(name: string): string;
  opaqueTokenFor(name: string): string;
  signToken(claims: { sub: string; role: string; expiresInSeconds?: number }): Promise<string>;
  stats(): SandboxStats;
  /** Deep copy of the stored record as GET would return it; undefined for an unknown id. */
  intake(imageId: number): unknown;
  /** Stops listening, then releases the state file's lock. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";

interface LoadedState {
  state: SandboxState;
  lock: StateLock | null;
  removedTemporaries: string[];
  /** Saves the state; null without a state file. */
  persist: (() => void) | null;
  /** The file did not exist or its secret changed: write it once started. */
  needsFirstSave: boolean;
}

/** Locks the state file (when there is one), cleans what a killed sandbox left, and loads or seeds the state. */
async function loadState(options: SandboxOptions): Promise<LoadedState> {
  if (options.statePath === undefined) {
    const state = createSeedState(options.secret ?? randomBytes(32).toString("base64url"));
    return { state, lock: null, removedTemporaries: [], persist: null, needsFirstSave: false };
  }
  const { lockStateFile } = await import("./stateLock.js");
  const { removeLeftoverTemporaries } = await import("../files.js");
  const stateFile = await import("./stateFile.js");
  // Through a symbolic link, the file it names: one lock per file, however it is reached.
  const statePath = stateFile.realStatePath(options.statePath);
  const lock = await lockStateFile(statePath);
  try {
    stateFile.refuseHardLinks(statePath);
    const removedTemporaries = removeLeftoverTemporaries(statePath);
    const loaded = stateFile.loadStateFile(statePath);
    const secret = options.secret ?? loaded?.secret ?? randomBytes(32).toString("base64url");
    const state = loaded ?? createSeedState(secret);
    const needsFirstSave = loaded === null || state.secret !== secret;
    state.secret = secret;
    return { state, lock, removedTemporaries, persist: () => stateFile.saveStateFile(statePath, state), needsFirstSave };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function tokenBook(key: Uint8Array): { book: TokenBook; jwts: Map<string, string>; opaque: Map<string, string> } {
  const jwts = new Map<string, string>();
  const opaque = new Map<string, string>();
  const byOpaque = new Map<string, SeedUser>();
  for (const user of SEED_USERS) {
    jwts.set(user.name, signToken(key, { sub: String(user.id), role: user.role }));
    const token = opaqueToken(key, user.id);
    opaque.set(user.name, token);
    byOpaque.set(token, user);
  }
  return { book: { key, opaque: byOpaque }, jwts, opaque };
}

function lookup(tokens: ReadonlyMap<string, string>, name: string): string {
  const token = tokens.get(name);
  if (token === undefined) throw new Error(`unknown sandbox user "${name}" (known: ${SEED_USERS.map((u) => u.name).join(", ")})`);
  return token;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? DEFAULT_HOST;
  const loaded = await loadState(options);
  const { state, lock } = loaded;
  const key = secretKey(state.secret);
  const tokens = tokenBook(key);
  const stats: SandboxStats = { requests: {}, total_requests: 0, nutrition_calculations: 0 };
  let url = "";
  /** The address the socket listens on: `--host 0` or a name resolves to it. */
  let listening = host;
  const app = buildApp({
    // The rate limit and its clock, credits, latency, --strict and the log, as given.
    ...options,
    state,
    stats,
    tokens: tokens.book,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    imageBase: (request: FastifyRequest) =>
      isWildcardHost(listening) ? socketUrl(request.socket.localAddress, request.socket.localPort, url) : url,
    commit: () => {
      try {
        loaded.persist?.();
      } catch (error) {
        options.log?.(`state: could not save ${options.statePath}: ${(error as Error).message}`);
      }
    },
  });
  const stop = async () => {
    await app.close().catch(() => undefined);
    lock?.release();
  };
  try {
    await app.listen({ port: options.port ?? DEFAULT_PORT, host });
  } catch (error) {
    await stop();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? DEFAULT_PORT);
  listening = typeof address === "object" && address !== null ? address.address : host;
  // A wildcard is reached through loopback from this machine; any other address as it was given.
  url = clientUrl(isWildcardHost(listening) ? listening : host, port);
  const listeningUrl = httpUrl(listening, port);

  if (loaded.persist && loaded.needsFirstSave) {
    try {
      loaded.persist();
    } catch (error) {
      await stop();
      throw new StateFileError(`cannot write state file ${options.statePath}: ${(error as Error).message}`);
    }
  }
  // Warm up what the first requests need, without delaying start-up.
  void import("jose").catch(() => undefined);
  void import("image-size").catch(() => undefined);

  return handleFor({ url, listeningUrl, host: listening, state, key, tokens, stats, loaded, stop });
}

interface Started {
  url: string;
  listeningUrl: string;
  /** The address listened on. */
  host: string;
  state: SandboxState;
  key: Uint8Array;
  tokens: ReturnType<typeof tokenBook>;
  stats: SandboxStats;
  loaded: LoadedState;
  stop: () => Promise<void>;
}

function handleFor(started: Started): SandboxHandle {
  const { url, state, key, tokens, stats } = started;
  let closing: Promise<void> | null = null;
  return {
    url,
    listeningUrl: started.listeningUrl,
    networkWarning: networkWarning(started.host, started.listeningUrl),
    removedTemporaries: started.loaded.removedTemporaries,
    users: SEED_USERS.map((user) => ({
      ...{ id: user.id, name: user.name, role: user.role, plan: user.plan, time_zone: user.timeZone },
      token: lookup(tokens.jwts, user.name),
      opaque_token: lookup(tokens.opaque, user.name),
    })),
    tokenFor: (name) => lookup(tokens.jwts, name),
    opaqueTokenFor: (name) => lookup(tokens.opaque, name),
    signToken: async (claims) => signToken(key, claims),
    stats: () => structuredClone(stats),
    intake(imageId) {
      const intake = state.intakes.get(imageId);
      if (!intake) return undefined;
      return structuredClone(renderIntake(intake, state.images, (name) => `${url}/images/${name}`, "eng"));
    },
    close() {
      closing ??= started.stop();
      return closing;
    },
  };
}
