/**
 * Where a detached sandbox is recorded: one small JSON file per port in the user's runtime
 * folder ($XDG_RUNTIME_DIR/foodctl, else $XDG_STATE_HOME/foodctl, else ~/.local/state/foodctl),
 * or the file `--pid-file` names. `sandbox stop` reads it; a file whose process is gone is stale.
 * A stopped sandbox's record stays (marked stopped, the newest 20 for 30 days), so a command that
 * finds nothing at its address can say how to start that sandbox again, with its flags.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isLoopbackHost } from "../hosts.js";
import { writeFileAtomic } from "../files.js";
import { xdgFolder } from "../home.js";
import { isProcessAlive, processStart } from "../processes.js";
import { checkRecord } from "../records/check.js";
import type { SandboxRecordFile } from "../records/sandboxes.js";
import * as validators from "../records/validators/sandboxes.js";
import { jsonLine } from "../sanitize.js";

/** A record as read: what an older foodctl did not write filled in (the definition: src/records/sandboxes.ts). */
export type SandboxRecord = Required<Omit<SandboxRecordFile, "start" | "stopped_at">> & { start: string | null; stopped_at: string | null };

const KEEP_STOPPED = 20;
const KEEP_STOPPED_MS = 30 * 86_400_000;

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
  if (!checkRecord(validators.SandboxRecord, data).valid) return undefined;
  const record = data as SandboxRecordFile;
  return {
    pid: record.pid,
    start: record.start ?? null,
    url: record.url,
    port: record.port,
    log: record.log ?? "",
    started_at: record.started_at ?? "",
    again: record.again ?? "",
    stopped_at: record.stopped_at ?? null,
  };
}

/** The records of the runtime folder with their files, oldest port first. */
export const listRecords = (env: NodeJS.ProcessEnv) => listPidFiles(env).map((file) => ({ file, record: readRecord(file) }));

/** The command that starts a recorded sandbox again on its port, with the flags it had. */
export const restartCommand = (record: SandboxRecord) => `foodctl sandbox --detach --port ${record.port}${record.again}`;

/**
 * For a command that found nothing listening at a loopback URL: how to start again the detached
 * sandbox that last ran on its port (stopped, or gone), when this machine recorded one.
 */
export function restartCommandAt(env: NodeJS.ProcessEnv, url: URL): string | undefined {
  if (!isLoopbackHost(url.hostname) || !url.port) return undefined;
  const record = readRecord(pidFileFor(env, Number(url.port)));
  if (!record || (record.stopped_at === null && isSandboxRunning(record))) return undefined;
  return restartCommand(record);
}

/** Marks a record stopped (kept for the restart hint), then forgets stopped ones past the newest 20 or 30 days, with their logs. */
export function markStopped(env: NodeJS.ProcessEnv, path: string, record: SandboxRecord, now: number): void {
  writeRecord(path, { ...record, stopped_at: new Date(now).toISOString() });
  const stopped = listRecords(env)
    .flatMap(({ file, record }) => (record?.stopped_at ? [{ file, port: record.port, at: Date.parse(record.stopped_at) }] : []))
    .sort((a, b) => b.at - a.at);
  for (const [index, { file, port, at }] of stopped.entries()) {
    if (index < KEEP_STOPPED && now - at <= KEEP_STOPPED_MS) continue;
    rmSync(file, { force: true });
    rmSync(join(runtimeDir(env), `sandbox-${port}.log`), { force: true });
  }
}

/**
 * Whether the recorded sandbox still runs: a process with its pid that can be shown to be it.
 * Where /proc tells, its start time must be the recorded one (a record without one, written
 * before records kept it, needs a command line of `foodctl … sandbox`); without /proc, a live pid.
 * A pid reused by another program after a crash is never taken for the sandbox, so never signalled.
 */
export function isSandboxRunning(record: Pick<SandboxRecord, "pid" | "start">): boolean {
  if (!isProcessAlive(record.pid)) return false;
  const start = processStart(record.pid);
  if (start === null) return !existsSync("/proc/self/stat");
  if (record.start !== null) return start === record.start;
  return isFoodctlSandbox(record.pid);
}

/** Whether a process's command line is foodctl's (its program or script named foodctl…) with the word `sandbox`. */
function isFoodctlSandbox(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return args.includes("sandbox") && args.slice(0, 2).some((arg) => /(^|\/)foodctl(\.c?js)?$/.test(arg));
  } catch {
    return false;
  }
}
