/**
 * One sandbox per state file (docs/cli.md, sandbox safety): `<state>.lock` holds the pid of the
 * sandbox using the file (src/lock.ts), removed when the sandbox closes or its process exits. A
 * lock whose process is gone (kill -9) is stale and taken over.
 */
import { takeLock, releaseLock } from "../lock.js";
import { StateFileError } from "./state.js";

/** Another live sandbox uses the state file. */
export class StateLockedError extends StateFileError {
  /** Null: a sandbox whose pid could not be read. */
  readonly pid: number | null;

  constructor(message: string, pid: number | null) {
    super(message);
    this.name = "StateLockedError";
    this.pid = pid;
  }
}

export interface StateLock {
  /** Removes the lock; safe to call more than once. */
  release(): void;
}

/** Takes the lock of `statePath`, taking over a stale one; throws StateLockedError when it is held. */
export async function lockStateFile(statePath: string): Promise<StateLock> {
  const path = `${statePath}.lock`;
  await takeLock(
    path,
    {
      cannotCreate: (error) => new StateFileError(`cannot create the lock ${path}: ${error.message}`),
      busy: (pid) =>
        new StateLockedError(
          `state file ${statePath} is in use by another sandbox (${pid === null ? "pid unknown" : `pid ${pid}`}); stop it or use another --state file`,
          pid,
        ),
    },
    0,
  );
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    releaseLock(path);
  };
  process.on("exit", release);
  return { release };
}
