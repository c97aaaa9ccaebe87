/**
 * `foodctl sandbox stop`: stops a sandbox started with `--detach`, found by its pid file
 * (`--pid-file`, `--port`, the one FOODCTL_API_URL points to, or the only one recorded). A record whose process is gone is
 * stale: it is removed and the stop succeeds (docs/sandbox.md, in the background).
 */
import { rmSync } from "node:fs";
import { notFoundError, unavailableError, usageError } from "../../errors.js";
import { renderStopJson } from "../../output/sandbox.js";
import { isProcessAlive } from "../../processes.js";
import type { Context } from "../../context.js";
import type { SandboxStopOptions } from "../../sandboxes/options.js";
import { isSandboxRunning, listPidFiles, pidFileFor, readRecord, runtimeDir, type SandboxRecord } from "../../sandboxes/records.js";

const STOP_WAIT_MS = 5_000;
const POLL_MS = 50;

/** The port of a loopback URL (what `eval "$(foodctl sandbox --detach)"` exported), if it is one. */
function portOf(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname) && parsed.port ? Number(parsed.port) : undefined;
  } catch {
    return undefined;
  }
}

/** The pid file to act on: `--pid-file`, `--port`, the sandbox FOODCTL_API_URL points to, or the only one running. */
function choosePidFile(env: NodeJS.ProcessEnv, options: SandboxStopOptions): string {
  if (options.pidFile !== undefined) return options.pidFile;
  if (options.port !== undefined) return pidFileFor(env, options.port);
  const pointedAt = portOf(env.FOODCTL_API_URL);
  if (pointedAt !== undefined && readRecord(pidFileFor(env, pointedAt))) return pidFileFor(env, pointedAt);
  const files = listPidFiles(env);
  const live = files.filter((file) => {
    const record = readRecord(file);
    return record !== undefined && isSandboxRunning(record);
  });
  if (live.length > 1) {
    const ports = live.map((file) => readRecord(file)?.port).join(", ");
    throw usageError(`${live.length} detached sandboxes are running (ports ${ports}): choose one with --port`);
  }
  const chosen = live[0] ?? files[0];
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

function report(ctx: Context, record: SandboxRecord, stale: boolean): Promise<number> {
  const reused = stale && isProcessAlive(record.pid) ? ` (PID ${record.pid} is another process now, left alone)` : "";
  const note = stale
    ? `the sandbox on ${record.url} (PID ${record.pid}) was not running${reused}; removed its stale record`
    : `stopped the sandbox on ${record.url} (PID ${record.pid})`;
  return ctx.print({ jsonBody: renderStopJson(record, stale), note }).then(() => 0);
}

export async function stopSandbox(ctx: Context, options: SandboxStopOptions): Promise<number> {
  const path = choosePidFile(ctx.io.env, options);
  const record = readRecord(path);
  if (!record) throw notFoundError(`no detached sandbox is recorded in ${path}`);
  if (!isSandboxRunning(record)) {
    rmSync(path, { force: true });
    return report(ctx, record, true);
  }
  process.kill(record.pid, "SIGTERM");
  if (!(await waitForExit(record, STOP_WAIT_MS))) {
    process.kill(record.pid, "SIGKILL");
    if (!(await waitForExit(record, 1_000))) throw unavailableError(`the sandbox (PID ${record.pid}) did not stop`);
  }
  rmSync(path, { force: true });
  return report(ctx, record, false);
}
