/**
 * `--rate-limit`: a sliding window per bearer token (docs/api.md, rate limit). Requests without
 * a token share their own window, so they never use up a real user's allowance. Every answer
 * carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds); a 429 also carries
 * Retry-After, as the public service sends them.
 */
import { ApiError, SERVICE_CODES } from "./errors.js";

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimiter {
  /** Counts one request under `key` (a token, or null for none) at `now` milliseconds. */
  take(key: string | null, now: number): RateDecision;
}

/** Windows kept at most; the least recently used one is dropped beyond it. */
const MAX_WINDOWS = 10_000;
const ANONYMOUS = "\u0000anonymous";

/** Never more than `floor(rate)` requests per token in any window of max(1 s, 1/rate s). */
export function createRateLimiter(rate: number): RateLimiter {
  const allowed = Math.max(1, Math.floor(rate));
  const windowMs = Math.max(1000, 1000 / rate);
  const windows = new Map<string, number[]>();

  return {
    take(key, now) {
      const name = key ?? ANONYMOUS;
      const recent = windows.get(name) ?? [];
      windows.delete(name);
      while (recent.length > 0 && recent[0]! <= now - windowMs) recent.shift();
      const limited = recent.length >= allowed;
      if (!limited) recent.push(now);
      windows.set(name, recent);
      if (windows.size > MAX_WINDOWS) windows.delete(windows.keys().next().value as string);
      const resetSeconds = Math.max(limited ? 1 : 0, Math.ceil((recent[0]! + windowMs - now) / 1000));
      const headers: Record<string, string> = {
        "ratelimit-limit": String(allowed),
        "ratelimit-remaining": String(allowed - recent.length),
        "ratelimit-reset": String(resetSeconds),
      };
      if (limited) headers["retry-after"] = String(resetSeconds);
      return { allowed: !limited, headers };
    },
  };
}

export function rateLimited(rate: number, headers: Record<string, string>): ApiError {
  return new ApiError(429, SERVICE_CODES.rateLimited, `rate limit exceeded: at most ${rate} requests per second per token`, headers);
}
