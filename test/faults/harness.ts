/** Running the built CLI against a fault server, and the checks every fault case shares. */
import { afterAll, expect } from "vitest";
import { runCli, type CliResult } from "../helpers/cli.js";
import { startFaultServer, type FaultServer } from "../helpers/faultServer.js";

/**
 * A fresh pair of fault servers per test (the API, and another host to redirect to), so the
 * cases of a file run at once; all are closed after the file.
 */
export function faultServerPairs(prepare: (server: FaultServer) => void = () => {}): () => Promise<{ server: FaultServer; other: FaultServer }> {
  const open: FaultServer[] = [];
  afterAll(async () => {
    await Promise.all(open.map((server) => server.close()));
  });
  return async () => {
    const [server, other] = await Promise.all([startFaultServer(), startFaultServer()]);
    open.push(server, other);
    prepare(server);
    return { server, other };
  };
}

/** Long enough for the slowest case (timeouts plus retries); the process must end well before. */
export const KILL_AFTER_MS = 25_000;

export function runAgainst(server: FaultServer, token: string, args: string[], options: { stdin?: string | Buffer; env?: Record<string, string> } = {}): Promise<CliResult> {
  return runCli(["--api-url", server.url, ...args], {
    env: { FOODCTL_TOKEN: token, ...options.env },
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    timeoutMs: KILL_AFTER_MS,
  });
}

/** The process ended by itself, with the exit code, and said why in one line: no stack trace. */
export function expectOneLineError(result: CliResult, exitCode: number, mentions: Array<string | RegExp>): void {
  expect(result.signal, `killed; stderr: ${result.stderr}`).toBeNull();
  expect(result.code, result.stderr).toBe(exitCode);
  const lines = result.stderr.split("\n").filter((line) => line.trim() !== "");
  const errorLines = lines.filter((line) => line.startsWith("error:"));
  expect(errorLines, result.stderr).toHaveLength(1);
  for (const line of lines) expect(line, result.stderr).toMatch(/^(error|hint|warning):/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const mention of mentions) expect(errorLines[0]).toMatch(mention);
}

/** Like expectOneLineError, under --json: one JSON error document on stderr. */
export function expectJsonError(result: CliResult, exitCode: number, code: string, status: number | null): { message: string } {
  expect(result.signal).toBeNull();
  expect(result.code, result.stderr).toBe(exitCode);
  const parsed = JSON.parse(result.stderr) as { error: { code: string; exit_code: number; status: number | null; message: string } };
  expect(parsed.error).toMatchObject({ code, exit_code: exitCode, status });
  return parsed.error;
}
