/**
 * `--rate-limit`: the public service's documented window (docs/api.md, rate limit). APIUser
 * tokens only: each APIUser may make `limit` requests in any rolling window (24 hours unless
 * given). Answers to an APIUser carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset
 * (seconds until the oldest request leaves the window; an unused window's length); a 429 also carries Retry-After.
 */
import { ApiError, SERVICE_CODES } from "./errors.js";

export interface RateLimitSpec {
  /** Requests allowed in any one window. */
  limit: number;
  windowMs: number;
}

/** The public service's window: "maximum allowed requests per rolling 24-hour window". */
export const DEFAULT_RATE_WINDOW_MS = 86_400_000;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimiter {
  /** Counts one request of the APIUser `userId` at `now` milliseconds, unless it is over the limit. */
  take(userId: number, now: number): RateDecision;
  /** The window as it stands, for a route the window does not count (docs/api.md, rate limit): always allowed. */
  peek(userId: number, now: number): RateDecision;
}

export function createRateLimiter(spec: RateLimitSpec): RateLimiter {
  const windows = new Map<number, number[]>();
  const recentOf = (userId: number, now: number) => {
    const recent = windows.get(userId) ?? [];
    windows.set(userId, recent);
    while (recent.length > 0 && recent[0]! <= now - spec.windowMs) recent.shift();
    return recent;
  };
  const headersOf = (recent: readonly number[], now: number, limited: boolean) => {
    // An unused window resets a whole window after the call that starts it (as the RateLimit header
    // draft has it): 0 would say every call is back at once, so a batch could plan on more than the limit.
    const oldest = recent[0] ?? now;
    const resetSeconds = Math.max(limited ? 1 : 0, Math.ceil((oldest + spec.windowMs - now) / 1000));
    const headers: Record<string, string> = {
      "ratelimit-limit": String(spec.limit),
      "ratelimit-remaining": String(spec.limit - recent.length),
      "ratelimit-reset": String(resetSeconds),
    };
    if (limited) headers["retry-after"] = String(resetSeconds);
    return headers;
  };
  return {
    take(userId, now) {
      const recent = recentOf(userId, now);
      const limited = recent.length >= spec.limit;
      if (!limited) recent.push(now);
      return { allowed: !limited, headers: headersOf(recent, now, limited) };
    },
    peek(userId, now) {
      return { allowed: true, headers: headersOf(recentOf(userId, now), now, false) };
    },
  };
}

const UNITS: ReadonlyArray<readonly [string, number]> = [
  ["h", 3_600_000],
  ["min", 60_000],
  ["s", 1000],
];

/** A window's length in its largest whole unit: 24 h, 90 min, 1 s. */
export function describeWindow(windowMs: number): string {
  const [unit, size] = UNITS.find(([, size]) => windowMs % size === 0) ?? ["ms", 1];
  return `${windowMs / size} ${unit}`;
}

export function rateLimited(spec: RateLimitSpec, headers: Record<string, string>): ApiError {
  const window = `at most ${spec.limit} requests per rolling ${describeWindow(spec.windowMs)} window`;
  return new ApiError(
    429,
    SERVICE_CODES.rateLimited,
    `rate limit exceeded: ${window}; the next is allowed in ${headers["ratelimit-reset"]} s`,
    headers,
  );
}
