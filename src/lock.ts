/**
 * Lock files, one way for every file that several processes share: the config file and the
 * journal wait for a live holder (withFileLock), a sandbox's state file refuses one at once
 * (takeLock with no wait). A lock is created exclusively and names its owner (pid and start time,
 * src/processes.ts); it is stale, and taken over, when that process is gone (a pid reused by a
 * later process, this one included, is not its owner), or when it names no process and is older
 * than a few seconds (its writer died, or the disk filled, between creating it and writing).
 */
import { closeSync, constants, lstatSync, openSync, readSync, unlinkSync, type Stats } from "node:fs";
import { writeAll } from "./files.js";
import { systemClock } from "./clock.js";
import { formatProcessId, isRunning, parseProcessId, thisProcess, type ProcessId } from "./processes.js";

/** How long a config or journal writer waits for another one to finish before giving up. */
const LOCK_WAIT_MS = 10_000;
/** A lock without a pid this old was left half made: its pid is written right after it is created. */
export const PIDLESS_LOCK_STALE_MS = 5_000;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export type LockHolder = { kind: "gone" } | { kind: "stale" } | { kind: "held"; pid: number | null };

/**
 * Who holds an existing lock: nobody any more, a stale holder, or a live process (pid null: not
 * written yet). On the system clock, never a test's: a lock ages with the file system's mtimes and other processes.
 */
export function lockHolder(lock: string, now = systemClock.now()): LockHolder {
  let info: Stats;
  try {
    info = lstatSync(lock);
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? { kind: "gone" } : { kind: "held", pid: null };
  }
  // Anything but a regular file (a planted link, a FIFO) holds no pid: stale once old enough.
  const owner = info.isFile() ? readLockOwner(lock) : null;
  if (owner === null) return now - info.mtimeMs >= PIDLESS_LOCK_STALE_MS ? { kind: "stale" } : { kind: "held", pid: null };
  return ownerRuns(owner) ? { kind: "held", pid: owner.pid } : { kind: "stale" };
}

/**
 * Whether the process a lock names still runs. With this process's pid, it must be this process
 * (another writer of this run): a lock of an earlier process that had the same pid is stale.
 */
function ownerRuns(owner: ProcessId): boolean {
  const self = thisProcess();
  if (owner.pid === self.pid) return owner.start === self.start;
  return isRunning(owner);
}

/** The process a lock file names, read without following a link or waiting on a FIFO; null when it names none. */
function readLockOwner(lock: string): ProcessId | null {
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(64);
    return parseProcessId(buffer.toString("utf8", 0, readSync(fd, buffer, 0, buffer.length, 0)));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export interface LockErrors {
  /** The lock cannot be created, or its pid not written (the folder is not writable, the disk is full). */
  cannotCreate: (error: Error) => Error;
  /** A live process held it for longer than the wait (pid null: its pid not written yet). */
  busy: (pid: number | null) => Error;
}

/** Creates the lock naming this process; false when it exists. A lock whose owner cannot be written is removed. */
function createLock(lock: string, errors: LockErrors): boolean {
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw errors.cannotCreate(error as Error);
  }
  try {
    try {
      writeAll(fd, `${formatProcessId(thisProcess())}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    removeFile(lock);
    throw errors.cannotCreate(error as Error);
  }
  return true;
}

/**
 * Takes `lock`, taking over a stale one. A live holder is waited for up to `waitMs` (0: refused at
 * once); a lock without a pid yet, until it has one or grows stale.
 */
export async function takeLock(lock: string, errors: LockErrors, waitMs: number): Promise<void> {
  const deadline = systemClock.now() + waitMs;
  for (;;) {
    if (createLock(lock, errors)) return;
    const holder = lockHolder(lock);
    if (holder.kind === "stale") removeFile(lock);
    if (holder.kind !== "held") continue;
    const now = systemClock.now();
    if ((holder.pid !== null && now >= deadline) || now >= deadline + PIDLESS_LOCK_STALE_MS) throw errors.busy(holder.pid);
    await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 10));
  }
}

/** Removes `lock` when it is still this process's. */
export function releaseLock(lock: string): void {
  const owner = readLockOwner(lock);
  if (owner !== null && owner.pid === process.pid && owner.start === thisProcess().start) removeFile(lock);
}

/** Runs `work` holding `lock` (a path), so concurrent read-change-writes both land. */
export async function withFileLock<T>(lock: string, errors: LockErrors, work: () => Promise<T>): Promise<T> {
  await takeLock(lock, errors, LOCK_WAIT_MS);
  try {
    return await work();
  } finally {
    releaseLock(lock);
  }
}

/** Removes a file; one that is already gone is no error. */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  }
}
