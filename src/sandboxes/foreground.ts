/** A sandbox run in this process (in the foreground, or as a detached one's own): listening, what holds a busy port, until when it runs. */
import { unavailableError, usageError } from "../errors.js";
import type { IO } from "../io.js";
import { isProcessAlive, procStatField } from "../processes.js";
import type { SandboxHandle } from "../sandbox/server.js";
import type { SandboxCommandOptions } from "./options.js";
import { isSandboxRunning, pidFileFor, readRecord } from "./records.js";

/** A port already taken: say by what when we know, and how to get a free one. */
export function portInUseMessage(io: IO, options: SandboxCommandOptions, port: number): string {
  const where = `port ${port} on ${options.host} is already in use`;
  const record = readRecord(pidFileFor(io.env, port));
  if (record && record.stopped_at === null && isSandboxRunning(record)) {
    return `${where} by a detached sandbox (PID ${record.pid}): stop it with \`foodctl sandbox stop --port ${port}\`, or start with --port 0 for a free port`;
  }
  if (options.port === undefined) return `${where} (another sandbox?): start with --port 0 for a free port`;
  return `${where}: choose another with --port (0 picks a free one)`;
}

export async function listen(io: IO, options: SandboxCommandOptions): Promise<SandboxHandle> {
  const { startSandbox, StateFileError, DEFAULT_PORT } = await import("../sandbox/server.js");
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

/** Whether the process that started this one still is its parent: Node reads `process.ppid` once, so ask /proc, else whether it lives. */
function parentIsAlive(parent: number): boolean {
  const ppid = procStatField("self", 4);
  return ppid === null ? isProcessAlive(parent) : Number(ppid) === parent;
}

/**
 * Resolves when the run's signal aborts or, unless detached, when the process that started
 * the sandbox ends (its parent changes): `npx foodctl sandbox &` then `kill %1` leaves no orphan.
 */
export function stopRequested(signal: AbortSignal, watchParent: boolean): Promise<"signal" | "parent"> {
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
