/** Running `foodctl smoke` in process against a sandbox or a fault server. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { tempConfigHome } from "../helpers/cli.js";

export interface SmokeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs foodctl in process with this API and token, a private config folder, no retries unless asked. */
export async function runFoodctl(apiUrl: string, token: string, args: string[], options: { tty?: boolean; retries?: number } = {}): Promise<SmokeRun> {
  const buffers = bufferIO({ env: { FOODCTL_TOKEN: token, XDG_CONFIG_HOME: tempConfigHome() }, tty: options.tty ?? false });
  const code = await run(["--api-url", apiUrl, "--retries", String(options.retries ?? 0), ...args], { io: buffers.io, signal: new AbortController().signal });
  return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

/** A temp folder for report files, removed after the file's tests. */
export function reportFolder(): () => string {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(join(tmpdir(), "foodctl-smoke-"));
    folders.push(folder);
    return folder;
  };
}

/** The piped output's rows: step → [result, ms, detail]. */
export function stepRows(stdout: string): Map<string, { result: string; detail: string }> {
  const rows = stdout.trim().split("\n").map((line) => line.split("\t"));
  return new Map(rows.map(([step, result, , detail]) => [step!, { result: result!, detail: detail ?? "" }]));
}
