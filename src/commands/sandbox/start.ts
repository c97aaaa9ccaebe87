/**
 * `foodctl sandbox`: runs the local emulator of the API in the foreground until the run's
 * signal aborts (Ctrl-C, SIGTERM) or the process that started it ends, prints its URL and the
 * seeded users once it is listening, and logs one line per request on stderr. `--detach`
 * hands over to detach.ts (docs/sandbox.md, starting it).
 */
import { readFileSync } from "node:fs";
import { failure, unavailableError, usageError } from "../../errors.js";
import type { IO } from "../../io.js";
import { renderEnvLines, renderStartJson, renderStartText, type EnvExport, type SandboxUserView } from "../../output/sandbox.js";
import type { SeedUser } from "../../sandbox/seed.js";
import type { SandboxHandle } from "../../sandbox/server.js";
import type { SandboxCommandOptions } from "./index.js";
import { isSandboxRunning, pidFileFor, readRecord } from "./pidFile.js";

export interface SandboxDeps {
  io: IO;
  json: boolean;
  /** Aborted on Ctrl-C or SIGTERM: the sandbox closes and the command returns 0. */
  signal: AbortSignal;
  /** How to run this CLI again, for `--detach` (default: this process's node and script). */
  launcher?: readonly string[];
}

/** Set in a detached sandbox's environment: it outlives the process that started it. */
export const DETACHED_ENV = "FOODCTL_SANDBOX_DETACHED";
export const DEFAULT_PORT = 8787;

/** The seeded users with what the command prints about them; the opaque token once the server has one. */
export function userViews(
  handle: { users: ReadonlyArray<Omit<SandboxUserView, "manages">> },
  seed: readonly SeedUser[],
): SandboxUserView[] {
  return handle.users.map((user) => {
    const opaque =
      (user as { opaqueToken?: unknown; opaque_token?: unknown }).opaqueToken ?? (user as { opaque_token?: unknown }).opaque_token;
    const manages = seed.find((seeded) => seeded.name === user.name)?.manages ?? [];
    return { ...user, manages, ...(typeof opaque === "string" ? { opaque_token: opaque } : {}) };
  });
}

/** Refuses an unknown `--as` before anything starts. */
export function checkUserName(seed: readonly SeedUser[], name: string | undefined): void {
  if (name !== undefined && !seed.some((user) => user.name === name)) {
    throw usageError(`unknown sandbox user "${name}" (known: ${seed.map((user) => user.name).join(", ")})`);
  }
}

/**
 * What `--env` exports for `--as`: that user's token; a manager or a company also gets
 * FOODCTL_USER for the first of its users (a manager's token alone cannot read intakes), and
 * a note saying which.
 */
export function chooseExport(
  url: string,
  users: SandboxUserView[],
  options: Pick<SandboxCommandOptions, "as" | "tokenKind">,
): { env: EnvExport; note?: string } {
  const chosen = users.find((user) => (options.as === undefined ? user.role === "APIUser" : user.name === options.as)) ?? users[0];
  if (!chosen) throw failure("the sandbox has no users");
  const token = options.tokenKind === "opaque" ? chosen.opaque_token : chosen.token;
  if (token === undefined) throw usageError("this sandbox has no opaque tokens; use --token-kind jwt");
  const actingFor = users.find((user) => user.id === chosen.manages[0]);
  if (!actingFor) return { env: { url, token } };
  const others = users.filter((user) => chosen.manages.includes(user.id) && user !== actingFor).map((user) => user.name);
  const also = others.length ? ` (also: ${others.join(", ")})` : "";
  return {
    env: { url, token, user: actingFor.id },
    note: `${chosen.name} is an ${chosen.role}: FOODCTL_USER=${actingFor.id} acts for ${actingFor.name}, one of ${chosen.name}'s users${also}`,
  };
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** A port already taken: say by what when we know, and how to get a free one. */
export function portInUseMessage(io: IO, options: SandboxCommandOptions, port: number): string {
  const where = `port ${port} on ${options.host} is already in use`;
  const record = readRecord(pidFileFor(io.env, port));
  if (record && isSandboxRunning(record.pid)) {
    return `${where} by a detached sandbox (PID ${record.pid}): stop it with \`foodctl sandbox stop\`, or start with --port 0 for a free port`;
  }
  if (options.port === undefined) return `${where} (another sandbox?): start with --port 0 for a free port`;
  return `${where}: choose another with --port (0 picks a free one)`;
}

async function listen(io: IO, options: SandboxCommandOptions): Promise<SandboxHandle> {
  const { startSandbox, StateFileError } = await import("../../sandbox/server.js");
  const port = options.port ?? DEFAULT_PORT;
  try {
    return await startSandbox({
      port,
      host: options.host,
      statePath: options.state,
      rateLimit: options.rateLimit,
      latencyMs: options.latencyMs,
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (error instanceof StateFileError) throw usageError(error.message);
    if (errorCode(error) === "EADDRINUSE") throw unavailableError(portInUseMessage(io, options, port));
    throw unavailableError(`cannot listen on ${options.host}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Whether the process that started this one still is its parent. Node's `process.ppid` is read
 * once at start, so ask the system: /proc where there is one, else whether that PID lives.
 */
function parentIsAlive(parent: number): boolean {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
  } catch {
    try {
      process.kill(parent, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  }
}

/**
 * Resolves when the run's signal aborts or, unless detached, when the process that started
 * the sandbox ends (its parent changes): `npx foodctl sandbox &` then `kill %1` leaves no orphan.
 */
function stopRequested(signal: AbortSignal, watchParent: boolean): Promise<"signal" | "parent"> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve("signal");
    const parent = process.ppid;
    let timer: NodeJS.Timeout | undefined;
    const done = (why: "signal" | "parent") => {
      clearInterval(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(why);
    };
    const onAbort = () => done("signal");
    signal.addEventListener("abort", onAbort);
    if (watchParent) {
      timer = setInterval(() => parentIsAlive(parent) || done("parent"), 250);
      timer.unref();
    }
  });
}

function printStartup(deps: SandboxDeps, options: SandboxCommandOptions, handle: SandboxHandle, users: SandboxUserView[]): void {
  const { io } = deps;
  if (!options.env && deps.json) {
    io.stdout.write(renderStartJson(handle.url, users));
    return;
  }
  const { env, note } = chooseExport(handle.url, users, options);
  if (note) io.stderr.write(`${note}\n`);
  io.stdout.write(options.env ? renderEnvLines(env) : renderStartText(io.stdout, io.color.stdout, handle.url, users, env));
}

export async function sandboxCommand(deps: SandboxDeps, options: SandboxCommandOptions): Promise<number> {
  const { SEED_USERS } = await import("../../sandbox/seed.js");
  checkUserName(SEED_USERS, options.as);
  if (options.detach) return (await import("./detach.js")).detachSandbox(deps, options);
  const handle = await listen(deps.io, options);
  let why: "signal" | "parent";
  try {
    printStartup(deps, options, handle, userViews(handle, SEED_USERS));
    why = await stopRequested(deps.signal, deps.io.env[DETACHED_ENV] !== "1");
  } finally {
    await handle.close().catch((error: unknown) => {
      throw failure(`the sandbox did not close cleanly: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  if (why === "parent") deps.io.stderr.write("sandbox stopped: the process that started it has ended\n");
  else if (deps.io.stderr.isTTY) deps.io.stderr.write("sandbox stopped\n");
  return 0;
}
