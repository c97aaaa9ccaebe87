import { resolveProfileName } from "../../config/settings.js";
import { CONFIG_KEYS, updateProfile, type ConfigKey } from "../../config/store.js";
import { checkConfigValue, effectiveSetting, readConfigKey } from "../../config/values.js";
import type { Context } from "../../context.js";
import { renderTable } from "../../output/table.js";

/** What `config list` shows for a key set nowhere (timeout and the journal's always have a value). */
const NONE: Partial<Record<ConfigKey, string>> = {
  "api-url": "(none)",
  user: "(none: the token's own user)",
  timezone: "(none: the user's clock, unnamed)",
  language: "(none: the user's language at the service)",
};

export async function configList(ctx: Context): Promise<number> {
  const settings = ctx.settings();
  const rows = CONFIG_KEYS.map((key) => ({ key, ...effectiveSetting(settings, key) }));
  const values = Object.fromEntries(rows.map((row) => [row.key, { value: row.value, source: row.source }]));
  const heading = `profile ${settings.profile}${settings.profileExists ? "" : " (not stored yet)"}\n`;
  await ctx.print({
    json: { profile: settings.profile, path: ctx.configPath, settings: values },
    text: (stream, color) =>
      (stream.isTTY ? heading : "") +
      renderTable(stream, {
        head: ["key", "value", "source"],
        rows: rows.map((row) => [row.key, row.value === null ? (NONE[row.key] ?? "") : String(row.value), row.source]),
        flexible: [1, 2],
        color,
      }),
  });
  return 0;
}

export async function configGet(ctx: Context, keyText: string): Promise<number> {
  const key = readConfigKey(keyText);
  const { value } = effectiveSetting(ctx.settings(), key);
  await ctx.print({ json: { key, value }, text: () => (value === null ? "" : `${value}\n`) });
  return 0;
}

export async function configSet(ctx: Context, keyText: string, valueText: string): Promise<number> {
  const key = readConfigKey(keyText);
  const value = await checkConfigValue(key, valueText);
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  await updateProfile(ctx.io.env, profile, (current) => ({ ...current, [key]: value }));
  const shown = typeof value === "boolean" ? (value ? "on" : "off") : value;
  await ctx.print({ json: { profile, key, value: shown }, note: `Set ${key} = ${shown} in profile "${profile}"` });
  return 0;
}

export async function configUnset(ctx: Context, keyText: string): Promise<number> {
  const key = readConfigKey(keyText);
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  const profiles = ctx.config().profiles;
  const wasSet = Object.hasOwn(profiles, profile) && profiles[profile]?.[key] !== undefined;
  if (wasSet) await updateProfile(ctx.io.env, profile, ({ [key]: _unset, ...rest }) => rest);
  await ctx.print({
    json: { profile, key, value: null, was_set: wasSet },
    note: wasSet ? `Unset ${key} in profile "${profile}"` : `${key} was not set in profile "${profile}": nothing to unset`,
  });
  return 0;
}

export async function configPathCommand(ctx: Context): Promise<number> {
  await ctx.print({ json: { path: ctx.configPath }, text: () => `${ctx.configPath}\n` });
  return 0;
}
