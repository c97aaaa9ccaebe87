/**
 * Settings resolved with the precedence of docs/cli.md: flag > environment > profile > default.
 * The token has no flag: FOODCTL_TOKEN > the profile's stored token.
 */
import { parsePositiveId } from "../intake/ids.js";
import { usageError } from "../errors.js";
import { DEFAULT_PROFILE, type ConfigData, type Profile } from "./store.js";
import { isLoopbackHost } from "../hosts.js";

export interface GlobalFlags {
  profile?: string | undefined;
  apiUrl?: string | undefined;
  user?: string | undefined;
  timeout?: string | undefined;
  /** Checked where the option is declared (src/commands/spec.ts). */
  retries?: number | undefined;
  /** false with --no-journal. */
  journal?: boolean | undefined;
  tz?: string | undefined;
}

export type Source = "flag" | "env" | "profile" | "default";

export interface TokenSetting {
  value: string;
  source: "env" | "profile";
}

export interface Settings {
  profile: string;
  profileExists: boolean;
  /** Named with --profile or FOODCTL_PROFILE rather than the default. */
  profileChosen: boolean;
  apiUrl: { value: string; source: Source } | null;
  user: number | undefined;
  userSource: Source | null;
  timeoutSeconds: number;
  timeoutSource: Source;
  retries: number;
  token: TokenSetting | null;
  /** The end user's IANA zone as given (--tz, FOODCTL_TZ, the profile's timezone), checked where it is used. */
  timeZone: { value: string; source: Source; name: string } | null;
  /** The profile's `language` for the answers' dish names (docs/cli.md, settings), as stored: checked where it is used. */
  language: { value: string; name: string } | null;
  /** Whether changes are journaled (--no-journal, then the profile's journal key), and for how many days. */
  journal: { enabled: boolean; source: Source; days: number; daysSource: Source };
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_RETRIES = 2;
const DEFAULT_JOURNAL_DAYS = 90;

function pickText(
  flag: string | undefined,
  flagName: string,
  envValue: string | undefined,
  envName: string,
): { text: string; name: string; source: "flag" | "env" } | null {
  if (flag !== undefined && flag !== "") return { text: flag, name: flagName, source: "flag" };
  if (envValue !== undefined && envValue !== "") return { text: envValue, name: envName, source: "env" };
  return null;
}

/** Profile names: letters, digits, dot, underscore and dash, 1 to 64 of them, and no name an object already has (`__proto__`). */
const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name) && !(name in Object.prototype);
}

function checkProfileName(name: string, from: string): string {
  if (!isProfileName(name)) {
    throw usageError(`${from} "${name}" is not a valid profile name`, {
      hint: "use 1 to 64 letters, digits, dots, underscores or dashes (not __proto__)",
    });
  }
  return name;
}

export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv): string {
  if (flags.profile !== undefined && flags.profile !== "") return checkProfileName(flags.profile, "--profile");
  if (env.FOODCTL_PROFILE) return checkProfileName(env.FOODCTL_PROFILE, "FOODCTL_PROFILE");
  return DEFAULT_PROFILE;
}

export function parseUserId(text: string, name: string): number {
  const id = parsePositiveId(text);
  if (id === null) throw usageError(`${name} must be a positive integer user id, got "${text}"`);
  return id;
}

/** Seconds per request: more than 0 and at most 3600. */
const MAX_TIMEOUT_SECONDS = 3600;

export function parseTimeoutSeconds(text: string, name: string): number {
  const seconds = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !(seconds > 0) || seconds > MAX_TIMEOUT_SECONDS) {
    throw usageError(`${name} must be a number of seconds greater than 0 and at most ${MAX_TIMEOUT_SECONDS}, got "${text}"`);
  }
  return seconds;
}

/**
 * @param requireProfile refuse a named profile that does not exist (every command but the
 *   ones that create a profile by writing to it).
 */
