import { readTokenClaims } from "../../config/jwt.js";
import { tokenTextProblem } from "../../config/token.js";
import type { Context } from "../../context.js";
import { authError, CliError, ENV_TOKEN_HINT, EXIT, tokenHint, usageError } from "../../errors.js";
import { readQuota } from "../../api/quota.js";
import { formatApiDateTime } from "../../intake/dates.js";
import { actingFor, alignedRows, describeClaims, quotaJson, roleName, serverRows, tokenRows, type ServerCheck } from "../../output/auth.js";
import { redactSecrets } from "../../secrets.js";

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
      const zone = (await ctx.timeZone()) ?? "UTC";
      return alignedRows([
        ["profile", status.profile],
        ["api url", apiUrl ? `${apiUrl} (from ${status.api_url_source})` : "not set"],
        ["acting for", actingFor(status.user, needsUser ? (described?.role ?? null) : null)],
        ["token", status.token_source ? `from ${status.token_source}` : "none"],
        ...tokenRows(kind, described, zone),
        ...serverRows(check, options.check && needsUser, now, zone),
      ]);
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
