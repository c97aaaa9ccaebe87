import { resolveProfileName } from "../../config/settings.js";
import { updateProfile } from "../../config/store.js";
import type { Context } from "../../context.js";
import { checkToken } from "../../config/token.js";
import { usageError } from "../../errors.js";
import { readAtMost } from "../../io.js";
import { describeClaims } from "../../output/auth.js";
import { cleanForTerminal } from "../../sanitize.js";
import { prompt } from "../confirm.js";

const MAX_TOKEN_BYTES = 16 * 1024;

async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const bytes = await readAtMost(stream as AsyncIterable<Buffer | string>, MAX_TOKEN_BYTES);
  if (bytes.byteLength > MAX_TOKEN_BYTES) throw usageError(`stdin holds more than ${MAX_TOKEN_BYTES} bytes: not a token`);
  return bytes.toString("utf8");
}

async function promptToken(ctx: Context): Promise<string> {
  const { default: password } = await import("@inquirer/password");
  const message = "Paste your API token (input hidden):";
  return prompt(ctx, (on) => password({ message, mask: false }, on), "login interrupted: nothing was stored");
}

export async function loginCommand(ctx: Context, options: { withToken: boolean }): Promise<number> {
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  ctx.config(); // a corrupt config file is reported before the token is asked for
  let token: string;
  if (options.withToken) token = await readStdin(ctx.io.stdin);
  else if (ctx.io.stdin.isTTY) token = await promptToken(ctx);
  else throw usageError("no terminal to ask for the token on", { hint: "pipe it in: `foodctl auth login --with-token < token.txt`" });
  token = token.trim();
  if (token === "") throw usageError("no token given");

  const checked = checkToken(token, "the token", ctx.now(), { allowExpired: true });
  const described = checked.claims ? describeClaims(checked.claims, ctx.now() / 1000) : null;
  if (described?.expired) ctx.warn(`the token expired at ${described.expires_at}; it is stored, but the API will refuse it`);

  await updateProfile(ctx.io.env, profile, (current) => ({ ...current, token }));
  if (ctx.io.env.FOODCTL_TOKEN) ctx.warn("FOODCTL_TOKEN is set and takes precedence over the stored token");

  const claims = described ?? { subject: null, role: null, expires_at: null, expired: false };
  const who = `${described?.subject ?? "(no subject)"} (${described?.role ?? "no role"})`;
  const expiry = described?.expires_at ? `, expires ${described.expires_at}` : "";
  await ctx.print({
    json: { profile, token_kind: checked.kind, ...claims, stored_in: ctx.configPath },
    text: () =>
      described
        ? cleanForTerminal(`Logged in to profile "${profile}" as ${who}${expiry}\n`)
        : `Logged in to profile "${profile}" with an opaque token (the server knows its subject and expiry: \`foodctl auth status --check\`)\n`,
  });
  return 0;
}
