/** `auth status` and `auth login` in words: what may be said of a token (its claims, never the token), the server's answer. */
import type { Quota } from "../api/quota.js";
import { describeWait } from "../clock.js";
import { isExpired, type TokenClaims } from "../config/jwt.js";
import type { CliError } from "../errors.js";
import { thousands } from "../intake/amounts.js";
import { cleanForTerminal } from "../sanitize.js";
import { formatClock } from "./time.js";

/** `now` in seconds, from the run's clock. */
export function describeClaims(claims: TokenClaims, now: number) {
  return {
    subject: claims.sub ?? null,
    role: claims.role ?? null,
    expires_at: claims.exp === undefined ? null : new Date(claims.exp * 1000).toISOString(),
    expired: isExpired(claims, now),
  };
}

/** The server's answer to the token: accepted, or null when a 400 (refused: `error`) tells neither; the quota its headers tell (docs/api.md). */
export interface ServerCheck {
  accepted: boolean | null;
  error: CliError | null;
  status: number;
  host: string;
  quota: Quota | null;
}

/** The server's answer as rows: not asked when the token acts for nobody; when it took the token, the quota too. */
export function serverRows(check: ServerCheck | null, notAsked: boolean, now: number, zone: string): Array<[string, string]> {
  if (!check) return notAsked ? [["server", "not asked: name the user to check as with --user"]] : [];
  const answer = `${check.host} ${check.accepted ? "accepts" : "refuses"} the token (answered ${check.status})`;
  if (check.accepted !== null) return [["server", answer], ...(check.accepted ? quotaRows(check.quota, now, zone) : [])];
  return [["server", `not accepted, not refused: the check could not be made (${check.error?.message ?? `answered ${check.status}`})`]];
}

/** Rows as `key  value` lines, the values after the longest key. */
export function alignedRows(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `${key.padEnd(width)}  ${cleanForTerminal(value)}`).join("\n") + "\n";
}

/** The quota's rows: calls left and when the window frees one (on the user's clock, else UTC, named), credits left. */
function quotaRows(quota: Quota | null, now: number, zone: string): Array<[string, string]> {
  if (quota === null) return [["calls left", "not told (the answer carried no quota headers)"]];
  const rows: Array<[string, string]> = [];
  if (quota.remaining === undefined) rows.push(["calls left", "not limited for this token (the answer carried no RateLimit headers)"]);
  else {
    const of = quota.limit === undefined ? "" : ` of ${thousands(quota.limit)} in the rolling window`;
    rows.push(["calls left", `${thousands(quota.remaining)}${of}`]);
    // An unused window (the history list this check reads is not counted) has nothing to reset.
    const unused = quota.resetMs === 0 || quota.remaining === quota.limit;
    const resets = !unused && quota.resetMs && `${formatClock(now + quota.resetMs, zone)} (in ${describeWait(quota.resetMs)})`;
    if (quota.resetMs !== undefined) rows.push(["resets", resets || "nothing to reset: no call counted in the window"]);
  }
  if (quota.creditsRemaining !== undefined) {
    const used = quota.creditsUsed === undefined ? "" : ` (${thousands(quota.creditsUsed)} used)`;
    rows.push(["credits left", `${thousands(quota.creditsRemaining)}${used}`]);
  }
  return rows;
}

export function quotaJson(quota: Quota | null, now: number) {
  if (quota === null) return null;
  return {
    user_id: quota.userId ?? null,
    calls_limit: quota.limit ?? null,
    calls_remaining: quota.remaining ?? null,
    reset_seconds: quota.resetMs === undefined ? null : quota.resetMs / 1000,
    resets_at: quota.resetMs === undefined ? null : new Date(now + quota.resetMs).toISOString(),
    credits_used: quota.creditsUsed ?? null,
    credits_remaining: quota.creditsRemaining ?? null,
  };
}

export function roleName(role: string | null | undefined): string {
  return role === "APICompany" ? "company" : "manager";
}

/** The user acted for; for a company's or manager's token without --user, nobody. */
export function actingFor(user: number | null, roleNeedingUser: string | null): string {
  if (user !== null) return `user ${user}`;
  return roleNeedingUser === null ? "the token's own user" : `nobody: a ${roleName(roleNeedingUser)} token acts for the user --user names`;
}

export function tokenRows(kind: string | null, described: ReturnType<typeof describeClaims> | null, zone: string): Array<[string, string]> {
  if (kind === "opaque") return [["kind", "opaque: its subject and expiry are known only to the server (check with --check)"]];
  const expires = described?.expires_at && `${formatClock(Date.parse(described.expires_at), zone)}${described.expired ? " (expired)" : ""}`;
  const kindText = kind === "jwt" ? "JWT (claims read here, not verified)" : "-";
  return [
    ["kind", kindText],
    ["subject", described?.subject ?? "-"],
    ["role", described?.role ?? "-"],
    ["expires", expires || "-"],
  ];
}
