/**
 * One sandbox per state file (docs/sandbox.md, ports, state and limits): `<state>.lock` holds the pid of the
 * sandbox using the file, created exclusively, removed when the sandbox closes or its process
 * exits. A lock whose process is gone (kill -9) is stale and taken over.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { StateFileError } from "./state.js";

/** Another live sandbox uses the state file. */
export class StateLockedError extends StateFileError {
  readonly pid: number;

  constructor(message: string, pid: number) {
    super(message);
    this.name = "StateLockedError";
    this.pid = pid;
  }
}

export interface StateLock {
  readonly path: string;
  /** Removes the lock; safe to call more than once. */
  release(): void;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** The pid in an existing lock file; null when the file is gone, empty or not a pid. */
function lockOwner(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function tryCreate(path: string): boolean {
  try {
    writeFileSync(path, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw new StateFileError(`cannot create the lock ${path}: ${(error as Error).message}`);
  }
}

/** Takes the lock of `statePath`, taking over a stale one; throws StateLockedError when it is held. */
export function lockStateFile(statePath: string): StateLock {
  const path = `${statePath}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) break;
    const owner = lockOwner(path);
    if (owner !== null && isAlive(owner)) {
      throw new StateLockedError(
        `state file ${statePath} is in use by another sandbox (pid ${owner}); stop it or use another --state file`,
        owner,
      );
    }
    rmSync(path, { force: true }); // stale: its process is gone
    if (attempt === 2) throw new StateFileError(`cannot take over the stale lock ${path}`);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    if (lockOwner(path) === process.pid) rmSync(path, { force: true });
  };
  process.on("exit", release);
  return { path, release };
}

/** Removes temporary files a killed sandbox left beside the state file (`<state>.<pid>.<hex>.tmp`). */
export function removeLeftoverTemporaries(statePath: string): string[] {
  const folder = dirname(statePath);
  const prefix = `${basename(statePath)}.`;
  const pattern = /^\d+\.[0-9a-f]+\.tmp$/;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const removed = names.filter((name) => name.startsWith(prefix) && pattern.test(name.slice(prefix.length)));
  for (const name of removed) rmSync(join(folder, name), { force: true });
  return removed;
}
