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

type Recorded = { file: string; record: SandboxRecord };

/**
 * The pid file to act on: `--pid-file`, `--port`, the sandbox FOODCTL_API_URL points to (running
 * or stopped: never another one in its place), or the only one running; when none runs, the last
 * stopped. With it, the sandboxes still running, for the hint of a stopped one.
 */
function choosePidFile(env: NodeJS.ProcessEnv, options: SandboxStopOptions): { file: string; running: Recorded[] } {
  const recorded = listRecords(env).filter((entry): entry is Recorded => entry.record !== undefined);
  const running = recorded.filter(({ record }) => record.stopped_at === null && isSandboxRunning(record));
  if (options.pidFile !== undefined) return { file: options.pidFile, running };
  if (options.port !== undefined) return { file: pidFileFor(env, options.port), running };
  const pointedAt = portOf(env.FOODCTL_API_URL);
  const pointed = recorded.find(({ record }) => record.port === pointedAt);
  if (pointed) return { file: pointed.file, running };
  if (running.length > 1) {
    const ports = running.map(({ record }) => record.port).join(", ");
    throw usageError(`${running.length} detached sandboxes are running (ports ${ports}): choose one with --port`);
  }
  const active = recorded.filter(({ record }) => record.stopped_at === null);
  const stopped = recorded
    .filter(({ record }) => record.stopped_at !== null)
    .sort((a, b) => b.record.stopped_at!.localeCompare(a.record.stopped_at!));
  const chosen = running[0] ?? active[0] ?? stopped[0];
  if (chosen === undefined) {
    throw notFoundError(`no detached sandbox is recorded in ${runtimeDir(env)}`, { hint: "a sandbox in the foreground stops with Ctrl-C" });
  }
  return { file: chosen.file, running };
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
  const { file: path, running } = choosePidFile(env, options);
  const record = readRecord(path);
  if (!record) throw notFoundError(`no detached sandbox is recorded in ${path}`);
  if (record.stopped_at !== null) {
    // Another one running is named, for the user who meant that one: it is not stopped in this one's place.
    const others = running.filter((entry) => entry.record.port !== record.port).map((entry) => `--port ${entry.record.port}`);
    const other = others.length ? `; or stop the one running: foodctl sandbox stop ${others.join(" or ")}` : "";
    throw notFoundError(`the sandbox on ${record.url} (PID ${record.pid}) was stopped at ${record.stopped_at}: nothing to stop`, {
      hint: `start it again: eval "$(${restartCommand(record)})"${other}`,
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
