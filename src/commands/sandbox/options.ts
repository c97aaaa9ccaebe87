/**
 * Flag values of `foodctl sandbox` and `foodctl sandbox stop`, checked before anything starts
 * (docs/cli.md, sandbox).
 */
import { usageError } from "../../errors.js";
import type { RawInput } from "../spec.js";

export type TokenKind = "jwt" | "opaque";

export interface SandboxCommandOptions {
  /** Undefined: the default port (8787), so a busy port can suggest `--port 0`. */
  port?: number;
  host: string;
  state?: string;
  env: boolean;
  as?: string;
  tokenKind: TokenKind;
  rateLimit?: number;
  latencyMs?: number;
  detach: boolean;
  pidFile?: string;
}

export interface SandboxStopOptions {
  port?: number;
  pidFile?: string;
}

function parsePort(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(given) || Number(given) > 65535) throw usageError(`--port must be 0 to 65535, got "${given}"`);
  return Number(given);
}

function parseTokenKind(value: string | undefined): TokenKind {
  const given = value ?? "jwt";
  if (given !== "jwt" && given !== "opaque") throw usageError(`--token-kind must be jwt or opaque, got "${given}"`);
  return given;
}

export function parseSandboxOptions(input: RawInput): SandboxCommandOptions {
  const rateText = input.text("rateLimit");
  if (rateText !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(rateText) && Number(rateText) > 0)) {
    throw usageError(`--rate-limit must be a positive number of requests per second, got "${rateText}"`);
  }
  const latencyText = input.text("latency");
  if (latencyText !== undefined && !/^[0-9]{1,6}$/.test(latencyText)) {
    throw usageError(`--latency must be a whole number of milliseconds, got "${latencyText}"`);
  }
  const parsed: SandboxCommandOptions = {
    port: parsePort(input.text("port")),
    host: input.text("host") ?? "127.0.0.1",
    state: input.text("state"),
    env: input.flag("env"),
    as: input.text("as"),
    tokenKind: parseTokenKind(input.text("tokenKind")),
    rateLimit: rateText === undefined ? undefined : Number(rateText),
    latencyMs: latencyText === undefined ? undefined : Number(latencyText),
    detach: input.flag("detach"),
    pidFile: input.text("pidFile"),
  };
  if (parsed.pidFile !== undefined && !parsed.detach) throw usageError("--pid-file goes with --detach (or with `foodctl sandbox stop`)");
  return parsed;
}

/** `sandbox stop --port <n> | --pid-file <file>`. */
export function parseStopOptions(input: RawInput): SandboxStopOptions {
  return { port: parsePort(input.text("port")), pidFile: input.text("pidFile") };
}
