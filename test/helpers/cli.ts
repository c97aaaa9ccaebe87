/**
 * The one way tests run foodctl (see test/README.md):
 * - `runFoodctl`: in process, `run(argv, deps)` with buffered streams, a private config folder
 *   and optionally a scripted transport and a fake clock. The default for command tests.
 * - `runCli`: the built CLI as a real process (no TTY, clean environment), for what only a
 *   process shows: the bin itself, signals, closed pipes, `ps`, other users, start-up.
 * Both give a `CliResult`; `expectExit`, `expectErrorLine` and `expectJsonError` check either.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import type { Transport } from "../../src/api/transport.js";
import type { Clock } from "../../src/clock.js";
import { run } from "../../src/main.js";
import { bufferIO, ownFolders, WRITABLE_FOLDERS } from "./bufferIO.js";
import { runTempDir } from "./tempDir.js";

export { runTempDir };
import { waitForBuild } from "./buildState.js";

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  /** Spawned only: kill the process after this many ms (the test then sees signal SIGKILL). */
  timeoutMs?: number;
  /** Spawned only. */
  cwd?: string;
  /** Spawned only: extra spawn options, e.g. uid/gid to run as another user. */
  spawn?: SpawnOptions;
}

export interface InProcessOptions extends Pick<CliOptions, "env" | "stdin"> {
  /** Every request goes here instead of the network (see test/helpers/transport.ts). */
  transport?: Transport;
  /** Retries and Retry-After wait on it (see test/helpers/clock.ts). */
  clock?: Clock;
  /** Ctrl-C: abort it to interrupt the run. */
  signal?: AbortSignal;
  /** Streams that say they are a terminal, `columns` wide. */
  tty?: boolean;
  columns?: number;
}

/** The built CLI's bin, once the run's build is done (test/globalSetup.ts starts it). */
export function cliBin(): string {
  const bin = process.env.FOODCTL_TEST_BIN;
  if (!bin) throw new Error("FOODCTL_TEST_BIN is not set: run the tests through vitest (test/globalSetup.ts builds the CLI)");
  waitForBuild(dirname(dirname(bin)));
  return bin;
}

/** A fresh XDG_CONFIG_HOME, so no test sees another's (or the developer's) config. */
export function tempConfigHome(): string {
  return runTempDir("foodctl-home-");
}

/**
 * The environment a CLI test starts from: nothing of the developer's FOODCTL_*, proxies or
 * colour choice, and none of their folders, whatever XDG_* they have set: config, journal
 * (state), data, runtime (sandbox records) and HOME are the test's config folder (a fresh
 * one unless `extra` names it); `extra` may name any of them, or unset it with undefined.
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || (WRITABLE_FOLDERS as readonly string[]).includes(name)) continue;
    if (/^(FOODCTL_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|https?_proxy$|NO_PROXY$|no_proxy$|NODE_EXTRA_CA_CERTS$|VITEST|TEST$)/.test(name))
      continue;
    inherited[name] = value;
  }
  // The code cache of the built CLI: one for the run, inside its build folder, so only the run's first spawn compiles.
  const bin = process.env.FOODCTL_TEST_BIN;
  const cache = bin && !("XDG_CACHE_HOME" in extra) ? { XDG_CACHE_HOME: join(dirname(dirname(bin)), "cache") } : {};
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...inherited, ...ownFolders({ ...cache, ...extra }) })) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** The folders `env` unsets (names as undefined), to stay unset. */
const unsetFolders = (env: Record<string, string | undefined> = {}) =>
  Object.fromEntries(WRITABLE_FOLDERS.filter((name) => name in env && env[name] === undefined).map((name) => [name, undefined]));

/** foodctl in this process: the same argv, environment and exit code as the built CLI, in milliseconds. */
export async function runFoodctl(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const stdin = options.stdin === undefined ? undefined : Buffer.isBuffer(options.stdin) ? options.stdin : Buffer.from(options.stdin);
  const buffers = bufferIO({
    env: { ...baseEnv(options.env), ...unsetFolders(options.env) },
    stdin,
    tty: options.tty ?? false,
    columns: options.columns,
  });
  const code = await run(args, {
    io: buffers.io,
    signal: options.signal ?? new AbortController().signal,
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return { code, signal: null, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

/** The built CLI as a real process. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [cliBin(), ...args], {
    env: baseEnv(options.env),
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    ...options.spawn,
  });
  return collect(child, options);
}

/** Collects a child's output until it ends (killed after `timeoutMs`, default 20 s). */
export function collect(child: import("node:child_process").ChildProcess, options: CliOptions = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin?.on("error", () => {});
  child.stdin?.end(options.stdin);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The run ended by itself with this exit code; when it did not, the failure shows both streams. */
export function expectExit(result: CliResult, code: number): void {
  expect({ code: result.code, signal: result.signal }, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toEqual({
    code,
    signal: null,
  });
}

/**
 * Exit `code` and a readable error: exactly one `error: ...` line, at most hints and warnings
 * beside it, no stack trace, no colour; the error line matches every mention. Returns it.
 */
type Mention = string | RegExp | undefined;

export function expectErrorLine(result: CliResult, code: number, ...mentions: Array<Mention | Mention[]>): string {
  expectExit(result, code);
  const lines = result.stderr.split("\n").filter((line) => line.trim() !== "");
  const errorLines = lines.filter((line) => line.startsWith("error: "));
  expect(errorLines, result.stderr).toHaveLength(1);
  for (const line of lines) expect(line, result.stderr).toMatch(/^(error|hint|warning): /);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain("\u001b[");
  for (const mention of mentions.flat()) if (mention !== undefined) expect(errorLines[0]).toMatch(mention);
  return errorLines[0]!;
}

export interface JsonErrorBody {
  code: string;
  exit_code: number;
  status: number | null;
  message: string;
  hint: string | null;
}

/** Under --json: exit `code`, nothing on stdout, and exactly one JSON error object on stderr (with this status, when given). */
export function expectJsonError(result: CliResult, code: number, errorCode: string, status?: number | null): JsonErrorBody {
  expectExit(result, code);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!) as { error: JsonErrorBody };
  expect(parsed.error).toMatchObject({ code: errorCode, exit_code: code, ...(status !== undefined ? { status } : {}) });
  expect(result.stdout).toBe("");
  return parsed.error;
}

export type AnyRunOptions = CliOptions &
  InProcessOptions & {
    /** Run the built CLI as a real process instead (implied by `spawn` or `cwd`). */
    process?: boolean;
  };

/** In process unless the options ask for a real process; for harnesses that serve both kinds. */
export function runEither(args: string[], options: AnyRunOptions = {}): Promise<CliResult> {
  const { process: spawned, transport, clock, signal, tty, columns, ...cli } = options;
  if (spawned || cli.spawn || cli.cwd) return runCli(args, cli);
  return runFoodctl(args, { env: cli.env, stdin: cli.stdin, transport, clock, signal, tty, columns });
}
