import { describe, expect, it } from "vitest";
import { CliError } from "../../src/errors.js";
import { checkApiUrl, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS, resolveSettings } from "../../src/config/settings.js";
import type { ConfigData } from "../../src/config/store.js";
import { parseRetries } from "../../src/commands/spec.js";
import { isLoopbackHost } from "../../src/hosts.js";

const config: ConfigData = {
  profiles: {
    default: { "api-url": "https://profile.example.com", user: 11, timeout: 12, token: "profile-token" },
    staging: { "api-url": "https://staging.example.com", user: 21, timeout: 22, token: "staging-token" },
  },
};
const env = { FOODCTL_API_URL: "https://env.example.com", FOODCTL_USER: "31", FOODCTL_TIMEOUT: "32" };
const flags = { apiUrl: "https://flag.example.com", user: "41", timeout: "42" };

function usageFrom(action: () => unknown): CliError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return error as CliError;
  }
  throw new Error("expected a usage error");
}

describe("resolveSettings precedence: flag > env > profile > default", () => {
  it("takes the flags over everything", () => {
    const settings = resolveSettings(flags, env, config);
    expect(settings.apiUrl).toEqual({ value: "https://flag.example.com", source: "flag" });
    expect(settings.user).toBe(41);
    expect(settings.timeoutSeconds).toBe(42);
  });

  it("takes the environment over the profile", () => {
    const settings = resolveSettings({}, env, config);
    expect(settings.apiUrl).toEqual({ value: "https://env.example.com", source: "env" });
    expect(settings.user).toBe(31);
    expect(settings.timeoutSeconds).toBe(32);
  });

  it("takes the profile over the defaults", () => {
    const settings = resolveSettings({}, {}, config);
    expect(settings.apiUrl).toEqual({ value: "https://profile.example.com", source: "profile" });
    expect(settings.user).toBe(11);
    expect(settings.timeoutSeconds).toBe(12);
    expect(settings.profile).toBe("default");
    expect(settings.profileExists).toBe(true);
  });

  it("falls back to the defaults: no API URL, no user, 30 s, 2 retries", () => {
    const settings = resolveSettings({}, {}, { profiles: {} });
    expect(settings.apiUrl).toBeNull();
    expect(settings.user).toBeUndefined();
    expect(settings.timeoutSeconds).toBe(DEFAULT_TIMEOUT_SECONDS);
    expect(settings.retries).toBe(DEFAULT_RETRIES);
    expect(settings.token).toBeNull();
    expect(settings.profileExists).toBe(false);
  });

  it("reports where each setting came from", () => {
    expect(resolveSettings(flags, env, config)).toMatchObject({ userSource: "flag", timeoutSource: "flag" });
    expect(resolveSettings({}, env, config)).toMatchObject({ userSource: "env", timeoutSource: "env" });
    expect(resolveSettings({}, {}, config)).toMatchObject({ userSource: "profile", timeoutSource: "profile" });
    expect(resolveSettings({}, {}, { profiles: {} })).toMatchObject({ userSource: null, timeoutSource: "default" });
  });

  it("calls a profile timeout equal to the default the profile's", () => {
    expect(resolveSettings({}, {}, { profiles: { default: { timeout: 30 } } })).toMatchObject({
      timeoutSeconds: 30,
      timeoutSource: "profile",
    });
  });

  it("ignores empty flag and environment values", () => {
    const settings = resolveSettings({ apiUrl: "", user: "" }, { FOODCTL_API_URL: "", FOODCTL_USER: "", FOODCTL_TIMEOUT: "" }, config);
    expect(settings.apiUrl?.source).toBe("profile");
    expect(settings.user).toBe(11);
    expect(settings.timeoutSeconds).toBe(12);
  });

  it("picks the profile by flag, then FOODCTL_PROFILE", () => {
    expect(resolveSettings({}, { FOODCTL_PROFILE: "staging" }, config).apiUrl?.value).toBe("https://staging.example.com");
    expect(resolveSettings({ profile: "default" }, { FOODCTL_PROFILE: "staging" }, config).apiUrl?.value).toBe(
      "https://profile.example.com",
    );
    expect(resolveSettings({ profile: "staging" }, {}, config)).toMatchObject({ profile: "staging", user: 21, timeoutSeconds: 22 });
  });
});

describe("resolveSettings token", () => {
  it("takes FOODCTL_TOKEN over the stored token", () => {
    expect(resolveSettings({}, { FOODCTL_TOKEN: "env-token" }, config).token).toEqual({ value: "env-token", source: "env" });
  });

  it("uses the profile's stored token without FOODCTL_TOKEN", () => {
    expect(resolveSettings({}, {}, config).token).toEqual({ value: "profile-token", source: "profile" });
    expect(resolveSettings({ profile: "staging" }, {}, config).token).toEqual({ value: "staging-token", source: "profile" });
  });

  it("trims FOODCTL_TOKEN and ignores it when blank", () => {
    expect(resolveSettings({}, { FOODCTL_TOKEN: " env-token\n" }, config).token?.value).toBe("env-token");
    expect(resolveSettings({}, { FOODCTL_TOKEN: "  " }, config).token).toEqual({ value: "profile-token", source: "profile" });
  });

  it("has no token without either", () => {
    expect(resolveSettings({}, {}, { profiles: { default: {} } }).token).toBeNull();
  });
});

