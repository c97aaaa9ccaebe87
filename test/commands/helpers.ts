/** In-process command runs against a loopback fault server, each in its own config folder (removed after the file). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const OPAQUE_TOKEN = "3f9c2b7a1d0e4c5f8a6b9d2e1f3a4b5c6d7e8f90";

/** A fresh config folder per call, all removed once the file's tests are done. */
export function configHomes(): () => string {
  const homes: string[] = [];
  afterAll(() => {
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });
  return () => {
    const home = mkdtempSync(join(tmpdir(), "foodctl-cmd-"));
    homes.push(home);
    return home;
  };
}

export async function runIn(home: string, args: string[], env: NodeJS.ProcessEnv = {}, options: { tty?: boolean; stdin?: string } = {}): Promise<RunResult> {
  const test = bufferIO({ env: { XDG_CONFIG_HOME: home, ...env }, ...options });
  const code = await run(args, { io: test.io, signal: new AbortController().signal });
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}
