/**
 * Which process a pid names. A pid alone is not enough: pids are reused (in a container foodctl is
 * often pid 1 in every run), so a lock and a sandbox's record also keep the process's start time,
 * from /proc where there is one, and a process with that pid but another start time is not theirs.
 */
import { readFileSync } from "node:fs";

/** A process as a lock or a record names it: its pid, and its start time where the system tells (null elsewhere). */
export interface ProcessId {
  pid: number;
  start: string | null;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Whether a process with this pid exists (EPERM: it does, run by another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** A field of /proc/<pid>/stat, counted from the state (field 3), after the name in parentheses (which may hold spaces). */
export function procStatField(pid: number | "self", field: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[field - 3] ?? null;
  } catch {
    return null;
  }
}

/** When the process started, in clock ticks since boot (/proc/<pid>/stat, field 22); null where /proc does not tell. */
export function processStart(pid: number | "self"): string | null {
  const start = procStatField(pid, 22);
  return start !== null && /^[0-9]{1,20}$/.test(start) ? start : null;
}

let self: ProcessId | undefined;
/** This process, as a lock or record names it. */
export function thisProcess(): ProcessId {
  return (self ??= { pid: process.pid, start: processStart("self") });
}

/**
 * Whether the process named is still running: its pid lives and, where both start times are
 * known, it started when the name says (another start time: the pid was reused).
 */
export function isRunning(id: ProcessId): boolean {
  if (!isProcessAlive(id.pid)) return false;
  if (id.start === null) return true;
  const start = processStart(id.pid);
  return start === null || start === id.start;
}

/** A process's name as written in a lock: `pid start` (or `pid` where there is no start time). */
export const formatProcessId = (id: ProcessId): string => (id.start === null ? `${id.pid}` : `${id.pid} ${id.start}`);

/** The process named by a lock's text (`pid` or `pid start`); null when it names none. */
export function parseProcessId(text: string): ProcessId | null {
  const match = /^([1-9][0-9]{0,9})(?: ([0-9]{1,20}))?$/.exec(text.trim());
  if (!match) return null;
  const pid = Number(match[1]);
  return pid <= 2 ** 31 - 1 ? { pid, start: match[2] ?? null } : null;
}
