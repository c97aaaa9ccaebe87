/**
 * The API client: base URL and /v2 paths, bearer token, user_id, timeout, retries with
 * backoff and jitter, response size limit, one error mapping, a masked trace, and a lenient
 * schema parse of every response.
 */
import { systemClock, type Clock } from "../clock.js";
import { errorForStatus, failure, interruptedError, unavailableError, type CliError } from "../errors.js";
import { cleanForTerminal, cleanParsedValue, TERMINAL_UNSAFE } from "../output/sanitize.js";
import { paths } from "./paths.js";
// Plain checks pinned to the zod schemas of ./schemas.ts: answers are checked without loading zod at every start.
import {
  ErrorBodyCheck as ErrorBodySchema,
  IntakeListResponseCheck as IntakeListResponseSchema,
  IntakeResponseCheck as IntakeResponseSchema,
} from "./checks.js";
import type { IntakeListResponse, IntakeResponse } from "./schemas.js";
import { TransportError, type Transport, type TransportResponse } from "./transport.js";

export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** A Retry-After longer than this is not waited for: the user is told to come back. */
const MAX_RETRY_AFTER_MS = 120_000;

export interface ClientOptions {
  baseUrl: URL;
  token: string;
  userId?: number | undefined;
  timeoutMs: number;
  retries: number;
  /**
   * A separate budget for 429s, for a batch that should slow down instead of failing. Unset,
   * a 429 is one of the `retries` like a 503: `--retries 0` means one attempt, whatever the answer.
   */
  rateLimitRetries?: number | undefined;
  userAgent: string;
  transport: Transport;
  trace?: ((line: string) => void) | undefined;
  /** Waits (retries, Retry-After) and reads the time (the 429 pause); the system clock unless a test passes one. */
  clock?: Clock | undefined;
  random?: () => number;
  signal?: AbortSignal | undefined;
  /** Sees every answer's status and headers (a batch reads the rate-limit headers from it). */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
}

export interface ResponseInfo {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
}

export interface ApiResult<T> {
  /** The body as received, for `--json`. */
  raw: string;
  data: T;
  status: number;
  /** The answer's RateLimit-* headers, for a batch that paces itself (null when it sent none). */
  rateLimit: RateLimitInfo | null;
}

export interface RateLimitInfo {
  limit: number | undefined;
  remaining: number | undefined;
  /** RateLimit-Reset in milliseconds from when the answer came. */
  resetMs: number | undefined;
}

export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
}

interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** What Ctrl-C means for the user's data, said plainly: was a change sent or not? */
function interruptedDuring(method: string, host: string, maybeSent: boolean) {
  if (method === "GET" || method === "HEAD") return interruptedError(`interrupted while reading from ${host}; no change was sent`);
  if (maybeSent) {
    return interruptedError(`interrupted after the ${method} request was sent to ${host}; the change may have been applied`, {
      hint: "check with `foodctl intake show <image_id>`; sending the same change again is safe",
    });
  }
  return interruptedError(`interrupted before the ${method} request was sent; nothing was changed`);
}

