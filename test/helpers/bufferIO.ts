import { Readable } from "node:stream";
import type { IO } from "../../src/io.js";
import { runTempDir } from "./tempDir.js";

/** Every folder foodctl may write to or read from, by the environment variable that names it. */
export const WRITABLE_FOLDERS = [
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_RUNTIME_DIR",
  "HOME",
] as const;

/**
 * `env` with each folder it does not name set to the test's own: the config folder it names,
 * else a fresh one. A folder named as undefined stays unset, for a test of the fallbacks.
 * Nothing a test runs then reads or writes the developer's config, journal, cache or home.
 */
export function ownFolders(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const unnamed = WRITABLE_FOLDERS.filter((name) => !(name in env));
  if (!unnamed.length) return { ...env };
  const folder = env.XDG_CONFIG_HOME || runTempDir("foodctl-home-");
  return { ...Object.fromEntries(unnamed.map((name) => [name, folder])), ...env };
}

/** An IO backed by string buffers, for in-process command tests (a pipe unless `tty`, 120 columns unless told). */
export function bufferIO(
  options: { env?: Record<string, string | undefined>; stdin?: string | Buffer; tty?: boolean; columns?: number | undefined } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const tty = options.tty ?? false;
  const columns = "columns" in options ? options.columns : 120;
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]) as NodeJS.ReadableStream & { isTTY?: boolean };
  stdin.isTTY = tty;
  const env: NodeJS.ProcessEnv = ownFolders(options.env ?? {});
  const io: IO = {
    stdout: { write: (s: string) => out.push(s), isTTY: tty, ...(columns !== undefined ? { columns } : {}) },
    stderr: { write: (s: string) => err.push(s), isTTY: tty, ...(columns !== undefined ? { columns } : {}) },
    stdin,
    env,
    color: { stdout: false, stderr: false },
  };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}
