/** Runs the built CLI as a real process: no TTY, a private config folder, a clean environment. */
import { spawn, type SpawnOptions } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  /** Kill the process after this many ms (the test then sees signal SIGKILL). */
  timeoutMs?: number;
  cwd?: string;
  /** Extra spawn options, e.g. uid/gid to run as another user. */
  spawn?: SpawnOptions;
}

export function cliBin(): string {
  const bin = process.env.FOODCTL_TEST_BIN;
  if (!bin) throw new Error("FOODCTL_TEST_BIN is not set: run the tests through vitest (test/globalSetup.ts builds the CLI)");
  return bin;
}

/** A fresh XDG_CONFIG_HOME, so no test sees another's (or the developer's) config. */
export function tempConfigHome(): string {
  // Inside the run's build folder when there is one, so the run's teardown removes them all.
  const bin = process.env.FOODCTL_TEST_BIN;
  const parent = bin ? join(dirname(dirname(bin)), "homes") : tmpdir();
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, "foodctl-test-"));
}

/** The environment a CLI test starts from: nothing of the developer's FOODCTL_* or proxies. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(FOODCTL_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|https?_proxy$|NO_PROXY$|no_proxy$|NODE_EXTRA_CA_CERTS$)/.test(name)) continue;
    env[name] = value;
  }
  env.XDG_CONFIG_HOME ??= tempConfigHome();
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [cliBin(), ...args], {
    env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), ...options.env }),
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    ...options.spawn,
  });
  return collect(child, options);
}

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