export class ApiClient {
  /** Shared with every client derived from this one, so a 429 pauses them all. */
  private readonly pause: { until: number };
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(
    private readonly options: ClientOptions,
    pause: { until: number } = { until: 0 },
  ) {
    this.pause = pause;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /**
   * The same client acting for another user, or without the Ctrl-C signal (a batch lets its
   * requests in flight finish): it shares the transport (and so its connection pool) and the 429 pause.
   */
  derive(
    overrides: Partial<Pick<ClientOptions, "userId" | "signal" | "rateLimitRetries" | "onResponse">>,
  ): ApiClient {
    return new ApiClient({ ...this.options, ...overrides }, this.pause);
  }

  /** Holds every request of this client and the clients derived from it until `time` (ms since the epoch). */
  pauseUntil(time: number): void {
    this.pause.until = Math.max(this.pause.until, time);
  }

  get host(): string {
    return this.options.baseUrl.host;
  }

  /** The URL a request goes to, with user_id when acting for a user. */
  url(path: string, query: Record<string, string | undefined> = {}): URL {
    const url = new URL(this.options.baseUrl.href.replace(/\/$/, "") + path);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    if (this.options.userId !== undefined) url.searchParams.set("user_id", String(this.options.userId));
    return url;
  }

  /** What a request would look like, token masked (for --dry-run). */
  describe(method: string, url: URL, extraHeaders: Record<string, string> = {}): RequestDescription {
    return { method, url: url.href, headers: { authorization: "Bearer ****", "user-agent": this.options.userAgent, ...extraHeaders } };
  }

  async getIntake(imageId: number): Promise<ApiResult<IntakeResponse>> {
    return this.send("GET", this.url(paths.intake(imageId)), undefined, {}, IntakeResponseSchema);
  }

  async listIntakes(range: { from?: string | undefined; to?: string | undefined } = {}): Promise<ApiResult<IntakeListResponse>> {
    const url = this.url(paths.intakesList(), { date_from: range.from, date_to: range.to });
    return this.send("GET", url, undefined, {}, IntakeListResponseSchema);
  }

  /** The update operation. The answer is not relied on (a real server may send an empty body). */
  async confirmQuantity(body: Record<string, unknown>): Promise<ApiResult<unknown>> {
    return this.send("POST", this.url(paths.confirmQuantity()), Buffer.from(JSON.stringify(body)), { "content-type": "application/json" }, null);
  }

  async attachDisplayImage(imageId: number, body: Buffer, contentType: string): Promise<ApiResult<unknown>> {
    return this.send("POST", this.url(paths.displayImage(imageId)), body, { "content-type": contentType }, null);
  }

  async removeDisplayImage(imageId: number): Promise<ApiResult<unknown>> {
    return this.send("DELETE", this.url(paths.displayImage(imageId)), undefined, {}, null);
  }

  private async send<T>(
    method: string,
    url: URL,
    body: Buffer | undefined,
    headers: Record<string, string>,
    schema: Schema<T> | null,
  ): Promise<ApiResult<T>> {
    const { retries, trace } = this.options;
    let attempt = 0;
    let rateLimited = 0;
    /** An earlier attempt may have reached the server (it was sent, or answered). */
    let reached = false;
    for (;;) {
      await this.waitForPause();
      if (this.options.signal?.aborted) throw interruptedDuring(method, url.host, reached);
      const started = performance.now();
      trace?.(`> ${method} ${url.href}${attempt + rateLimited > 0 ? ` (attempt ${attempt + rateLimited + 1})` : ""}`);
      trace?.(`> authorization: Bearer ****`);
      let response: TransportResponse;
      try {
        response = await this.options.transport({
          method,
          url,
          headers: {
            accept: "application/json",
            authorization: `Bearer ${this.options.token}`,
            "user-agent": this.options.userAgent,
            ...headers,
          },
          body,
          timeoutMs: this.options.timeoutMs,
          maxResponseBytes: MAX_RESPONSE_BYTES,
          signal: this.options.signal,
        });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        const elapsed = Math.round(performance.now() - started);
        trace?.(`< ${error.kind} after ${elapsed} ms: ${error.message}`);
        reached ||= error.maybeSent;
        if (error.kind === "aborted") throw interruptedDuring(method, url.host, reached);
        if (error.kind === "too_large") {
          const status = error.status === undefined ? "" : `${error.status} answer's `;
          throw failure(`unreadable response from ${url.host}: ${status}${error.message.replace(/^response /, "")}; nothing of it was used`, { status: error.status });
        }
        if (attempt < retries) {
          attempt++;
          await this.backoff(attempt, undefined);
          continue;
        }
        const sent = method === "GET" ? "" : reached ? " (the request may have reached the server)" : " (nothing was sent)";
        throw unavailableError(`${url.host} unreachable: ${error.message}${sent}`, {
          hint: attempt > 0 ? `gave up after ${attempt + 1} attempts` : undefined,
        });
      }
      reached = true;
      this.options.onResponse?.({ status: response.status, headers: response.headers });
      const elapsed = Math.round(performance.now() - started);
      trace?.(`< ${response.status} ${method} ${url.pathname} ${elapsed} ms, ${response.body.byteLength} bytes`);

      if (response.status >= 200 && response.status < 300) return this.parse(response, url, schema);

      if (RETRYABLE_STATUSES.has(response.status)) {
        // docs/api.md, rate limit: RateLimit-Reset counts when there is no Retry-After.
        const retryAfter = parseRetryAfter(response.headers["retry-after"], this.clock.now()) ?? parseSeconds(response.headers["ratelimit-reset"]);
        const ownBudget = response.status === 429 && this.options.rateLimitRetries !== undefined;
        const budgetLeft = ownBudget ? rateLimited < (this.options.rateLimitRetries ?? 0) : attempt < retries;
        if (budgetLeft && (retryAfter === undefined || retryAfter <= MAX_RETRY_AFTER_MS)) {
          if (response.status === 429) {
            if (ownBudget) rateLimited++;
            else attempt++;
            // Every request of this client waits, so a batch slows down as a whole.
            this.pause.until = Math.max(this.pause.until, this.clock.now() + (retryAfter ?? this.backoffMs(attempt + rateLimited)));
          } else {
            attempt++;
            await this.backoff(attempt, retryAfter);
          }
          continue;
        }
      }
      throw this.httpError(response, url);
    }
  }

  private parse<T>(response: TransportResponse, url: URL, schema: Schema<T> | null): ApiResult<T> {
    const raw = response.body.toString("utf8");
    if (schema === null) {
      let data: unknown = null;
      if (raw.trim() !== "") {
        try {
          data = cleanParsed(raw);
        } catch {
          data = null;
        }
      }
      return { raw, data: data as T, status: response.status, rateLimit: readRateLimit(response.headers) };
    }
    let json: unknown;
    try {
      json = cleanParsed(raw);
    } catch {
      throw failure(`unreadable response from ${url.host}: ${response.status} answer is not JSON`, { status: response.status });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join(".") : "body";
      throw failure(`unexpected response from ${url.host}: ${response.status} answer does not fit: ${where}: ${issue?.message ?? "invalid"}`, { status: response.status });
    }
    return { raw, data: parsed.data, status: response.status, rateLimit: readRateLimit(response.headers) };
  }

  private httpError(response: TransportResponse, url: URL): CliError {
    if (response.status >= 300 && response.status < 400) {
      // Never followed: a redirect to another host would carry the token there.
      const location = response.headers.location;
      let target = "";
      try {
        target = location ? ` to ${new URL(location, url).host}` : "";
      } catch {
        target = "";
      }
      return failure(`${url.host} answered ${response.status}, a redirect${target}; redirects are not followed, so nothing was sent there`, {
        status: response.status,
        hint: "point --api-url at the address the API itself answers on",
      });
    }
    const { message: reason, code } = readErrorBody(response.body);
    const text = statusText(response.status);
    // The service's own number (docs/api.md, error codes), shown only where it says more than the status.
    const codeText = code !== null && String(code) !== String(response.status) ? ` (code ${code})` : "";
    const message = `${url.host} answered ${response.status}${codeText}${reason ? `: ${reason}` : text ? ` ${text}` : ""}`;
    const userIdHint = response.status === 400 && this.options.userId === undefined && /user_id/i.test(reason ?? "");
    const hint = userIdHint ? "this token acts for other users: name one with --user <id>" : undefined;
    return errorForStatus(response.status, message, { serviceCode: code ?? undefined, ...(hint ? { hint } : {}) });
  }

  private backoffMs(attempt: number): number {
    const ceiling = Math.min(8000, 250 * 2 ** attempt);
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  private async backoff(attempt: number, retryAfterMs: number | undefined): Promise<void> {
    await this.clock.sleep(retryAfterMs ?? this.backoffMs(attempt), this.options.signal);
  }

  private async waitForPause(): Promise<void> {
    const wait = this.pause.until - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait, this.options.signal);
  }
}

/** Retry-After in seconds or as an HTTP date; milliseconds, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  // Every HTTP-date form starts with a day name; Date.parse alone would read "1.5" as 2001.
  if (!/^[A-Za-z]{3}/.test(value.trim())) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The readable sentence of an error body, one line; null for a non-JSON body (an HTML 502). */
export function errorMessage(body: Buffer): string | null {
  return readErrorBody(body).message;
}

/** An error body's sentence (one line) and the service's code; nulls for a non-JSON body. */
export function readErrorBody(body: Buffer): { message: string | null; code: number | string | null } {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(body.toString("utf8")));
    if (parsed.success) {
      const code = parsed.data.code;
      const cleanCode = typeof code === "number" && Number.isFinite(code) ? code : typeof code === "string" && /^[A-Za-z0-9._-]{1,32}$/.test(code) ? code : null;
      return { message: parsed.data.message ? oneLine(parsed.data.message) : null, code: cleanCode };
    }
  } catch {
    // not JSON: the status says it all
  }
  return { message: null, code: null };
}

