import { readTokenClaims } from "../../config/jwt.js";
import { resolveProfileName } from "../../config/settings.js";
import { updateProfile } from "../../config/store.js";
import type { Context } from "../../context.js";
import { authError, cancelledError, usageError } from "../../errors.js";
import { readAtMost } from "../../io.js";
import { cleanForTerminal } from "../../output/sanitize.js";
import { jsonLine } from "../args.js";
import { describeClaims } from "./describe.js";

const MAX_TOKEN_BYTES = 16 * 1024;

async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const bytes = await readAtMost(stream as AsyncIterable<Buffer | string>, MAX_TOKEN_BYTES);
  if (bytes.byteLength > MAX_TOKEN_BYTES) throw usageError(`stdin holds more than ${MAX_TOKEN_BYTES} bytes: not a token`);
  return bytes.toString("utf8");
}

async function promptToken(ctx: Context): Promise<string> {
  const { default: password } = await import("@inquirer/password");
  try {
    return await password(
      { message: "Paste your API token (input hidden):", mask: false },
      { input: ctx.io.stdin as NodeJS.ReadableStream, output: ctx.io.stderr as unknown as NodeJS.WritableStream },
    );
  } catch (error) {
    if ((error as Error).name === "ExitPromptError" || (error as Error).name === "AbortPromptError") throw cancelledError("login cancelled");
    throw error;
  }
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

  const claims = readTokenClaims(token);
  if (!claims) throw authError("that is not a JWT (three base64url parts separated by dots)", { hint: "nothing was stored" });
  const described = describeClaims(claims);
  if (described.expired) ctx.warn(`the token expired at ${described.expires_at}; it is stored, but the API will refuse it`);

  await updateProfile(ctx.io.env, profile, (current) => ({ ...current, token }));
  if (ctx.io.env.FOODCTL_TOKEN) ctx.warn("FOODCTL_TOKEN is set and takes precedence over the stored token");

  if (ctx.json) {
    ctx.io.stdout.write(jsonLine({ profile, ...described, stored_in: ctx.configPath }));
  } else {
    const expiry = described.expires_at ? `, expires ${described.expires_at}` : "";
    const who = `${described.subject ?? "(no subject)"} (${described.role ?? "no role"})`;
    ctx.io.stdout.write(cleanForTerminal(`Logged in to profile "${profile}" as ${who}${expiry}\n`));
  }
  return 0;
}
