/**
 * An exclusive lock file beside a file that several foodctl processes change at once (the config
 * file, the journal). A lock left by a process that died is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** How long a writer waits for another one to finish before giving up. */
const LOCK_WAIT_MS = 10_000;

function lockHolderIsGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, "utf8").trim());
  } catch {
    return false; // gone already, or being written: try again
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export interface LockErrors {
  /** The lock cannot be created at all (the folder is not writable). */
  cannotCreate: (error: Error) => Error;
  /** Another process held it for longer than the wait. */
  busy: () => Error;
}

/** Runs `work` holding `lock` (a path), so concurrent read-change-writes both land. */
export async function withFileLock<T>(lock: string, errors: LockErrors, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw errors.cannotCreate(error as Error);
      if (lockHolderIsGone(lock)) {
        removeLock(lock);
        continue;
      }
      if (Date.now() > deadline) throw errors.busy();
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 10));
    }
  }
  try {
    return await work();
  } finally {
    removeLock(lock);
  }
}

/** Removes the lock file; one that is already gone is no error. */
function removeLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