/** A header counting seconds (RateLimit-Reset, -Remaining): whole or fractional; undefined when absent or unreadable. */
function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.round(Number(value) * 1000);
}

/** The RateLimit-* headers of an answer, or null when it has none. */
export function readRateLimit(headers: Record<string, string | undefined>): RateLimitInfo | null {
  const whole = (value: string | undefined) => (value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined);
  const info = { limit: whole(headers["ratelimit-limit"]), remaining: whole(headers["ratelimit-remaining"]), resetMs: parseSeconds(headers["ratelimit-reset"]) };
  return info.limit === undefined && info.remaining === undefined && info.resetMs === undefined ? null : info;
}

/**
 * What a terminal-unsafe character (src/output/sanitize.ts) can look like in JSON text: raw, or
 * as an escape (\b, \f, \r, \u00XX, or \uXXXX of a bidirectional control). Text without any of
 * these parses to clean values, so the walk is skipped for it: the common case, and the hot path
 * of a batch.
 */
const MAY_HOLD_CONTROLS = new RegExp(`${TERMINAL_UNSAFE.source}|\\\\[bfr]|\\\\u(00[0-9a-f]{2}|061c|200[ef]|202[a-e]|206[6-9])`, "i");

/**
 * The parsed answer with every terminal-unsafe character in its strings (and keys) replaced by
 * U+FFFD, so a hostile or broken server cannot send escape sequences to the user's terminal
 * through names, comments or messages. `raw` (what --json prints) stays as received.
 */
function cleanParsed(raw: string): unknown {
  const value: unknown = JSON.parse(raw);
  return MAY_HOLD_CONTROLS.test(raw) ? cleanParsedValue(value) : value;
}

function oneLine(text: string): string {
  const line = cleanForTerminal(text.replace(/\s+/g, " ")).trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? "";
}
