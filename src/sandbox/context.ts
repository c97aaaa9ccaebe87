/** What the route modules share: the state, the counters and the per-request access. */
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { LanguageCode } from "../records/languages.js";
import type { Access } from "./access.js";
import type { IntakeRecord } from "./render.js";
import type { BodyPolicy } from "./request.js";
import type { SandboxState, StoredIntake } from "./state.js";

export interface SandboxStats {
  /** Keyed "METHOD /route/pattern"; requests to unknown paths count under "METHOD *". */
  requests: Record<string, number>;
  total_requests: number;
  nutrition_calculations: number;
}

export interface SandboxContext {
  readonly state: SandboxState;
  readonly stats: SandboxStats;
  /** Route-level onRequest hook: checks the token and the user_id rules. */
  readonly authenticate: onRequestAsyncHookHandler;
  /** The access the authenticate hook established for this request. */
  accessOf(request: FastifyRequest): Access;
  /** How this request's body is read: unused fields ignored and logged, or refused with `--strict`. */
  bodyPolicy(request: FastifyRequest): BodyPolicy;
  /** The language this request's answer names dishes in: its `language` query, else the user's own (docs/api.md, language). */
  language(request: FastifyRequest): LanguageCode;
  render(request: FastifyRequest, intake: StoredIntake): IntakeRecord;
  /** Runs the nutrition model over an intake: one nutrition calculation. */
  recalculate(intake: StoredIntake): void;
  /** Persists the state after a change (when a state file is in use). */
  commit(): void;
}
