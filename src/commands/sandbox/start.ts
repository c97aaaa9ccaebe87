/**
 * `foodctl sandbox`: runs the local emulator of the API in the foreground until the run's
 * signal aborts (Ctrl-C, SIGTERM) or the process that started it ends, prints its URL and the
 * seeded users once it is listening, and logs one line per request on stderr. `--detach`
 * starts it in the background (src/sandboxes/detach.ts) and prints its export lines (docs/sandbox.md, starting it).
 */
import { Context } from "../../context.js";
import { failure, unavailableError, usageError } from "../../errors.js";
import type { IO } from "../../io.js";
import { isProcessAlive, procStatField } from "../../processes.js";
import { renderDetached, renderEnvLines, renderNetworkWarning, renderStartJson, renderStartText } from "../../output/sandbox.js";
import type { SandboxHandle } from "../../sandbox/server.js";
import type { DetachedSandbox, Started } from "../../sandboxes/detach.js";
import { DETACHED_ENV, type SandboxCommandOptions } from "../../sandboxes/options.js";
import { isSandboxRunning, pidFileFor, readRecord } from "../../sandboxes/records.js";
import { checkUserName, chooseExport, userViews } from "../../sandboxes/users.js";

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
    if ((error as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE") throw unavailableError(portInUseMessage(io, options, port));
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

/** The start-up output of a sandbox that listens (in this process, or detached): the JSON line, the export lines or the users. */
function printStarted(ctx: Context, options: SandboxCommandOptions, started: Started, detached?: DetachedSandbox): Promise<void> {
  const { io } = ctx;
  const { url, users, networkWarning, listeningUrl } = started;
  // docs/sandbox.md, safety: a sandbox others can reach says so, in every mode.
  if (networkWarning) io.stderr.write(renderNetworkWarning(networkWarning, io.color.stderr));
  // A detached sandbox's launcher reads the warning from the JSON and prints it.
  const network = networkWarning ? { listening_url: listeningUrl, network_warning: networkWarning } : {};
  const where = detached && { pid: detached.pid, port: detached.port, log: detached.log, pid_file: detached.pidFile };
  // --env prints the export lines, also with --json.
  const out = options.env && ctx.json ? new Context(io, { ...ctx.globals, json: false }, ctx.signal, ctx.services) : ctx;
  const exported = out.json ? undefined : chooseExport(url, users, options);
  if (exported?.note) io.stderr.write(`${exported.note}\n`);
  return out.print({
    jsonBody: renderStartJson(url, users, { ...where, ...network }),
    text: (stream, color) => {
      if (!exported) return "";
      if (detached) return renderDetached(detached, exported.env, stopCommand(options, detached));
      return options.env ? renderEnvLines(exported.env) : renderStartText(stream, color, url, users, exported.env);
    },
  });
}

const stopCommand = (options: SandboxCommandOptions, { port, pidFile }: DetachedSandbox) =>
  options.pidFile === undefined ? `foodctl sandbox stop --port ${port}` : `foodctl sandbox stop --pid-file ${pidFile}`;

export async function sandboxCommand(ctx: Context, options: SandboxCommandOptions): Promise<number> {
  const { SEED_USERS } = await import("../../sandbox/seed.js");
  checkUserName(SEED_USERS, options.as);
  if (options.detach) {
    const { startDetached } = await import("../../sandboxes/detach.js");
    const detached = await startDetached(ctx, options);
    await printStarted(ctx, options, detached, detached);
    return 0;
  }
  const handle = await listen(ctx.io, options);
  let why: "signal" | "parent";
  try {
    await printStarted(ctx, options, { ...handle, users: userViews(handle, SEED_USERS) });
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
