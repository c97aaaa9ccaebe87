/** The user's text editor: which one ($VISUAL, $EDITOR, a default) and running it on a private temporary file. */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failure } from "../errors.js";

/** $VISUAL, else $EDITOR, else vi (notepad on Windows): the order git and kubectl follow. */
export function editorCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  for (const name of ["VISUAL", "EDITOR"]) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return platform === "win32" ? "notepad" : "vi";
}

/**
 * Runs the editor on `file` with the terminal inherited, and resolves to its exit code (a signal
 * counts as a failure). Through the shell, as git does, so "code --wait" and quoted paths work.
 */
export function runEditor(command: string, file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child =
    process.platform === "win32"
      ? spawn(`${command} "${file}"`, { stdio: "inherit", env, shell: true })
      : spawn("/bin/sh", ["-c", `${command} "$@"`, command, file], { stdio: "inherit", env });
  return new Promise((resolve, reject) => {
    child.once("error", (error) =>
      reject(failure(`cannot start the editor "${command}": ${error.message}`, { hint: "set $VISUAL or $EDITOR" })),
    );
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** A file only this user can read, in a folder of its own, removed (folder and all) when `use` is done. */
export async function withPrivateFile<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  text: string,
  use: (file: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(env.TMPDIR || tmpdir(), "foodctl-edit-"));
  try {
    const file = join(dir, name);
    await writeFile(file, text, { mode: 0o600 });
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
