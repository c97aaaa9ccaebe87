/**
 * Where a detached sandbox is recorded: one small JSON file per port in the user's runtime
 * folder ($XDG_RUNTIME_DIR/foodctl, else $XDG_STATE_HOME/foodctl, else ~/.local/state/foodctl),
 * or the file `--pid-file` names. `sandbox stop` reads it; a file whose process is gone is stale.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../files.js";
import { xdgFolder } from "../../home.js";
import { isProcessAlive } from "../../lock.js";
import { jsonLine } from "../../sanitize.js";

export interface SandboxRecord {
  pid: number;
  url: string;
  port: number;
  log: string;
  started_at: string;
}

export function runtimeDir(env: NodeJS.ProcessEnv): string {
  return env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "foodctl") : xdgFolder(env, "XDG_STATE_HOME", ".local", "state");
}

export const pidFileFor = (env: NodeJS.ProcessEnv, port: number) => join(runtimeDir(env), `sandbox-${port}.json`);

/** The pid files of the runtime folder, oldest port first. */
export function listPidFiles(env: NodeJS.ProcessEnv): string[] {
  const dir = runtimeDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ports = names.map((name) => /^sandbox-(\d+)\.json$/.exec(name)?.[1]).filter((port): port is string => port !== undefined);
  return ports.sort((a, b) => Number(a) - Number(b)).map((port) => join(dir, `sandbox-${port}.json`));
}

export function writeRecord(path: string, record: SandboxRecord): void {
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${jsonLine(record)}\n`, { mode: 0o600 });
}

/** The record in a pid file; undefined when there is no file or it is not one of ours. */
export function readRecord(path: string): SandboxRecord | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null) return undefined;
  const { pid, url, port, log, started_at } = data as Record<string, unknown>;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || typeof url !== "string" || typeof port !== "number") return undefined;
  return { pid, url, port, log: typeof log === "string" ? log : "", started_at: typeof started_at === "string" ? started_at : "" };
}

export function removeRecord(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Whether this PID is still a foodctl sandbox: the process exists and, where /proc tells, its
 * command line says `sandbox` (a PID reused by another program after a crash is not ours).
 */
export function isSandboxRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("sandbox");
  } catch {
    return true;
  }
}
