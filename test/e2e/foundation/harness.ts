/**
 * What the foundation's end-to-end tests share: one sandbox per test file, the built CLI run
 * against it as a seeded user (in process unless a test asks for a real one), the requests the sandbox saw, and checks for error output.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startSandbox, type SandboxHandle } from "../../../src/sandbox/server.js";
import { runEither, runTempDir, type AnyRunOptions, type CliResult } from "../../helpers/cli.js";

export { expectErrorLine, expectExit, expectJsonError } from "../../helpers/cli.js";

export interface FoundationSandbox {
  readonly handle: SandboxHandle;
  readonly url: string;
  /** Every request line the sandbox logged ("GET /v2/... 200 1.2ms"), oldest first. */
  readonly requests: string[];
  token(name: string): string;
  /** The CLI with FOODCTL_API_URL and FOODCTL_TOKEN of `as` (default alice); `as: null` sets no token. */
  cli(args: string[], options?: AnyRunOptions & { as?: string | null }): Promise<CliResult>;
  /** Runs the CLI and checks that the sandbox received no request meanwhile. */
  cliSendingNothing(args: string[], options?: AnyRunOptions & { as?: string | null }): Promise<CliResult>;
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
      return runEither(args, {
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
  return runTempDir("foodctl-foundation-");
}

/** The signature part of a JWT: the secret bit that must never be printed. */
export function signatureOf(token: string): string {
  const signature = token.split(".")[2];
  if (!signature) throw new Error("not a signed JWT");
  return signature;
}
