/** `foodctl sandbox`: a local emulator of the API, in the foreground or detached; `sandbox stop` (docs/sandbox.md). */
import { GLOBALS } from "../globals.js";
import { usageError } from "../../errors.js";
import type { RateLimitSpec } from "../../sandbox/rateLimit.js";
import { commandNoun, option, verb, type Input, type None } from "../spec.js";
import type { SandboxCommandOptions, SandboxStopOptions, TokenKind } from "../../sandboxes/options.js";

// Parse steps beside the declarations (the types they return: options.ts): `--help` loads this file and nothing else of the command.
function parsePort(given: string): number {
  if (!/^[0-9]{1,5}$/.test(given) || Number(given) > 65535) throw usageError(`--port must be 0 to 65535, got "${given}"`);
  return Number(given);
}

function parseLatency(given: string): number {
  if (!/^[0-9]{1,6}$/.test(given)) throw usageError(`--latency must be a whole number of milliseconds, got "${given}"`);
  return Number(given);
}

const WINDOW_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_WINDOW_MS = 366 * WINDOW_UNITS.d!;

/** `--rate-limit <n>[/<window>]`: n requests per rolling window, 24h unless given (100, 100/24h, 5/1s, 5/s, 30/10m). */
export function parseRateLimit(given: string): RateLimitSpec {
  const match = /^([1-9][0-9]{0,8})(?:\/([1-9][0-9]{0,5})?([smhd]))?$/.exec(given);
  const windowMs = match?.[3] === undefined ? WINDOW_UNITS.h! * 24 : Number(match[2] ?? 1) * WINDOW_UNITS[match[3]]!;
  if (!match || windowMs > MAX_WINDOW_MS) {
    throw usageError(
      `--rate-limit must be n or n/<window>: a whole number of requests, a window in s, m, h or d up to 366d (100/24h, 5/1s), got "${given}"`,
    );
  }
  return { limit: Number(match[1]), windowMs };
}

const START_OPTIONS = {
  port: option("--port <n>", "port, 0 for any free one (default 8787)", { parse: parsePort }),
  host: option("--host <addr>", "address to bind", { defaultValue: "127.0.0.1" }),
  state: option("--state <file>", "load and save the sandbox's state in this file"),
  env: option("--env", "print only export lines (FOODCTL_API_URL, FOODCTL_TOKEN; FOODCTL_USER for a manager), once listening"),
  as: option("--as <user-name>", "whose token --env and --detach export (default: the first APIUser)", {
    complete: { lookup: "sandbox-users" },
  }),
  tokenKind: option("--token-kind <kind>", "which of the user's tokens is exported", { choices: ["jwt", "opaque"], defaultValue: "jwt" }),
  detach: option("--detach", "run in the background: return once listening, print the export lines, the PID and how to stop it"),
  pidFile: option("--pid-file <file>", "with --detach or stop: record the sandbox here instead of the user's runtime folder"),
  rateLimit: option(
    "--rate-limit <n[/window]>",
    "APIUser tokens only: answer 429 past n requests in a rolling window (default 24h; e.g. 100/24h, 5/1s)",
    { parse: parseRateLimit },
  ),
  latency: option("--latency <ms>", "delay every API answer", { parse: parseLatency }),
  strict: option("--strict", "check a client: refuse body fields a route does not use and string ids (default: accept and log them)"),
};

const STOP_OPTIONS = {
  port: option("--port <n>", "the detached sandbox on this port", { parse: parsePort }),
  pidFile: option("--pid-file <file>", "the sandbox recorded in this file (by --detach --pid-file)"),
};

export function parseSandboxOptions(input: Input<None, typeof START_OPTIONS>): SandboxCommandOptions {
  const parsed: SandboxCommandOptions = {
    port: input.port,
    host: input.host ?? "127.0.0.1",
    state: input.state,
    env: input.env,
    as: input.as,
    // Commander refuses any other kind (the option's choices).
    tokenKind: (input.tokenKind ?? "jwt") as TokenKind,
    rateLimit: input.rateLimit,
    latencyMs: input.latency,
    strict: input.strict,
    detach: input.detach,
    pidFile: input.pidFile,
  };
  if (parsed.pidFile !== undefined && !parsed.detach) throw usageError("--pid-file goes with --detach (or with `foodctl sandbox stop`)");
  return parsed;
}

/** `sandbox stop --port <n> | --pid-file <file>`. */
export function parseStopOptions(input: Input<None, typeof STOP_OPTIONS>): SandboxStopOptions {
  return { port: input.port, pidFile: input.pidFile };
}

const start = verb("sandbox", "run a local emulator of the API, with seeded users and intakes (in the foreground, or --detach)", {
  globals: GLOBALS.sandbox,
  options: START_OPTIONS,
  examples: `
    foodctl sandbox                                  # foreground; Ctrl-C stops it
    # in the background, exporting the URL and a token:
    eval "$(foodctl sandbox --detach --port 0 --as bob)"
    foodctl sandbox stop                             # stops the detached one
    foodctl sandbox --port 0 --state rehearsal.json  # keeps changes between runs
  `,
  parse: parseSandboxOptions,
  run: async (ctx, options) => (await import("./start.js")).sandboxCommand(ctx, options),
});

const stop = verb(
  "stop",
  "stop a sandbox started with --detach: the one --port or --pid-file names, the one FOODCTL_API_URL points to, or the only one",
  {
    globals: GLOBALS.local,
    options: STOP_OPTIONS,
    examples: `
      foodctl sandbox stop
      foodctl sandbox stop --port 8787
      foodctl sandbox stop --pid-file /tmp/sandbox.pid
    `,
    parse: parseStopOptions,
    run: async (ctx, options) => (await import("./stop.js")).stopSandbox(ctx, options),
  },
);

export const sandbox = commandNoun(start, [stop]);
