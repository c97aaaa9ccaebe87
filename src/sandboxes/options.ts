/** What a sandbox is started and stopped with, as `foodctl sandbox` reads it (src/commands/sandbox/index.ts): types, one name, one formatter. */
import type { RateLimitSpec } from "../sandbox/rateLimit.js";

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

/** Set in a detached sandbox's environment: it outlives the process that started it. */
export const DETACHED_ENV = "FOODCTL_SANDBOX_DETACHED";

/** The `--rate-limit` value that gives `spec` again (for the detached sandbox). */
export function formatRateLimit(spec: RateLimitSpec): string {
  return `${spec.limit}/${spec.windowMs / 1000}s`;
}