export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  options: { requireProfile: boolean } = { requireProfile: true },
): Settings {
  const profileName = resolveProfileName(flags, env);
  const stored: Profile | undefined = Object.hasOwn(config.profiles, profileName) ? config.profiles[profileName] : undefined;
  if (!stored && profileName !== DEFAULT_PROFILE && options.requireProfile) {
    const known = Object.keys(config.profiles);
    throw usageError(`unknown profile "${profileName}"${known.length ? ` (known: ${known.join(", ")})` : ""}`, {
      hint: `create it with \`foodctl config set api-url <url> --profile ${profileName}\``,
    });
  }
  const profile = stored ?? {};

  const apiUrlFrom = pickText(flags.apiUrl, "--api-url", env.FOODCTL_API_URL, "FOODCTL_API_URL");
  const profileApiUrl = profile["api-url"] ? { value: profile["api-url"], source: "profile" as const } : null;
  const apiUrl = apiUrlFrom ? { value: apiUrlFrom.text, source: apiUrlFrom.source } : profileApiUrl;

  // A bad value is reported under the name the user gave it (--user or FOODCTL_USER).
  const userFrom = pickText(flags.user, "--user", env.FOODCTL_USER, "FOODCTL_USER");
  const user = userFrom ? parseUserId(userFrom.text, userFrom.name) : profile.user;
  const userSource = userFrom?.source ?? (profile.user === undefined ? null : "profile");

  const timeoutFrom = pickText(flags.timeout, "--timeout", env.FOODCTL_TIMEOUT, "FOODCTL_TIMEOUT");
  const timeoutSeconds = timeoutFrom
    ? parseTimeoutSeconds(timeoutFrom.text, timeoutFrom.name)
    : (profile.timeout ?? DEFAULT_TIMEOUT_SECONDS);
  const timeoutSource = timeoutFrom?.source ?? (profile.timeout === undefined ? "default" : "profile");

  const retries = flags.retries ?? DEFAULT_RETRIES;
  const token = resolveToken(env, profile);
  const journal = resolveJournal(flags, profile);
  const profileChosen = Boolean(flags.profile || env.FOODCTL_PROFILE);
  return {
    profile: profileName,
    profileExists: stored !== undefined,
    profileChosen,
    apiUrl,
    user,
    userSource,
    timeoutSeconds,
    timeoutSource,
    retries,
    token,
    journal,
    timeZone: resolveTimeZone(flags, env, profile, profileName),
    language: profile.language ? { value: profile.language, name: `language of profile "${profileName}"` } : null,
  };
}

/** The user's zone as given: --tz > FOODCTL_TZ > the profile's timezone (checked where it is used). */
function resolveTimeZone(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile, profileName: string): Settings["timeZone"] {
  const given = pickText(flags.tz, "--tz", env.FOODCTL_TZ, "FOODCTL_TZ");
  if (given) return { value: given.text, source: given.source, name: given.name };
  return profile.timezone ? { value: profile.timezone, source: "profile", name: `timezone of profile "${profileName}"` } : null;
}

/** FOODCTL_TOKEN wins over the profile's stored token (there is no token flag: docs/cli.md, the token). */
function resolveToken(env: NodeJS.ProcessEnv, profile: Profile): TokenSetting | null {
  if (env.FOODCTL_TOKEN !== undefined && env.FOODCTL_TOKEN.trim() !== "") return { value: env.FOODCTL_TOKEN.trim(), source: "env" };
  return profile.token ? { value: profile.token, source: "profile" } : null;
}

function resolveJournal(flags: GlobalFlags, profile: Profile): Settings["journal"] {
  return {
    enabled: flags.journal === false ? false : (profile.journal ?? true),
    source: flags.journal === false ? "flag" : profile.journal === undefined ? "default" : "profile",
    days: profile["journal-days"] ?? DEFAULT_JOURNAL_DAYS,
    daysSource: profile["journal-days"] === undefined ? "default" : "profile",
  };
}

/**
 * A base URL the client may use: http or https, no credentials, query or fragment, and plain
 * http only to a loopback host (the token would travel in clear text otherwise).
 * @param name where the URL came from, for the message (--api-url, FOODCTL_API_URL, a profile).
 */
export function checkApiUrl(text: string, name = "--api-url"): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${name} "${text}" is not a valid URL`, { hint: "e.g. --api-url https://api.example.com" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw usageError(`${name} must start with https:// (or http:// for a local sandbox), got "${url.protocol}"`);
  }
  if (url.username || url.password)
    throw usageError(`${name} must not contain credentials (user:password@)`, { hint: "the API takes the token only" });
  if (url.search || url.hash) throw usageError(`${name} must not contain a query or fragment`);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw usageError(`refusing to send the token over plain http:// to ${url.host}`, {
      hint: "use https://, or http:// only for a sandbox on this machine (localhost, 127.0.0.1, [::1])",
    });
  }
  url.pathname = normalizeBasePath(url.pathname);
  return url;
}

/**
 * The base URL's path without the API's own `/v2` (docs/api.md, base URL): `https://host`,
 * `https://host/`, `https://host/v2` and `https://host/v2/` are the same API; any other path
 * stays as a prefix (`https://gw.example/food` → `/food/v2/…`).
 */
export function normalizeBasePath(pathname: string): string {
  return pathname.replace(/\/+$/, "").replace(/\/v2$/, "");
}
