import { readTokenClaims } from "../../config/jwt.js";
import type { Context } from "../../context.js";
import { authError, EXIT } from "../../errors.js";
import { cleanForTerminal } from "../../output/sanitize.js";
import { jsonLine } from "../args.js";
import { describeClaims } from "./describe.js";

export async function statusCommand(ctx: Context): Promise<number> {
  const settings = ctx.settings();
  const token = settings.token;
  const claims = token ? readTokenClaims(token.value) : null;
  const described = claims ? describeClaims(claims) : null;
  const problem = !token ? "no token" : !claims ? "token is not a JWT" : described?.expired ? "token expired" : null;
  const status = {
    profile: settings.profile,
    api_url: settings.apiUrl?.value ?? null,
    api_url_source: settings.apiUrl?.source ?? null,
    user: settings.user ?? null,
    token_source: token ? (token.source === "env" ? "FOODCTL_TOKEN" : "profile") : null,
    subject: described?.subject ?? null,
    role: described?.role ?? null,
    expires_at: described?.expires_at ?? null,
    usable: problem === null,
    problem,
  };
  if (ctx.json) {
    ctx.io.stdout.write(jsonLine(status));
  } else {
    const rows: Array<[string, string]> = [
      ["profile", status.profile],
      ["api url", status.api_url ? `${status.api_url} (from ${status.api_url_source})` : "not set"],
      ["acting for", status.user === null ? "the token's own user" : `user ${status.user}`],
      ["token", status.token_source ? `from ${status.token_source}` : "none"],
      ["subject", status.subject ?? "-"],
      ["role", status.role ?? "-"],
      ["expires", status.expires_at ? `${status.expires_at}${described?.expired ? " (expired)" : ""}` : "-"],
    ];
    const width = Math.max(...rows.map(([key]) => key.length));
    ctx.io.stdout.write(rows.map(([key, value]) => `${key.padEnd(width)}  ${cleanForTerminal(value)}`).join("\n") + "\n");
  }
  // After the status itself, so a script sees both; main prints it (as JSON under --json).
  if (problem) throw authError(problem, { hint: "run `foodctl auth login` or set FOODCTL_TOKEN" });
  return EXIT.ok;
}