describe("resolveSettings refusals", () => {
  it("refuses an unknown named profile, naming the known ones", () => {
    const error = usageFrom(() => resolveSettings({ profile: "prod" }, {}, config));
    expect(error.message).toContain('unknown profile "prod"');
    expect(error.message).toContain("default, staging");
    expect(error.hint).toContain("--profile prod");
  });

  it("refuses an unknown profile named by FOODCTL_PROFILE", () => {
    expect(usageFrom(() => resolveSettings({}, { FOODCTL_PROFILE: "prod" }, config)).message).toContain('"prod"');
  });

  it("accepts an unknown profile when the command creates it", () => {
    expect(resolveSettings({ profile: "prod" }, {}, config, { requireProfile: false })).toMatchObject({
      profile: "prod",
      profileExists: false,
      apiUrl: null,
    });
  });

  it("accepts a missing default profile", () => {
    expect(resolveSettings({}, {}, { profiles: {} }).profile).toBe("default");
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "0101", "99999999999999999999", " 7"])("refuses --user %j", (user) => {
    expect(usageFrom(() => resolveSettings({ user }, {}, config)).message).toMatch(/^--user must be a positive integer/);
  });

  it("names FOODCTL_USER when the bad user id comes from the environment", () => {
    expect(usageFrom(() => resolveSettings({}, { FOODCTL_USER: "alice" }, config)).message).toMatch(
      /^FOODCTL_USER must be a positive integer/,
    );
  });

  it.each(["0", "-5", "abc", "1e2", "3601", "0.0", " 5"])("refuses --timeout %j", (timeout) => {
    expect(usageFrom(() => resolveSettings({ timeout }, {}, config)).message).toMatch(/^--timeout must be/);
  });

  it("names FOODCTL_TIMEOUT when the bad timeout comes from the environment", () => {
    expect(usageFrom(() => resolveSettings({}, { FOODCTL_TIMEOUT: "soon" }, config)).message).toMatch(/^FOODCTL_TIMEOUT must be/);
  });

  it("accepts fractional and maximal timeouts", () => {
    expect(resolveSettings({ timeout: "0.5" }, {}, config).timeoutSeconds).toBe(0.5);
    expect(resolveSettings({ timeout: "3600" }, {}, config).timeoutSeconds).toBe(3600);
  });

  it.each(["-1", "11", "abc", "1.5", "100", " 1"])("refuses --retries %j where the option is declared", (retries) => {
    expect(usageFrom(() => parseRetries(retries)).message).toBe(`--retries must be a whole number from 0 to 10, got "${retries}"`);
  });

  it("accepts --retries 0 to 10", () => {
    expect(parseRetries("0")).toBe(0);
    expect(parseRetries("10")).toBe(10);
    expect(resolveSettings({ retries: 10 }, {}, config).retries).toBe(10);
  });
});

describe("checkApiUrl", () => {
  it.each([
    "https://api.example.com",
    "http://127.0.0.1:8787",
    "http://127.1.2.3:9000",
    "http://localhost:8787",
    "http://LOCALHOST:8787",
    "http://[::1]:8787",
  ])("accepts %s", (text) => {
    expect(checkApiUrl(text)).toBeInstanceOf(URL);
  });

  it("drops trailing slashes of the path", () => {
    expect(checkApiUrl("https://api.example.com/base/").href).toBe("https://api.example.com/base");
    expect(checkApiUrl("http://127.0.0.1:8787//").href).toBe("http://127.0.0.1:8787/");
  });

  it.each([
    ["http://api.example.com", /plain http:\/\/ to api.example.com/],
    ["http://10.0.0.5:8787", /plain http/],
    ["http://127.0.0.1.example.com", /plain http/],
    ["http://0.0.0.0:8787", /plain http/],
    ["http://[::ffff:8.8.8.8]", /plain http/],
    ["https://user:secret@api.example.com", /credentials/],
    ["https://:secret@api.example.com", /credentials/],
    ["http://127.0.0.1@evil.example.com", /credentials/],
    ["https://api.example.com/?user_id=1", /query or fragment/],
    ["https://api.example.com/#top", /query or fragment/],
    ["ftp://api.example.com", /must start with https:\/\//],
    ["api.example.com", /not a valid URL/],
    ["", /not a valid URL/],
  ])("refuses %s", (text, why) => {
    const error = usageFrom(() => checkApiUrl(text));
    expect(error.message).toMatch(why);
  });

  it("never repeats credentials in its message", () => {
    expect(usageFrom(() => checkApiUrl("https://user:secret@api.example.com")).message).not.toContain("secret");
  });

  it("names where a bad URL came from", () => {
    expect(usageFrom(() => checkApiUrl("nope", "FOODCTL_API_URL")).message).toMatch(/^FOODCTL_API_URL "nope" is not a valid URL/);
    expect(usageFrom(() => checkApiUrl("http://example.com", 'the api-url of profile "default"')).message).toContain("plain http");
  });
});

describe("isLoopbackHost", () => {
  it.each(["localhost", "LocalHost", "127.0.0.1", "127.255.255.254", "127.0.0.01", "127.0.0.255", "[::1]", "::1"])(
    "calls %s loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each([
    ...["example.com", "localhost.example.com", "128.0.0.1", "127.0.0", "10.0.0.1", "[::2]", "127.0.0.256"],
    ...["127.0.0.0001", "127.0.0.-1", "127.0.0.1a", "127.0.0.", "127..0.1", "127.0.0.1.1", "127.0.0.+1", "127.0.0.1e0", "0127.0.0.1", ""],
  ])("calls %s remote", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("issue 15, low: evil.localhost is not loopback", () => {
  it.each(["evil.localhost", "a.localhost", "localhost.evil.com"])("calls %s remote and refuses plain http:// to it", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(() => checkApiUrl(`http://${host}:8787`)).toThrow(/refusing to send the token over plain http/);
  });
});
