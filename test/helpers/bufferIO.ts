import { Readable } from "node:stream";
import type { IO } from "../../src/io.js";
import { runTempDir } from "./tempDir.js";

/** An IO backed by string buffers, for in-process command tests (a pipe unless `tty`, 120 columns unless told). */
export function bufferIO(options: { env?: NodeJS.ProcessEnv; stdin?: string | Buffer; tty?: boolean; columns?: number | undefined } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const tty = options.tty ?? false;
  const columns = "columns" in options ? options.columns : 120;
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]) as NodeJS.ReadableStream & { isTTY?: boolean };
  stdin.isTTY = tty;
  // The journal (XDG_STATE_HOME, else ~/.local/state) is never the developer's: beside the test's config, else a fresh folder.
  const env: NodeJS.ProcessEnv = { ...options.env };
  if (!env.XDG_STATE_HOME) env.XDG_STATE_HOME = env.XDG_CONFIG_HOME || runTempDir("foodctl-state-");
  const io: IO = {
    stdout: { write: (s: string) => out.push(s), isTTY: tty, ...(columns !== undefined ? { columns } : {}) },
    stderr: { write: (s: string) => err.push(s), isTTY: tty, ...(columns !== undefined ? { columns } : {}) },
    stdin,
    env,
    color: { stdout: false, stderr: false },
  };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}
