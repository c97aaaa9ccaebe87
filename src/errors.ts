/** Exit codes of docs/cli.md, in one place. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  forbidden: 5,
  notFound: 6,
  rejected: 7,
  unavailable: 8,
  partial: 9,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each exit code means, as `foodctl --help` lists them (a new code needs its words here). */
export const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: "ok",
  failure: "unexpected",
  usage: "usage",
  cancelled: "cancelled",
  auth: "auth",
  forbidden: "forbidden",
  notFound: "not found",
  rejected: "rejected",
  unavailable: "unavailable",
  partial: "partial",
  interrupted: "interrupted",
};

export type ErrorCode =
  "failure" | "usage" | "cancelled" | "auth" | "forbidden" | "not_found" | "rejected" | "unavailable" | "partial" | "interrupted";

export interface CliErrorOptions {
  status?: number;
  /** The service's own error number from the answer's body (docs/api.md, error codes); never decides the exit code. */
  serviceCode?: number | string | undefined;
  hint?: string;
  cause?: unknown;
}

/** An error the user should see as one line; carries its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly serviceCode: number | string | undefined;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, exitCode: ExitCode, message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
    this.status = options.status;
    this.serviceCode = options.serviceCode;
    this.hint = options.hint;
  }
}

export const usageError = (message: string, options?: CliErrorOptions) => new CliError("usage", EXIT.usage, message, options);
export const authError = (message: string, options?: CliErrorOptions) => new CliError("auth", EXIT.auth, message, options);
export const forbiddenError = (message: string, options?: CliErrorOptions) => new CliError("forbidden", EXIT.forbidden, message, options);
export const notFoundError = (message: string, options?: CliErrorOptions) => new CliError("not_found", EXIT.notFound, message, options);
export const rejectedError = (message: string, options?: CliErrorOptions) => new CliError("rejected", EXIT.rejected, message, options);
export const unavailableError = (message: string, options?: CliErrorOptions) =>
  new CliError("unavailable", EXIT.unavailable, message, options);
export const cancelledError = (message: string, options?: CliErrorOptions) => new CliError("cancelled", EXIT.cancelled, message, options);
export const interruptedError = (message: string, options?: CliErrorOptions) =>
  new CliError("interrupted", EXIT.interrupted, message, options);
export const failure = (message: string, options?: CliErrorOptions) => new CliError("failure", EXIT.failure, message, options);

/** An error's JSON form (docs/cli.md, Output): the line on stderr under --json, and the `error` of a batch's results and a smoke report. */
export interface ErrorJson {
  code: ErrorCode;
  exit_code: ExitCode;
  status: number | null;
  service_code: number | string | null;
  message: string;
  hint: string | null;
}

/** The one place an error becomes JSON; `clean` masks what must not be printed (a token a server echoed). */
export function errorJson(error: CliError, clean: (text: string) => string = (text) => text): ErrorJson {
  return {
    code: error.code,
    exit_code: error.exitCode,
    status: error.status ?? null,
    service_code: error.serviceCode ?? null,
    message: clean(error.message),
    hint: error.hint ? clean(error.hint) : null,
  };
}
/** What to do about a missing or refused token kept in a profile. */
export const LOGIN_HINT = "run `foodctl auth login` or set FOODCTL_TOKEN";
/** The same, when the token came from FOODCTL_TOKEN: it beats any stored token, so logging in cannot help. */
export const ENV_TOKEN_HINT =
  "unset FOODCTL_TOKEN or replace it with a fresh token (`foodctl auth login` cannot help while the variable is set)";

/** The hint for a token that is refused, by where the token came from. */
export const tokenHint = (fromEnv: boolean) => (fromEnv ? ENV_TOKEN_HINT : LOGIN_HINT);

/** The one map from an HTTP error status to the CLI's error kind (docs/cli.md, exit codes). */
export function errorForStatus(status: number, message: string, options: CliErrorOptions = {}): CliError {
  const withStatus = { ...options, status };
  if (status === 401) return authError(message, { ...withStatus, hint: options.hint ?? LOGIN_HINT });
  if (status === 403) return forbiddenError(message, withStatus);
  if (status === 404) return notFoundError(message, withStatus);
  if (status === 429 || status >= 500) return unavailableError(message, withStatus);
  if (status >= 400) return rejectedError(message, withStatus);
  return failure(message, withStatus);
}

/** Unknown throwables become exit 1 ("a bug, an unreadable response"). */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return failure(`unexpected error: ${message}`, { cause: error });
}
