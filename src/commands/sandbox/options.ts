/**
 * What the sandbox's commands run with: the options index.ts parses from the command line, and
 * what the run hands them. Types, one name and one formatter, so the spec, start, detach and stop share
 * them without importing each other.
 */
import type { Clock } from "../../clock.js";
import type { IO } from "../../io.js";
import type { RateLimitSpec } from "../../sandbox/rateLimit.js";

export type TokenKind = "jwt" | "opaque";

export interface SandboxCommandOptions {
  /** Undefined: the default port (8787), so a busy port can suggest `--port 0`. */
  port?: number;
  host: string;
  state?: string;
  env: boolean;
  as?: string;
  tokenKind: TokenKind;
  rateLimit?: RateLimitSpec;
  latencyMs?: number;
  strict: boolean;
  detach: boolean;
  pidFile?: string;
}

export interface SandboxStopOptions {
  port?: number;
  pidFile?: string;
}

export interface SandboxDeps {
  io: IO;
  json: boolean;
  /** Aborted on Ctrl-C or SIGTERM: the sandbox closes and the command returns 0. */
  signal: AbortSignal;
  /** How to run this CLI again, for `--detach` (default: this process's node and script). */
  launcher?: readonly string[];
  /** The run's clock (the detached sandbox's start time); the system's when not given. */
  clock?: Clock;
}

/** Set in a detached sandbox's environment: it outlives the process that started it. */
export const DETACHED_ENV = "FOODCTL_SANDBOX_DETACHED";

/** The `--rate-limit` value that gives `spec` again (for the detached sandbox). */
export function formatRateLimit(spec: RateLimitSpec): string {
  return `${spec.limit}/${spec.windowMs / 1000}s`;
}
