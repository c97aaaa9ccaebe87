import { isExpired, type TokenClaims } from "../../config/jwt.js";

/** What may be said of a token: its claims, never the token. */
/** `now` in seconds, from the run's clock. */
export function describeClaims(claims: TokenClaims, now: number) {
  return {
    subject: claims.sub ?? null,
    role: claims.role ?? null,
    expires_at: claims.exp === undefined ? null : new Date(claims.exp * 1000).toISOString(),
    expired: isExpired(claims, now),
  };
}
