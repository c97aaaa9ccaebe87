/**
 * What the foundation's end-to-end tests share: one sandbox per test file, the built CLI run
 * against it as a seeded user, the requests the sandbox saw, and checks for error output.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { startSandbox, type SandboxHandle } from "../../../src/sandbox/server.js";
import { runCli, type CliOptions, type CliResult } from "../../helpers/cli.js";

export interface FoundationSandbox {
  readonly handle: SandboxHandle;
  readonly url: string;
  /** Every request line the sandbox logged ("GET /v2/... 200 1.2ms"), oldest first. */
  readonly requests: string[];
  token(name: string): string;
  /** The CLI with FOODCTL_API_URL and FOODCTL_TOKEN of `as` (default alice); `as: null` sets no token. */
  cli(args: string[], options?: CliOptions & { as?: string | null }): Promise<CliResult>;
  /** Runs the CLI and checks that the sandbox received no request meanwhile. */
  cliSendingNothing(args: string[], options?: CliOptions & { as?: string | null }): Promise<CliResult>;
}

export function useSandbox(): FoundationSandbox {
  let handle: SandboxHandle | undefined;
  const requests: string[] = [];
  beforeAll(async () => {
    handle = await startSandbox({ port: 0, log: (line) => requests.push(line) });
  });
  afterAll(async () => {
    await handle?.close();
  });
  const sandbox: FoundationSandbox = {
    get handle() {
      if (!handle) throw new Error("the sandbox starts in beforeAll");
      return handle;
    },
    get url() {
      return sandbox.handle.url;
    },
    requests,
    token: (name) => sandbox.handle.tokenFor(name),
    cli(args, options = {}) {
      const { as = "alice", env = {}, ...rest } = options;
      return runCli(args, {
        ...rest,
        env: { FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: as === null ? undefined : sandbox.token(as), ...env },
      });
    },
    async cliSendingNothing(args, options) {
      const before = sandbox.handle.stats().total_requests;
      const result = await sandbox.cli(args, options);
      expect(sandbox.handle.stats().total_requests, "requests sent").toBe(before);
      return result;
    },
  };
  return sandbox;
}

/** A private config folder, for tests that run several commands on one config. */
export function configHome(): string {
  return mkdtempSync(join(tmpdir(), "foodctl-foundation-"));
}

/** The exit code, showing the output when it is not the expected one. */
export function expectExit(result: CliResult, code: number): void {
  expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toMatchObject({ code });
}

/** A readable `error: ...` first line, at most a hint after it, and no stack trace. */
export function expectErrorLine(result: CliResult, code: number, pattern?: RegExp): string {
  expectExit(result, code);
  const lines = result.stderr.trimEnd().split("\n");
  const errorLine = lines.find((line) => line.startsWith("error: "));
  expect(errorLine, result.stderr).toBeDefined();
  for (const line of lines) expect(line, result.stderr).toMatch(/^(error|hint|warning): /);
  expect(lines.filter((line) => line.startsWith("error: "))).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain("\u001b[");
  if (pattern) expect(errorLine).toMatch(pattern);
  return errorLine!;
}

/** Under --json: exactly one JSON object on stderr, with error.code and error.exit_code. */
export function expectJsonError(result: CliResult, code: number, errorCode: string): { code: string; exit_code: number; status: number | null; message: string } {
  expectExit(result, code);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!) as { error: { code: string; exit_code: number; status: number | null; message: string } };
  expect(parsed.error).toMatchObject({ code: errorCode, exit_code: code });
  expect(result.stdout).toBe("");
  return parsed.error;
}

/** The signature part of a JWT: the secret bit that must never be printed. */
export function signatureOf(token: string): string {
  const signature = token.split(".")[2];
  if (!signature) throw new Error("not a signed JWT");
  return signature;
}
