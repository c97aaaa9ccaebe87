/** A config key's value: checked before `config set` stores it, and the one in effect, with where it comes from. */
import { usageError } from "../errors.js";
import { parsePositiveId } from "../intake/ids.js";
import { languageProblem } from "../records/languages.js";
import { redactSecrets } from "../secrets.js";
import { checkApiUrl, parseTimeoutSeconds, parseUserId, type Settings, type Source } from "./settings.js";
import { CONFIG_KEYS, type ConfigKey, type Profile } from "./store.js";

export function readConfigKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  if (key === "token") throw usageError("the token is not a config key", { hint: "use `foodctl auth login`" });
  throw usageError(`unknown config key "${key}" (keys: ${CONFIG_KEYS.join(", ")})`);
}

/** The value in effect and where it comes from; a key set nowhere comes from `default` (none, for api-url and user). */
export function effectiveSetting(settings: Settings, key: ConfigKey): { value: string | number | null; source: Source } {
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

export async function checkConfigValue(key: ConfigKey, text: string): Promise<Profile[ConfigKey]> {
  switch (key) {
    case "api-url":
      return checkApiUrl(text, "api-url").href.replace(/\/$/, "");
    case "user":
      return parseUserId(text, "user");
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
      const { readTimeZone } = await import("../intake/zoneNames.js");
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
