/**
 * A sandbox started as a background process of its own (a new session, so closing the terminal
 * does not stop it): it returns once the sandbox listens, recorded for `sandbox stop`
 * (docs/sandbox.md, in the background), or fails with the sandbox's own error.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Context } from "../context.js";
import { CliError, EXIT, failure, interruptedError, unavailableError, type ErrorCode, type ExitCode } from "../errors.js";
import type { SandboxUserView } from "../output/sandbox.js";
import { processStart } from "../processes.js";
import { SEED_USERS } from "../sandbox/seed.js";
import { DETACHED_ENV, formatRateLimit, type SandboxCommandOptions } from "./options.js";
import { pidFileFor, runtimeDir, writeRecord } from "./records.js";
import { userViews } from "./users.js";

/** How long a sandbox may take to listen before the launcher gives up on it. */
const READY_TIMEOUT_MS = 15_000;

/** The flags that make a sandbox what it is (its address, data and limits; not its port): only those given, so its defaults stay its own. */
export function sandboxFlags(options: SandboxCommandOptions): string[] {
  const args = options.host === "127.0.0.1" ? [] : ["--host", options.host];
  if (options.state !== undefined) args.push("--state", resolve(options.state));
  if (options.rateLimit !== undefined) args.push("--rate-limit", formatRateLimit(options.rateLimit));
  if (options.latencyMs !== undefined) args.push("--latency", String(options.latencyMs));
  if (options.strict) args.push("--strict");
  return args;
}

/** The detached sandbox's command line: those flags, its port, and its start line in JSON for the launcher. */
const childArgs = (options: SandboxCommandOptions) =>
  ["sandbox", "--json", ...sandboxFlags(options)].concat(options.port === undefined ? [] : ["--port", String(options.port)]);

type Outcome = { ready: string } | { exited: number | null } | { notStarted: Error } | { gaveUp: "timeout" | "interrupted" };

/** The child's first stdout line (its `--json` start line), or why there is none. */
function firstLine(child: ChildProcess, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolveOutcome) => {
    let text = "";
    const timer = setTimeout(() => finish({ gaveUp: "timeout" }), READY_TIMEOUT_MS);
    const onAbort = () => finish({ gaveUp: "interrupted" });
    const onExit = (code: number | null) => finish({ exited: code });
    const onError = (error: Error) => finish({ notStarted: error });
    const finish = (outcome: Outcome) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      child.off("exit", onExit);
      child.off("error", onError);
      resolveOutcome(outcome);
    };
    signal.addEventListener("abort", onAbort);
    child.on("exit", onExit);
    child.on("error", onError);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) finish({ ready: text.slice(0, text.indexOf("\n")) });
    });
  });
}

/** The detached sandbox's own error (its last JSON error line on stderr), as this command's error. */
function childError(logPath: string, code: number | null): CliError {
  const lines = readFileSync(logPath, "utf8").trim().split("\n").reverse();
  for (const line of lines) {
    try {
      const { error } = JSON.parse(line) as { error?: { code?: unknown; exit_code?: unknown; message?: unknown; hint?: unknown } };
      if (error && typeof error.message === "string" && Object.values(EXIT).includes(error.exit_code as ExitCode)) {
        const hint = typeof error.hint === "string" ? error.hint : undefined;
        return new CliError(String(error.code) as ErrorCode, error.exit_code as ExitCode, error.message, { hint });
      }
    } catch {
      // not a JSON line: keep looking
    }
  }
  return failure(`the sandbox exited (code ${code ?? "none"}) before it was listening`);
}

/** What a sandbox says once it listens (its start line), and what its launcher adds when it is detached. */
export type Started = { url: string; users: SandboxUserView[]; networkWarning: string | null; listeningUrl: string | null };
export type DetachedSandbox = Started & { pid: number; port: number; log: string; pidFile: string };

function readStartLine(line: string): Started {
  const parsed = JSON.parse(line) as { url: string; users: SandboxUserView[]; network_warning?: string; listening_url?: string };
  const networkWarning = parsed.network_warning ?? null;
  return { url: parsed.url, users: userViews(parsed, SEED_USERS), networkWarning, listeningUrl: parsed.listening_url ?? null };
}

async function launch(ctx: Context, options: SandboxCommandOptions, logPath: string): Promise<{ child: ChildProcess; line: string }> {
  const { node, script } = ctx.io.program ?? { node: process.execPath, script: process.argv[1] ?? "" };
  const logFd = openSync(logPath, "a", 0o600);
  let child: ChildProcess;
  try {
    child = spawn(node, [script, ...childArgs(options)], {
      detached: true,
      stdio: ["ignore", "pipe", logFd],
      env: { ...ctx.io.env, [DETACHED_ENV]: "1" },
    });
  } finally {
    closeSync(logFd);
  }
  const outcome = await firstLine(child, ctx.signal);
  if ("ready" in outcome) return { child, line: outcome.ready };
  child.kill("SIGTERM");
  if ("notStarted" in outcome) throw failure(`cannot start the sandbox in the background: ${outcome.notStarted.message}`);
  if ("exited" in outcome) throw childError(logPath, outcome.exited);
  if (outcome.gaveUp === "interrupted") throw interruptedError("interrupted before the sandbox was listening; it was stopped");
  throw unavailableError(`the sandbox was not listening after ${READY_TIMEOUT_MS / 1000} s; it was stopped (log: ${logPath})`);
}

/** Starts it and records it; `again`: its flags for a restart (` --state /tmp/x.json --as bob`), kept in the record for the hint. */
export async function startDetached(ctx: Context, options: SandboxCommandOptions, again: string): Promise<DetachedSandbox> {
  const dir = options.pidFile === undefined ? runtimeDir(ctx.io.env) : dirname(resolve(options.pidFile));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const startedAt = ctx.now();
  const startingLog = join(dir, `sandbox-starting-${process.pid}-${startedAt}.log`);
  let started: { child: ChildProcess; line: string };
  try {
    started = await launch(ctx, options, startingLog);
  } catch (error) {
    rmSync(startingLog, { force: true });
    throw error;
  }
  const { child, line } = started;
  const shown = readStartLine(line);
  const port = Number(new URL(shown.url).port);
  const log = join(dir, `sandbox-${port}.log`);
  renameSync(startingLog, log);
  const pidFile = options.pidFile === undefined ? pidFileFor(ctx.io.env, port) : resolve(options.pidFile);
  const pid = child.pid ?? 0;
  const started_at = new Date(startedAt).toISOString();
  writeRecord(pidFile, { pid, start: processStart(pid), url: shown.url, port, log, started_at, again, stopped_at: null });
  child.stdout?.destroy();
  child.unref();
  return { ...shown, pid, port, log, pidFile };
}
