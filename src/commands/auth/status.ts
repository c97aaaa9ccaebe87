import { readTokenClaims } from "../../config/jwt.js";
import { tokenTextProblem } from "../../config/token.js";
import type { Context } from "../../context.js";
import { authError, CliError, ENV_TOKEN_HINT, EXIT, tokenHint } from "../../errors.js";
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
  accepted: boolean;
  status: number;
  host: string;
  /** What the answer's headers tell of calls and credits left (docs/api.md, rate limit). */
  quota: Quota | null;
}

/**
 * One cheap read (the history list over a window of one second) to learn whether the server takes
 * the token. A 400 or 403 means it did (authentication comes first); only a 401 means it did not.
 */
async function checkWithServer(ctx: Context): Promise<ServerCheck> {
  let headers: Record<string, string | undefined> = {};
  // No retries: a 429 is an answer here, and says when the window frees a call.
  const client = (await ctx.client()).derive({ onResponse: (info) => (headers = info.headers), rateLimitRetries: 0 });
  const now = formatApiDateTime(new Date(ctx.now()));
  try {
    const result = await client.listIntakes({ from: now, to: now });
    return { accepted: true, status: result.status, host: client.host, quota: readQuota(headers) };
  } catch (error) {
    if (error instanceof CliError && error.status !== undefined && error.status >= 400 && error.status < 500) {
      return { accepted: error.status !== 401, status: error.status, host: client.host, quota: readQuota(headers) };
    }
    throw error;
  }
}

/** The quota's rows: calls left and when the window frees one (on the user's clock, else UTC, named), credits left. */
async function quotaRows(ctx: Context, quota: Quota | null, now: number): Promise<Array<[string, string]>> {
  if (quota === null) return [["calls left", "not told (the answer carried no quota headers)"]];
  const rows: Array<[string, string]> = [];
  if (quota.remaining === undefined) rows.push(["calls left", "not limited for this token (no RateLimit headers: not an APIUser token)"]);
  else {
    const of = quota.limit === undefined ? "" : ` of ${thousands(quota.limit)} in the rolling window`;
    rows.push(["calls left", `${thousands(quota.remaining)}${of}`]);
    // An empty window (the history list this check reads is not counted) has nothing to reset.
    if (quota.resetMs === 0) rows.push(["resets", "nothing to reset: no call counted in the window"]);
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
  const check = options.check && problem === null ? await checkWithServer(ctx) : null;
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
    usable: problem === null && (check === null || check.accepted),
    problem,
    server_check: check === null ? null : { accepted: check.accepted, status: check.status, quota: quotaJson(check.quota, now) },
  };
  await ctx.print({
    json: status,
    text: async () => {
      const rows: Array<[string, string]> = [
        ["profile", status.profile],
        ["api url", apiUrl ? `${apiUrl} (from ${status.api_url_source})` : "not set"],
        ["acting for", status.user === null ? "the token's own user" : `user ${status.user}`],
        ["token", status.token_source ? `from ${status.token_source}` : "none"],
        ...tokenRows(kind, described, (await ctx.timeZone()) ?? "UTC"),
      ];
      if (check) rows.push(["server", `${check.host} ${check.accepted ? "accepts" : "refuses"} the token (answered ${check.status})`]);
      if (check?.accepted) rows.push(...(await quotaRows(ctx, check.quota, now)));
      const width = Math.max(...rows.map(([key]) => key.length));
      return rows.map(([key, value]) => `${key.padEnd(width)}  ${cleanForTerminal(value)}`).join("\n") + "\n";
    },
  });
  // After the status itself, so a script sees both; main prints it (as JSON under --json).
  const fromEnv = token?.source === "env";
  if (problem) throw authError(problem, { hint: textProblem?.hint ?? tokenHint(fromEnv) });
  if (check && !check.accepted) {
    const hint = fromEnv ? ENV_TOKEN_HINT : "run `foodctl auth login` with a valid token";
    throw authError(`${check.host} refused the token (answered ${check.status})`, { status: check.status, hint });
  }
  return EXIT.ok;
}
