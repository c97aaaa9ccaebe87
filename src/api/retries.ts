/** The attempts of one request: backoff with jitter, Retry-After, the shared 429 pause, and what a failure or Ctrl-C means for the data. */
import type { Clock } from "../clock.js";
import { failure, interruptedError, unavailableError } from "../errors.js";
import { parseRetryAfter, parseSeconds, statusText } from "./answers.js";
import { type TransportError, type TransportResponse } from "./transport.js";
import { isLoopbackHost } from "../hosts.js";

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const PROXY_HINT = "check HTTPS_PROXY, or name this host in NO_PROXY to go direct";
/** A Retry-After longer than this is not waited for: the user is told to come back. */
const MAX_RETRY_AFTER_MS = 120_000;

export interface RetrySettings {
  retries: number;
  /** The separate budget for 429s; unset, a 429 is one of the `retries`. */
  rateLimitRetries: number | undefined;
  clock: Clock;
  random: () => number;
  signal: AbortSignal | undefined;
  /** Shared with every client derived from the one sending, so a 429 pauses them all. */
  pause: { until: number };
  /** Told before each wait, so a person at a terminal knows why nothing moves (docs/cli.md, retries). */
  onWait?: ((line: string) => void) | undefined;
  /** For a refused connection to this machine: the command that starts again the sandbox that ran there, when one was recorded. */
  restartSandbox?: ((url: URL) => Promise<string | undefined>) | undefined;
}

/** "503 Service Unavailable": why a retry waits. */
const reason = (status: number) => `${status} ${statusText(status)}`;

/** "waiting 100 s before retrying (503 Service Unavailable)…" */
function retryWaitLine(ms: number, reason: string): string {
  const seconds = ms >= 10_000 ? String(Math.round(ms / 1000)) : (Math.round(ms / 100) / 10).toString();
  return `waiting ${seconds} s before retrying (${reason})…`;
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

export class Attempts {
  private attempt = 0;
  private rateLimited = 0;
  /** An earlier attempt may have reached the server (it was sent, or answered). */
  private reached = false;

  constructor(
    private readonly settings: RetrySettings,
    private readonly method: string,
    private readonly url: URL,
  ) {}

  /** How many attempts came before this one. */
  get count(): number {
    return this.attempt + this.rateLimited;
  }

  /** Waits out the shared 429 pause; throws when the user has pressed Ctrl-C. */
  async waitForTurn(): Promise<void> {
    const wait = this.settings.pause.until - this.settings.clock.now();
    if (wait > 0) await this.settings.clock.sleep(wait, this.settings.signal);
    if (this.settings.signal?.aborted) throw interruptedDuring(this.method, this.url.host, this.reached);
  }

  answered(): void {
    this.reached = true;
  }

  /** After a network failure: waits and returns to try again, or throws what the user should read. */
  async afterTransportError(error: TransportError): Promise<void> {
    const { method, url } = this;
    this.reached ||= error.maybeSent;
    if (error.kind === "aborted") throw interruptedDuring(method, url.host, this.reached);
    if (error.kind === "too_large") {
      const status = error.status === undefined ? "" : `${error.status} answer's `;
      const what = error.message.replace(/^response /, "");
      throw failure(`unreadable response from ${url.host}: ${status}${what}; nothing of it was used`, {
        status: error.status,
        cause: error,
      });
    }
    // A proxy that refuses the tunnel refuses it again: said at once, as the proxy's doing.
    if (error.kind === "proxy") throw unavailableError(`${url.host} unreachable: ${error.message}`, { hint: PROXY_HINT });
    if (this.attempt < this.settings.retries) {
      this.attempt++;
      await this.backoff(this.attempt, undefined, error.message);
      return;
    }
    const sent = method === "GET" ? "" : this.reached ? " (the request may have reached the server)" : " (nothing was sent)";
    const gaveUp = this.attempt > 0 ? `gave up after ${this.attempt + 1} attempts` : undefined;
    // Nothing listens on this machine's port: most often a sandbox that is not running.
    const refusedHere = error.message === "connection refused" && isLoopbackHost(url.hostname);
    const sandbox = refusedHere ? startSandboxHint(url, await this.settings.restartSandbox?.(url).catch(() => undefined)) : undefined;
    throw unavailableError(`${url.host} unreachable: ${error.message}${sent}`, {
      // The command last, so the hint's tail is what to paste.
      hint: [gaveUp, sandbox].filter(Boolean).join("; ") || undefined,
    });
  }

  /** True when a 429 or 502/503/504 is to be tried again (after waiting); false when its budget is spent. */
  async retryAnswer(response: TransportResponse): Promise<boolean> {
    if (!RETRYABLE_STATUSES.has(response.status)) return false;
    const { clock, pause, retries, rateLimitRetries } = this.settings;
    // docs/api.md, rate limit: RateLimit-Reset counts when there is no Retry-After.
    const retryAfter = parseRetryAfter(response.headers["retry-after"], clock.now()) ?? parseSeconds(response.headers["ratelimit-reset"]);
    const ownBudget = response.status === 429 && rateLimitRetries !== undefined;
    const budgetLeft = ownBudget ? this.rateLimited < (rateLimitRetries ?? 0) : this.attempt < retries;
    if (!budgetLeft || (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS)) return false;
    if (response.status === 429) {
      if (ownBudget) this.rateLimited++;
      else this.attempt++;
      // Every request of this client waits, so a batch slows down as a whole; said once per longer pause.
      const until = clock.now() + (retryAfter ?? this.backoffMs(this.count));
      if (until > pause.until) this.settings.onWait?.(retryWaitLine(until - clock.now(), reason(429)));
      pause.until = Math.max(pause.until, until);
    } else {
      this.attempt++;
      await this.backoff(this.attempt, retryAfter, reason(response.status));
    }
    return true;
  }

  private backoffMs(attempt: number): number {
    const ceiling = Math.min(8000, 250 * 2 ** attempt);
    return Math.round(ceiling / 2 + (this.settings.random() * ceiling) / 2);
  }

  private async backoff(attempt: number, retryAfterMs: number | undefined, why: string): Promise<void> {
    const ms = retryAfterMs ?? this.backoffMs(attempt);
    this.settings.onWait?.(retryWaitLine(ms, why));
    await this.settings.clock.sleep(ms, this.settings.signal);
  }
}

/**
 * How to start a sandbox where the API URL points (a sandbox is the usual thing that is not
 * running on this machine's port): the one recorded there again, with its flags (its state
 * file, its user), else one on that port and host; its export lines evaluated so the next
 * command has the new sandbox's token.
 */
function startSandboxHint(url: URL, again: string | undefined): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const host = url.hostname === "127.0.0.1" || url.hostname === "localhost" ? "" : ` --host ${url.hostname.replace(/^\[|\]$/g, "")}`;
  const start = again
    ? `start the sandbox that ran there again: eval "$(${again})"`
    : `start a sandbox there: eval "$(foodctl sandbox --detach --port ${port}${host})"`;
  // A sandbox speaks plain http: an https URL would still not reach it.
  return url.protocol === "https:" ? `${start}, then use http://${url.host} (a sandbox speaks http only)` : start;
}
