/**
 * `foodctl sandbox --detach`: starts the sandbox as a background process of its own (a new
 * session, so closing the terminal does not stop it), waits until it listens, records it in a
 * pid file for `sandbox stop`, prints the export lines with its PID, and returns
 * (docs/sandbox.md, in the background).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CliError, EXIT, failure, interruptedError, unavailableError, type ErrorCode, type ExitCode } from "../../errors.js";
import { renderDetached, renderNetworkWarning, renderStartJson, type SandboxUserView } from "../../output/sandbox.js";
import { SEED_USERS } from "../../sandbox/seed.js";
import type { Context } from "../../context.js";
import { DETACHED_ENV, formatRateLimit, type SandboxCommandOptions } from "../../sandboxes/options.js";
import { processStart } from "../../processes.js";
import { pidFileFor, runtimeDir, writeRecord } from "../../sandboxes/records.js";
import { envWinsOverJson } from "./start.js";
import { chooseExport, userViews } from "../../sandboxes/users.js";

/** How long a sandbox may take to listen before the launcher gives up on it. */
const READY_TIMEOUT_MS = 15_000;

/** The flags the detached sandbox is started with: only those given, so its defaults and messages stay its own. */
function childArgs(options: SandboxCommandOptions): string[] {
  const args = ["sandbox", "--json", "--host", options.host];
  if (options.port !== undefined) args.push("--port", String(options.port));
  if (options.state !== undefined) args.push("--state", resolve(options.state));
  if (options.rateLimit !== undefined) args.push("--rate-limit", formatRateLimit(options.rateLimit));
  if (options.latencyMs !== undefined) args.push("--latency", String(options.latencyMs));
  if (options.strict) args.push("--strict");
  return args;
}

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

function readStartLine(line: string): {
  url: string;
  users: SandboxUserView[];
  networkWarning: string | null;
  listeningUrl: string | null;
} {
  const parsed = JSON.parse(line) as { url: string; users: SandboxUserView[]; network_warning?: string; listening_url?: string };
  const networkWarning = parsed.network_warning ?? null;
  return { url: parsed.url, users: userViews(parsed, SEED_USERS), networkWarning, listeningUrl: parsed.listening_url ?? null };
}

async function launch(ctx: Context, options: SandboxCommandOptions, logPath: string): Promise<{ child: ChildProcess; line: string }> {
  const [command, ...prefix] = ctx.services.launcher ?? [process.execPath, process.argv[1] ?? ""];
  const logFd = openSync(logPath, "a", 0o600);
  let child: ChildProcess;
  try {
    child = spawn(command ?? process.execPath, [...prefix, ...childArgs(options)], {
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

export async function detachSandbox(ctx: Context, options: SandboxCommandOptions): Promise<number> {
  const { io } = ctx;
  const dir = options.pidFile === undefined ? runtimeDir(io.env) : dirname(resolve(options.pidFile));
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
  const { url, users, networkWarning, listeningUrl } = readStartLine(line);
  if (networkWarning) io.stderr.write(renderNetworkWarning(networkWarning, io.color.stderr));
  const port = Number(new URL(url).port);
  const log = join(dir, `sandbox-${port}.log`);
  renameSync(startingLog, log);
  const pidFile = options.pidFile === undefined ? pidFileFor(io.env, port) : resolve(options.pidFile);
  const pid = child.pid ?? 0;
  writeRecord(pidFile, { pid, start: processStart(pid), url, port, log, started_at: new Date(startedAt).toISOString() });
  child.stdout?.destroy();
  child.unref();

  const out = envWinsOverJson(ctx, options);
  const exported = out.json ? undefined : chooseExport(url, users, options);
  if (exported?.note) io.stderr.write(`${exported.note}\n`);
  const stop = options.pidFile === undefined ? `foodctl sandbox stop --port ${port}` : `foodctl sandbox stop --pid-file ${pidFile}`;
  const network = networkWarning ? { listening_url: listeningUrl, network_warning: networkWarning } : {};
  await out.print({
    jsonBody: renderStartJson(url, users, { pid, port, log, pid_file: pidFile, ...network }),
    text: () => (exported ? renderDetached({ pid, url, log }, exported.env, stop) : ""),
  });
  return 0;
}
