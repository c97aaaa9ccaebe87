import { readTokenClaims } from "../../config/jwt.js";
import { tokenTextProblem } from "../../config/token.js";
import type { Context } from "../../context.js";
import { authError, CliError, ENV_TOKEN_HINT, EXIT, tokenHint, usageError } from "../../errors.js";
import { readQuota, type Quota } from "../../api/quota.js";
import { describeWait } from "../../clock.js";
import { thousands } from "../../intake/amounts.js";
import { formatApiDateTime } from "../../intake/dates.js";
import { formatClock } from "../../output/time.js";
import { cleanForTerminal } from "../../sanitize.js";
import { redactSecrets } from "../../secrets.js";
import { describeClaims } from "./describe.js";

const OPAQUE_NOTE = "opaque: its subject and expiry are known only to the server (check with --check)";

interface ServerCheck {
  /** null when the answer does not tell (a 400: the read itself was refused, e.g. no user_id). */
  accepted: boolean | null;
  /** The refusal of a 400, said as it is. */
  error: CliError | null;
  status: number;
  host: string;
  /** What the answer's headers tell of calls and credits left (docs/api.md, rate limit). */
  quota: Quota | null;
}

/**
 * One cheap read (the history list over a window of one second) to learn whether the server takes
 * the token. A 403 means it did (authentication comes first); a 401 means it did not; a 400 tells neither.
 */
async function checkWithServer(ctx: Context): Promise<ServerCheck> {
  let headers: Record<string, string | undefined> = {};
  // No retries: a 429 is an answer here, and says when the window frees a call.
  const client = (await ctx.client()).derive({ onResponse: (info) => (headers = info.headers), rateLimitRetries: 0 });
  const now = formatApiDateTime(new Date(ctx.now()));
  try {
    const result = await client.listIntakes({ from: now, to: now });
    return { accepted: true, error: null, status: result.status, host: client.host, quota: readQuota(headers) };
  } catch (error) {
    if (error instanceof CliError && error.status !== undefined && error.status >= 400 && error.status < 500) {
      // A 400 is not acceptance: the read was refused before the token could be used (docs/cli.md, the token).
      const accepted = error.status === 400 ? null : error.status !== 401;
      return { accepted, error: error.status === 400 ? error : null, status: error.status, host: client.host, quota: readQuota(headers) };
    }
    throw error;
  }
}

/** The quota's rows: calls left and when the window frees one (on the user's clock, else UTC, named), credits left. */
async function quotaRows(ctx: Context, quota: Quota | null, now: number): Promise<Array<[string, string]>> {
  if (quota === null) return [["calls left", "not told (the answer carried no quota headers)"]];
  const rows: Array<[string, string]> = [];
  if (quota.remaining === undefined) rows.push(["calls left", "not limited for this token (the answer carried no RateLimit headers)"]);
  else {
    const of = quota.limit === undefined ? "" : ` of ${thousands(quota.limit)} in the rolling window`;
    rows.push(["calls left", `${thousands(quota.remaining)}${of}`]);
    // An unused window (the history list this check reads is not counted) has nothing to reset.
    if (quota.resetMs === 0 || quota.remaining === quota.limit) rows.push(["resets", "nothing to reset: no call counted in the window"]);
    else if (quota.resetMs !== undefined) {
      const zone = (await ctx.timeZone()) ?? "UTC";
      rows.push(["resets", `${formatClock(now + quota.resetMs, zone)} (in ${describeWait(quota.resetMs)})`]);
    }
  }
  if (quota.creditsRemaining !== undefined) {
    const used = quota.creditsUsed === undefined ? "" : ` (${thousands(quota.creditsUsed)} used)`;
    rows.push(["credits left", `${thousands(quota.creditsRemaining)}${used}`]);
  }
  return rows;
}

