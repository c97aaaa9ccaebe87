/** Reading and atomically writing the sandbox's `--state` file. */
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { parseState, serializeState, StateFileError, type SandboxState } from "./state.js";

/** The stored state, or null when the file does not exist yet. Throws StateFileError otherwise. */
export function loadStateFile(path: string): SandboxState | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StateFileError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  try {
    return parseState(text);
  } catch (error) {
    if (error instanceof StateFileError) throw new StateFileError(`cannot use state file ${path}: ${error.message}`);
    throw error;
  }
}

/**
 * Writes the whole state to a temporary file beside the target and renames it over the target,
 * so a reader never sees half a file. Synchronous on purpose: a change is on disk before it is
 * answered, and two saves can never overtake each other.
 */
export function saveStateFile(path: string, state: SandboxState): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, serializeState(state), { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
