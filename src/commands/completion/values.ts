/**
 * `foodctl __complete <kind>`: the values a completion script offers that only the CLI knows
 * (profile names in the config, the sandbox's user names). A shell is completing: an
 * unreadable config or an unknown kind lists nothing and never prints an error.
 */
import type { Context } from "../../context.js";
import { isProfileName } from "../../config/settings.js";
import { DEFAULT_PROFILE } from "../../config/store.js";

async function lookup(ctx: Context, kind: string): Promise<string[]> {
  // Only names `--profile` accepts: a shell may expand what it is offered (`$(…)` in a key of the file).
  if (kind === "profiles") return [...new Set([DEFAULT_PROFILE, ...Object.keys(ctx.config().profiles).filter(isProfileName)])];
  if (kind === "sandbox-users") return (await import("../../sandboxes/users.js")).seededUserNames();
  return [];
}

export async function valuesCommand(ctx: Context, kind: string): Promise<number> {
  let values: string[] = [];
  try {
    values = await lookup(ctx, kind);
  } catch {
    // Nothing to offer: the shell shows no values rather than an error in the middle of a line.
  }
  if (values.length) ctx.printRaw(`${values.join("\n")}\n`);
  return 0;
}
