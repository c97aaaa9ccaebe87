/**
 * The quota an answer tells (docs/api.md, rate limit): every answer to a known token carries
 * User-ID and the account's credits; an APIUser token's answers also carry RateLimit-Limit,
 * -Remaining and -Reset (seconds until the rolling window frees a call). Pure, no I/O.
 */
import { parseSeconds } from "./answers.js";

export interface Quota {
  /** Calls allowed in the rolling window; undefined when the token is not limited (no RateLimit-* headers). */
  limit: number | undefined;
  remaining: number | undefined;
  /** Milliseconds from the answer until the window frees a call. */
  resetMs: number | undefined;
  creditsUsed: number | undefined;
  creditsRemaining: number | undefined;
  userId: string | undefined;
}

/** The headers that tell the quota, as --verbose traces them. */
export const QUOTA_HEADERS = [
  "user-id",
  "x-account-credits-used",
  "x-account-credits-remaining",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
] as const;

const whole = (value: string | undefined) => (value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined);

/** The quota of an answer's headers (lower-case names), or null when it tells none. */
export function readQuota(headers: Record<string, string | undefined>): Quota | null {
  const userId = headers["user-id"]?.trim();
  const quota: Quota = {
    limit: whole(headers["ratelimit-limit"]),
    remaining: whole(headers["ratelimit-remaining"]),
    resetMs: parseSeconds(headers["ratelimit-reset"]),
    creditsUsed: whole(headers["x-account-credits-used"]),
    creditsRemaining: whole(headers["x-account-credits-remaining"]),
    userId: userId && /^[A-Za-z0-9._-]{1,64}$/.test(userId) ? userId : undefined,
  };
  return Object.values(quota).every((value) => value === undefined) ? null : quota;
}
