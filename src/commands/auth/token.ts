import type { Context } from "../../context.js";
import { authError, LOGIN_HINT } from "../../errors.js";

/** The one command that prints the token. */
export async function tokenCommand(ctx: Context): Promise<number> {
  const token = ctx.settings().token;
  if (!token) throw authError("not logged in: no token", { hint: LOGIN_HINT });
  ctx.printRaw(`${token.value}\n`);
  return 0;
}
