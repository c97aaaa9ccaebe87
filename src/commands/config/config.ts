import { checkApiUrl, parseTimeoutSeconds, resolveProfileName, type Settings, type Source } from "../../config/settings.js";
import { CONFIG_KEYS, updateProfile, type ConfigKey, type Profile } from "../../config/store.js";
import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { parsePositiveId } from "../../intake/ids.js";
import { renderTable } from "../../output/table.js";
import { languageProblem } from "../../records/languages.js";
import { redactSecrets } from "../../secrets.js";

function checkKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  if (key === "token") throw usageError("the token is not a config key", { hint: "use `foodctl auth login`" });
  throw usageError(`unknown config key "${key}" (keys: ${CONFIG_KEYS.join(", ")})`);
}

/** The value in effect and where it comes from; a key set nowhere comes from `default` (none, for api-url and user). */
function effective(settings: Settings, key: ConfigKey): { value: string | number | null; source: Source } {
  switch (key) {
    case "api-url":
      return settings.apiUrl
        ? { value: redactSecrets(settings.apiUrl.value), source: settings.apiUrl.source }
        : { value: null, source: "default" };
    case "user":
      return { value: settings.user ?? null, source: settings.userSource ?? "default" };
    case "timeout":
      return { value: settings.timeoutSeconds, source: settings.timeoutSource };
    case "journal":
      return { value: settings.journal.enabled ? "on" : "off", source: settings.journal.source };
    case "journal-days":
      return { value: settings.journal.days, source: settings.journal.daysSource };
    case "timezone":
      return settings.timeZone ? { value: settings.timeZone.value, source: settings.timeZone.source } : { value: null, source: "default" };
    case "language":
      return settings.language ? { value: settings.language.value, source: "profile" } : { value: null, source: "default" };
  }
}

const NONE: Record<ConfigKey, string> = {
  "api-url": "(none)",
  user: "(none: the token's own user)",
  timeout: "",
  journal: "",
  "journal-days": "",
  timezone: "(none: the user's clock, unnamed)",
  language: "(none: the user's language at the service)",
};

export async function configList(ctx: Context): Promise<number> {
  const settings = ctx.settings();
  const rows = CONFIG_KEYS.map((key) => ({ key, ...effective(settings, key) }));
  const values = Object.fromEntries(rows.map((row) => [row.key, { value: row.value, source: row.source }]));
  const heading = `profile ${settings.profile}${settings.profileExists ? "" : " (not stored yet)"}\n`;
  await ctx.print({
    json: { profile: settings.profile, path: ctx.configPath, settings: values },
    text: (stream, color) =>
      (stream.isTTY ? heading : "") +
      renderTable(stream, {
        head: ["key", "value", "source"],
        rows: rows.map((row) => [row.key, row.value === null ? NONE[row.key] : String(row.value), row.source]),
        flexible: [1, 2],
        color,
      }),
  });
  return 0;
}

export async function configGet(ctx: Context, keyText: string): Promise<number> {
  const key = checkKey(keyText);
  const { value } = effective(ctx.settings(), key);
  await ctx.print({ json: { key, value }, text: () => (value === null ? "" : `${value}\n`) });
  return 0;
}

async function checkValue(key: ConfigKey, text: string): Promise<Profile[ConfigKey]> {
  switch (key) {
    case "api-url":
      return checkApiUrl(text, "api-url").href.replace(/\/$/, "");
    case "user": {
      const id = parsePositiveId(text);
      if (id === null) throw usageError(`user must be a positive integer user id, got "${text}"`);
      return id;
    }
    case "timeout":
      return parseTimeoutSeconds(text, "timeout");
    case "journal":
      if (!["on", "off"].includes(text)) throw usageError(`journal must be on or off, got "${text}"`);
      return text === "on";
    case "journal-days": {
      const days = parsePositiveId(text);
      if (days === null || days > 36_500) throw usageError(`journal-days must be a whole number of days from 1 to 36500, got "${text}"`);
      return days;
    }
    case "timezone": {
      const { readTimeZone } = await import("../../intake/zoneNames.js");
      const answer = readTimeZone(text);
      if ("problem" in answer) throw usageError(`timezone: ${answer.problem}`, { hint: answer.hint });
      return answer.zone;
    }
    case "language": {
      const problem = languageProblem(text);
      if (problem !== null) throw usageError(`language: ${problem}`);
      return text;
    }
  }
}

export async function configSet(ctx: Context, keyText: string, valueText: string): Promise<number> {
  const key = checkKey(keyText);
  const value = await checkValue(key, valueText);
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  await updateProfile(ctx.io.env, profile, (current) => ({ ...current, [key]: value }));
  const shown = typeof value === "boolean" ? (value ? "on" : "off") : value;
  await ctx.print({ json: { profile, key, value: shown }, note: `Set ${key} = ${shown} in profile "${profile}"` });
  return 0;
}

export async function configUnset(ctx: Context, keyText: string): Promise<number> {
  const key = checkKey(keyText);
  const profile = resolveProfileName(ctx.globals, ctx.io.env);
  const profiles = ctx.config().profiles;
  const wasSet = Object.hasOwn(profiles, profile) && profiles[profile]?.[key] !== undefined;
  if (wasSet) {
    await updateProfile(ctx.io.env, profile, (current) => {
      const next = { ...current };
      delete next[key];
      return next;
    });
  }
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
