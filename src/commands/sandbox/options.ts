/**
 * What the sandbox's commands run with: the options index.ts parses from the command line, and
 * what the run hands them. Types and one name only, so the spec, start, detach and stop share
 * them without importing each other.
 */
import type { IO } from "../../io.js";

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

export interface SandboxDeps {
  io: IO;
  json: boolean;
  /** Aborted on Ctrl-C or SIGTERM: the sandbox closes and the command returns 0. */
  signal: AbortSignal;
  /** How to run this CLI again, for `--detach` (default: this process's node and script). */
  launcher?: readonly string[];
}

/** Set in a detached sandbox's environment: it outlives the process that started it. */
export const DETACHED_ENV = "FOODCTL_SANDBOX_DETACHED";
