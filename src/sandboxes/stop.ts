/**
 * Stopping a sandbox started with `--detach`, found by its record (`--pid-file`, `--port`, the one
 * FOODCTL_API_URL points to, or the only one recorded). A record whose process is gone is stale:
 * it is removed and the stop succeeds (docs/sandbox.md, in the background).
 */
import { rmSync } from "node:fs";
import { notFoundError, unavailableError, usageError } from "../errors.js";
import { isLoopbackHost } from "../hosts.js";
import { isProcessAlive } from "../processes.js";
import type { SandboxStopOptions } from "./options.js";
import { isSandboxRunning, listPidFiles, pidFileFor, readRecord, runtimeDir, type SandboxRecord } from "./records.js";

const STOP_WAIT_MS = 5_000;
const POLL_MS = 50;

/** The port of a loopback URL (what `eval "$(foodctl sandbox --detach)"` exported), if it is one. */
function portOf(url: string | undefined): number | undefined {
  const parsed = url && URL.canParse(url) ? new URL(url) : undefined;
  return parsed?.port && isLoopbackHost(parsed.hostname) ? Number(parsed.port) : undefined;
}

/** The pid file to act on: `--pid-file`, `--port`, the sandbox FOODCTL_API_URL points to, or the only one running. */
function choosePidFile(env: NodeJS.ProcessEnv, options: SandboxStopOptions): string {
  if (options.pidFile !== undefined) return options.pidFile;
  if (options.port !== undefined) return pidFileFor(env, options.port);
  const pointedAt = portOf(env.FOODCTL_API_URL);
  if (pointedAt !== undefined && readRecord(pidFileFor(env, pointedAt))) return pidFileFor(env, pointedAt);
  const recorded = listPidFiles(env).map((file) => ({ file, record: readRecord(file) }));
  const live = recorded.filter(({ record }) => record !== undefined && isSandboxRunning(record));
  if (live.length > 1) {
    const ports = live.map(({ record }) => record?.port).join(", ");
    throw usageError(`${live.length} detached sandboxes are running (ports ${ports}): choose one with --port`);
  }
  const chosen = (live[0] ?? recorded[0])?.file;
  if (chosen === undefined) {
    throw notFoundError(`no detached sandbox is recorded in ${runtimeDir(env)}`, { hint: "a sandbox in the foreground stops with Ctrl-C" });
  }
  return chosen;
}

async function waitForExit(record: SandboxRecord, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += POLL_MS) {
    if (!isSandboxRunning(record)) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return !isSandboxRunning(record);
}

type Stopped = { record: SandboxRecord; stale: boolean; reused: boolean };

/** Stops the sandbox, or finds it gone (`stale`; `reused`: its PID is another process's now), and removes its record. */
export async function stopDetached(env: NodeJS.ProcessEnv, options: SandboxStopOptions): Promise<Stopped> {
  const path = choosePidFile(env, options);
  const record = readRecord(path);
  if (!record) throw notFoundError(`no detached sandbox is recorded in ${path}`);
  const stale = !isSandboxRunning(record);
  if (!stale) {
    process.kill(record.pid, "SIGTERM");
    if (!(await waitForExit(record, STOP_WAIT_MS))) {
      process.kill(record.pid, "SIGKILL");
      if (!(await waitForExit(record, 1_000))) throw unavailableError(`the sandbox (PID ${record.pid}) did not stop`);
    }
  }
  rmSync(path, { force: true });
  return { record, stale, reused: stale && isProcessAlive(record.pid) };
}
