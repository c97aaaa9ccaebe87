import { resolveProfileName } from "../../config/settings.js";
import { updateProfile } from "../../config/store.js";
import type { Context } from "../../context.js";

export async function logoutCommand(ctx: Context): Promise<number> {
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  const hadToken = ctx.config().profiles[profile]?.token !== undefined;
  if (hadToken) {
    await updateProfile(ctx.io.env, profile, (current) => {
      const { token: _forgotten, ...rest } = current;
      return rest;
    });
  }
  await ctx.print({
    json: { profile, removed: hadToken },
    note: hadToken ? `Removed the token of profile "${profile}"` : `Profile "${profile}" has no stored token`,
  });
  if (ctx.io.env.FOODCTL_TOKEN) ctx.warn("FOODCTL_TOKEN is still set in this environment");
  return 0;
}
