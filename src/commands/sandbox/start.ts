/**
 * `foodctl sandbox`: runs the local emulator of the API in the foreground until the run's
 * signal aborts (Ctrl-C, SIGTERM) or the process that started it ends, prints its URL and the
 * seeded users once it is listening, and logs one line per request on stderr. `--detach`
 * hands over to detach.ts (docs/sandbox.md, starting it).
 */
import { Context } from "../../context.js";
import { failure, unavailableError, usageError } from "../../errors.js";
import type { IO } from "../../io.js";
import { isProcessAlive, procStatField } from "../../processes.js";
import { renderEnvLines, renderNetworkWarning, renderStartJson, renderStartText, type SandboxUserView } from "../../output/sandbox.js";
import type { SandboxHandle } from "../../sandbox/server.js";
import { DETACHED_ENV, type SandboxCommandOptions } from "../../sandboxes/options.js";
import { isSandboxRunning, pidFileFor, readRecord } from "../../sandboxes/records.js";
import { checkUserName, chooseExport, userViews } from "../../sandboxes/users.js";

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** A port already taken: say by what when we know, and how to get a free one. */
export function portInUseMessage(io: IO, options: SandboxCommandOptions, port: number): string {
  const where = `port ${port} on ${options.host} is already in use`;
  const record = readRecord(pidFileFor(io.env, port));
  if (record && isSandboxRunning(record)) {
    return `${where} by a detached sandbox (PID ${record.pid}): stop it with \`foodctl sandbox stop --port ${port}\`, or start with --port 0 for a free port`;
  }
  if (options.port === undefined) return `${where} (another sandbox?): start with --port 0 for a free port`;
  return `${where}: choose another with --port (0 picks a free one)`;
}

async function listen(io: IO, options: SandboxCommandOptions): Promise<SandboxHandle> {
  const { startSandbox, StateFileError, DEFAULT_PORT } = await import("../../sandbox/server.js");
  const port = options.port ?? DEFAULT_PORT;
  try {
    return await startSandbox({
      port,
      host: options.host,
      statePath: options.state,
      rateLimit: options.rateLimit,
      latencyMs: options.latencyMs,
      strict: options.strict,
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
  const ppid = procStatField("self", 4);
  return ppid === null ? isProcessAlive(parent) : Number(ppid) === parent;
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

function printStartup(ctx: Context, options: SandboxCommandOptions, handle: SandboxHandle, users: SandboxUserView[]): Promise<void> {
  const { io } = ctx;
  // docs/sandbox.md, safety: a sandbox others can reach says so, in every mode.
  if (handle.networkWarning) io.stderr.write(renderNetworkWarning(handle.networkWarning, io.color.stderr));
  // A detached sandbox's launcher reads the warning from the JSON and prints it.
  const extra = handle.networkWarning ? { listening_url: handle.listeningUrl, network_warning: handle.networkWarning } : {};
  const out = envWinsOverJson(ctx, options);
  const exported = out.json ? undefined : chooseExport(handle.url, users, options);
  if (exported?.note) io.stderr.write(`${exported.note}\n`);
  return out.print({
    jsonBody: renderStartJson(handle.url, users, extra),
    text: (stream, color) =>
      !exported ? "" : options.env ? renderEnvLines(exported.env) : renderStartText(stream, color, handle.url, users, exported.env),
  });
}

/** `--env` prints the export lines, also with `--json`: the context to print them through. */
export function envWinsOverJson(ctx: Context, options: Pick<SandboxCommandOptions, "env">): Context {
  return options.env && ctx.json ? new Context(ctx.io, { ...ctx.globals, json: false }, ctx.signal, ctx.services) : ctx;
}

export async function sandboxCommand(ctx: Context, options: SandboxCommandOptions): Promise<number> {
  const { SEED_USERS } = await import("../../sandbox/seed.js");
  checkUserName(SEED_USERS, options.as);
  if (options.detach) return (await import("./detach.js")).detachSandbox(ctx, options);
  const handle = await listen(ctx.io, options);
  let why: "signal" | "parent";
  try {
    await printStartup(ctx, options, handle, userViews(handle, SEED_USERS));
    why = await stopRequested(ctx.signal, ctx.io.env[DETACHED_ENV] !== "1");
  } finally {
    await handle.close().catch((error: unknown) => {
      throw failure(`the sandbox did not close cleanly: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  if (why === "parent") ctx.io.stderr.write("sandbox stopped: the process that started it has ended\n");
  else if (ctx.io.stderr.isTTY) ctx.io.stderr.write("sandbox stopped\n");
  return 0;
}
