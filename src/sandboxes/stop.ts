/**
 * Stopping a sandbox started with `--detach`, found by its record (`--pid-file`, `--port`, the one
 * FOODCTL_API_URL points to, or the only one recorded). A record whose process is gone is stale:
 * it is marked stopped and the stop succeeds; a stopped one is exit 6 with how to start it again
 * (docs/sandbox.md, in the background).
 */
import { rmSync } from "node:fs";
import { notFoundError, unavailableError, usageError } from "../errors.js";
import { isLoopbackHost } from "../hosts.js";
import { isProcessAlive } from "../processes.js";
import type { SandboxStopOptions } from "./options.js";
import type { Context } from "../context.js";
import { isSandboxRunning, listRecords, markStopped, pidFileFor, readRecord, restartCommand, runtimeDir } from "./records.js";
import type { SandboxRecord } from "./records.js";

const STOP_WAIT_MS = 5_000;
const POLL_MS = 50;

/** The port of a loopback URL (what `eval "$(foodctl sandbox --detach)"` exported), if it is one. */
function portOf(url: string | undefined): number | undefined {
  const parsed = url && URL.canParse(url) ? new URL(url) : undefined;
  return parsed?.port && isLoopbackHost(parsed.hostname) ? Number(parsed.port) : undefined;
}

/**
 * The pid file to act on: `--pid-file`, `--port`, the running sandbox FOODCTL_API_URL points to,
 * or the only one running; when none runs, the stopped one it points to, else the last stopped.
 */
function choosePidFile(env: NodeJS.ProcessEnv, options: SandboxStopOptions): string {
  if (options.pidFile !== undefined) return options.pidFile;
  if (options.port !== undefined) return pidFileFor(env, options.port);
  const pointedAt = portOf(env.FOODCTL_API_URL);
  const recorded = listRecords(env).filter((entry): entry is { file: string; record: SandboxRecord } => entry.record !== undefined);
  const pointed = ({ record }: { record: SandboxRecord }) => record.port === pointedAt;
  const active = recorded.filter(({ record }) => record.stopped_at === null);
  const live = active.filter(({ record }) => isSandboxRunning(record));
  if (live.length > 1 && !active.some(pointed)) {
    const ports = live.map(({ record }) => record.port).join(", ");
    throw usageError(`${live.length} detached sandboxes are running (ports ${ports}): choose one with --port`);
  }
  const stopped = recorded
    .filter(({ record }) => record.stopped_at !== null)
    .sort((a, b) => b.record.stopped_at!.localeCompare(a.record.stopped_at!));
  const chosen = active.find(pointed) ?? live[0] ?? active[0] ?? stopped.find(pointed) ?? stopped[0];
  if (chosen === undefined) {
    throw notFoundError(`no detached sandbox is recorded in ${runtimeDir(env)}`, { hint: "a sandbox in the foreground stops with Ctrl-C" });
  }
  return chosen.file;
}

async function waitForExit(record: SandboxRecord, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += POLL_MS) {
    if (!isSandboxRunning(record)) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return !isSandboxRunning(record);
}

type Stopped = { record: SandboxRecord; stale: boolean; reused: boolean };

/**
 * Stops the sandbox, or finds it gone (`stale`; `reused`: its PID is another process's now), and
 * marks its record stopped (a `--pid-file` record is removed). One stopped already is exit 6.
 */
export async function stopDetached(ctx: Context, options: SandboxStopOptions): Promise<Stopped> {
  const env = ctx.io.env;
  const path = choosePidFile(env, options);
  const record = readRecord(path);
  if (!record) throw notFoundError(`no detached sandbox is recorded in ${path}`);
  if (record.stopped_at !== null) {
    throw notFoundError(`the sandbox on ${record.url} (PID ${record.pid}) was stopped at ${record.stopped_at}: nothing to stop`, {
      hint: `start it again: eval "$(${restartCommand(record)})"`,
    });
  }
  const stale = !isSandboxRunning(record);
  if (!stale) {
    process.kill(record.pid, "SIGTERM");
    if (!(await waitForExit(record, STOP_WAIT_MS))) {
      process.kill(record.pid, "SIGKILL");
      if (!(await waitForExit(record, 1_000))) throw unavailableError(`the sandbox (PID ${record.pid}) did not stop`);
    }
  }
  if (options.pidFile === undefined) markStopped(env, path, record, ctx.now());
  else rmSync(path, { force: true });
  return { record, stale, reused: stale && isProcessAlive(record.pid) };
}