function quotaJson(quota: Quota | null, now: number) {
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

function roleName(role: string | null | undefined): string {
  return role === "APICompany" ? "company" : "manager";
}

/** The user acted for; for a company's or manager's token without --user, nobody. */
function actingFor(user: number | null, roleNeedingUser: string | null): string {
  if (user !== null) return `user ${user}`;
  return roleNeedingUser === null ? "the token's own user" : `nobody: a ${roleName(roleNeedingUser)} token acts for the user --user names`;
}

function serverRow(check: ServerCheck): string {
  if (check.accepted === null)
    return `not accepted, not refused: the check could not be made (${check.error?.message ?? `answered ${check.status}`})`;
  return `${check.host} ${check.accepted ? "accepts" : "refuses"} the token (answered ${check.status})`;
}

function tokenRows(kind: string | null, described: ReturnType<typeof describeClaims> | null, zone: string): Array<[string, string]> {
  if (kind === "opaque") return [["kind", OPAQUE_NOTE]];
  return [
    ["kind", kind === "jwt" ? "JWT (claims read here, not verified)" : "-"],
    ["subject", described?.subject ?? "-"],
    ["role", described?.role ?? "-"],
    [
      "expires",
      described?.expires_at ? `${formatClock(Date.parse(described.expires_at), zone)}${described.expired ? " (expired)" : ""}` : "-",
    ],
  ];
}

export async function statusCommand(ctx: Context, options: { check: boolean } = { check: false }): Promise<number> {
  const settings = ctx.settings();
  ctx.noteEnvOverrides();
  const token = settings.token;
  const textProblem = token ? tokenTextProblem(token.value) : null;
  const claims = token && !textProblem ? readTokenClaims(token.value) : null;
  const kind = !token || textProblem ? null : claims ? "jwt" : "opaque";
  const described = claims ? describeClaims(claims, ctx.now() / 1000) : null;
  const problem = !token ? "no token" : textProblem ? `the token ${textProblem.message}` : described?.expired ? "token expired" : null;
  // A company's or manager's token acts for nobody until --user names a user: without one, there is nothing to check as.
  const needsUser = settings.user === undefined && (described?.role === "APICompany" || described?.role === "APIUserManager");
  const check = options.check && problem === null && !needsUser ? await checkWithServer(ctx) : null;
  const now = ctx.now();
  const apiUrl = settings.apiUrl ? redactSecrets(settings.apiUrl.value) : null;
  const status = {
    profile: settings.profile,
    api_url: apiUrl,
    api_url_source: settings.apiUrl?.source ?? null,
    user: settings.user ?? null,
    token_source: token ? (token.source === "env" ? "FOODCTL_TOKEN" : "profile") : null,
    token_kind: kind,
    subject: described?.subject ?? null,
    role: described?.role ?? null,
    expires_at: described?.expires_at ?? null,
    usable: problem === null && (check === null || check.accepted === true),
    problem,
    server_check: check === null ? null : { accepted: check.accepted, status: check.status, quota: quotaJson(check.quota, now) },
  };
  await ctx.print({
    json: status,
    text: async () => {
      const rows: Array<[string, string]> = [
        ["profile", status.profile],
        ["api url", apiUrl ? `${apiUrl} (from ${status.api_url_source})` : "not set"],
        ["acting for", actingFor(status.user, needsUser ? (described?.role ?? null) : null)],
        ["token", status.token_source ? `from ${status.token_source}` : "none"],
        ...tokenRows(kind, described, (await ctx.timeZone()) ?? "UTC"),
      ];
      if (check) rows.push(["server", serverRow(check)]);
      else if (options.check && needsUser) rows.push(["server", "not asked: name the user to check as with --user"]);
      if (check?.accepted) rows.push(...(await quotaRows(ctx, check.quota, now)));
      const width = Math.max(...rows.map(([key]) => key.length));
      return rows.map(([key, value]) => `${key.padEnd(width)}  ${cleanForTerminal(value)}`).join("\n") + "\n";
    },
  });
  // After the status itself, so a script sees both; main prints it (as JSON under --json).
  const fromEnv = token?.source === "env";
  if (problem) throw authError(problem, { hint: textProblem?.hint ?? tokenHint(fromEnv) });
  if (options.check && needsUser && problem === null)
    throw usageError(`--check with a ${roleName(described?.role)} token needs --user: the token acts for nobody until it names a user`, {
      hint: "foodctl auth status --check --user <id>",
    });
  if (check?.error) throw check.error;
  if (check && check.accepted === false) {
    const hint = fromEnv ? ENV_TOKEN_HINT : "run `foodctl auth login` with a valid token";
    throw authError(`${check.host} refused the token (answered ${check.status})`, { status: check.status, hint });
  }
  return EXIT.ok;
}
