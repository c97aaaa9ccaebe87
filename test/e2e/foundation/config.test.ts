/** config set/get/list/unset/path with profiles, and the precedence flag > env > profile > default. */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../../src/sandbox/server.js";
import { runFoodctl } from "../../helpers/cli.js";
import { atOnce, fakeClock, type FakeClock } from "../../helpers/clock.js";
import { configHome, expectErrorLine, expectExit, useSandbox } from "./harness.js";

const sandbox = useSandbox();

const mode = (path: string) => statSync(path).mode & 0o777;
const configFile = (home: string) => join(home, "foodctl", "config.json");
/** A loopback URL nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** The CLI with this config folder and nothing from the environment. */
const cli = (home: string, args: string[], env: Record<string, string | undefined> = {}, clock?: FakeClock) =>
  runFoodctl(args, { env: { XDG_CONFIG_HOME: home, ...env }, ...(clock ? { clock } : {}) });

describe("config", () => {
  it("prints the config file's path", async () => {
    const home = configHome();
    const result = await cli(home, ["config", "path"]);
    expectExit(result, 0);
    expect(result.stdout).toBe(`${configFile(home)}\n`);
    expect(JSON.parse((await cli(home, ["config", "path", "--json"])).stdout)).toEqual({ path: configFile(home) });
  });

  it("sets, gets, lists and unsets settings of the default profile", async () => {
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "api-url", "https://api.example.com/"]), 0);
    expectExit(await cli(home, ["config", "set", "user", "101"]), 0);
    expectExit(await cli(home, ["config", "set", "timeout", "12.5"]), 0);
    expect((await cli(home, ["config", "get", "api-url"])).stdout).toBe("https://api.example.com\n");
    expect((await cli(home, ["config", "get", "user"])).stdout).toBe("101\n");
    expect(JSON.parse((await cli(home, ["config", "get", "timeout", "--json"])).stdout)).toEqual({ key: "timeout", value: 12.5 });

    const list = await cli(home, ["config", "list"]);
    expectExit(list, 0);
    expect(list.stdout).toBe(
      "api-url\thttps://api.example.com\tprofile\nuser\t101\tprofile\ntimeout\t12.5\tprofile\njournal\ton\tdefault\njournal-days\t90\tdefault\ntimezone\t(none: the user's clock, unnamed)\tdefault\nlanguage\t(none: the user's language at the service)\tdefault\n",
    );

    expectExit(await cli(home, ["config", "unset", "user"]), 0);
    const unset = await cli(home, ["config", "get", "user"]);
    expectExit(unset, 0);
    expect(unset.stdout).toBe("");
    expect(JSON.parse(readFileSync(configFile(home), "utf8"))).toEqual({
      profiles: { default: { "api-url": "https://api.example.com", timeout: 12.5 } },
    });
  });

  it("keeps profiles apart with --profile and FOODCTL_PROFILE", async () => {
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "api-url", "https://staging.example.com", "--profile", "staging"]), 0);
    expectExit(await cli(home, ["config", "set", "api-url", "https://prod.example.com"]), 0);
    expect((await cli(home, ["config", "get", "api-url", "--profile", "staging"])).stdout).toBe("https://staging.example.com\n");
    expect((await cli(home, ["config", "get", "api-url"], { FOODCTL_PROFILE: "staging" })).stdout).toBe("https://staging.example.com\n");
    expect((await cli(home, ["config", "get", "api-url"])).stdout).toBe("https://prod.example.com\n");
    const list = JSON.parse((await cli(home, ["config", "list", "--json", "--profile", "staging"])).stdout);
    expect(list).toMatchObject({
      profile: "staging",
      path: configFile(home),
      settings: { "api-url": { value: "https://staging.example.com", source: "profile" } },
    });
    expectExit(await cli(home, ["config", "unset", "api-url", "--profile", "staging"]), 0);
    expect((await cli(home, ["config", "get", "api-url"])).stdout).toBe("https://prod.example.com\n");
  });

  it("refuses to read an unknown profile (exit 2)", async () => {
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "user", "101", "--profile", "staging"]), 0);
    expectErrorLine(await cli(home, ["config", "get", "user", "--profile", "prod"]), 2, /unknown profile "prod" \(known: staging\)/);
  });

  it.each([
    [["set", "color", "always"], /unknown config key "color"/],
    [["set", "token", "abc"], /the token is not a config key/],
    [["get", "token"], /the token is not a config key/],
    [["set", "api-url", "http://api.example.com"], /refusing to send the token over plain http:\/\//],
    [["set", "api-url", "example.com"], /^error: api-url "example.com" is not a valid URL/],
    [["set", "user", "alice"], /user must be a positive integer/],
    [["set", "timeout", "0"], /timeout must be/],
    [["set", "timeout", "4000"], /timeout must be/],
  ])("refuses config %j (exit 2) and writes nothing", async (args, pattern) => {
    const home = configHome();
    expectErrorLine(await cli(home, ["config", ...args]), 2, pattern);
    expect(() => statSync(configFile(home))).toThrow();
  });

  it("writes the file with mode 0600 in a 0700 folder", async () => {
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "user", "101"]), 0);
    expect(mode(configFile(home))).toBe(0o600);
    expect(mode(join(home, "foodctl"))).toBe(0o700);
  });

  it("tightens a file that was 0644 in a 0755 folder, keeping what it held", async () => {
    const home = configHome();
    mkdirSync(join(home, "foodctl"));
    chmodSync(join(home, "foodctl"), 0o755);
    writeFileSync(configFile(home), JSON.stringify({ profiles: { default: { token: "stored-secret" } } }));
    chmodSync(configFile(home), 0o644);
    expectExit(await cli(home, ["config", "set", "timeout", "5"]), 0);
    expect(mode(configFile(home))).toBe(0o600);
    expect(mode(join(home, "foodctl"))).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(home), "utf8"))).toEqual({ profiles: { default: { token: "stored-secret", timeout: 5 } } });
  });

  it("never overwrites a corrupt config file (exit 2)", async () => {
    const home = configHome();
    mkdirSync(join(home, "foodctl"));
    writeFileSync(configFile(home), "{ broken");
    expectErrorLine(await cli(home, ["config", "set", "user", "101"]), 2, /not valid JSON/);
    expect(readFileSync(configFile(home), "utf8")).toBe("{ broken");
  });
});

describe("precedence: flag > env > profile > default", () => {
  it("reports each setting's source in config list", async () => {
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "user", "11"]), 0);
    expectExit(await cli(home, ["config", "set", "timeout", "30"]), 0);
    const settings = async (args: string[], env: Record<string, string> = {}) =>
      JSON.parse((await cli(home, ["config", "list", "--json", ...args], env)).stdout).settings as Record<
        string,
        { value: unknown; source: string | null }
      >;

    expect(await settings([])).toEqual({
      "api-url": { value: null, source: "default" },
      user: { value: 11, source: "profile" },
      timeout: { value: 30, source: "profile" },
      journal: { value: "on", source: "default" },
      "journal-days": { value: 90, source: "default" },
      timezone: { value: null, source: "default" },
      language: { value: null, source: "default" },
    });
    expect(await settings([], { FOODCTL_USER: "21", FOODCTL_TIMEOUT: "22", FOODCTL_API_URL: "https://env.example.com" })).toEqual({
      "api-url": { value: "https://env.example.com", source: "env" },
      user: { value: 21, source: "env" },
      timeout: { value: 22, source: "env" },
      journal: { value: "on", source: "default" },
      "journal-days": { value: 90, source: "default" },
      timezone: { value: null, source: "default" },
      language: { value: null, source: "default" },
    });
    expect(
      await settings(["--user", "31", "--timeout", "32", "--api-url", "https://flag.example.com"], {
        FOODCTL_USER: "21",
        FOODCTL_TIMEOUT: "22",
        FOODCTL_API_URL: "https://env.example.com",
      }),
    ).toEqual({
      "api-url": { value: "https://flag.example.com", source: "flag" },
      user: { value: 31, source: "flag" },
      timeout: { value: 32, source: "flag" },
      journal: { value: "on", source: "default" },
      "journal-days": { value: 90, source: "default" },
      timezone: { value: null, source: "default" },
      language: { value: null, source: "default" },
    });
    expect((await settings(["--no-journal"])).journal).toEqual({ value: "off", source: "flag" });
    expectExit(await cli(home, ["config", "set", "journal", "off"]), 0);
    expectExit(await cli(home, ["config", "set", "journal-days", "7"]), 0);
    expect(await settings([])).toMatchObject({
      journal: { value: "off", source: "profile" },
      "journal-days": { value: 7, source: "profile" },
    });
    expect((await cli(home, ["config", "set", "journal", "maybe"])).code).toBe(2);
    expect((await cli(home, ["config", "set", "journal-days", "0"])).code).toBe(2);
    expectExit(await cli(home, ["config", "unset", "timeout"]), 0);
    expect((await settings([])).timeout).toEqual({ value: 30, source: "default" });
  });

  it("sends to the URL and for the user that win", async () => {
    // The profile points at a closed port and acts for bob (102), whom alice may not act for.
    const closed = await closedPortUrl();
    const home = configHome();
    expectExit(await cli(home, ["config", "set", "api-url", closed]), 0);
    expectExit(await cli(home, ["config", "set", "user", "102"]), 0);
    const token = { FOODCTL_TOKEN: sandbox.token("alice") };

    const profileOnly = await cli(home, ["intake", "show", "1001", "--retries", "0"], token);
    expectErrorLine(profileOnly, 8, new RegExp(`${new URL(closed).host} unreachable: connection refused`));

    const envUrl = await cli(home, ["intake", "show", "1001"], { ...token, FOODCTL_API_URL: sandbox.url });
    expectErrorLine(envUrl, 5, /answered 403/);

    const envUser = await cli(home, ["intake", "show", "1001"], { ...token, FOODCTL_API_URL: sandbox.url, FOODCTL_USER: "101" });
    expectExit(envUser, 0);

    const flags = await cli(home, ["intake", "show", "1001", "--api-url", sandbox.url, "--user", "101"], {
      ...token,
      FOODCTL_API_URL: closed,
      FOODCTL_USER: "102",
    });
    expectExit(flags, 0);
    expect(flags.stdout).toContain("image_id\t1001");
  });

  it("applies the timeout that wins", async () => {
    // The time limit passes at once on this clock: which limit was asked for shows which one won,
    // and the request is abandoned with it, with no real wait. The sandbox holds its answers
    // longer than any of this takes.
    const expired = () => fakeClock({ deadline: atOnce });
    const slow = await startSandbox({ port: 0, latencyMs: 200 });
    try {
      const home = configHome();
      expectExit(await cli(home, ["config", "set", "timeout", "0.2"]), 0);
      const env = { FOODCTL_TOKEN: slow.tokenFor("alice"), FOODCTL_API_URL: slow.url };
      const profileClock = expired();
      const timedOut = await cli(home, ["intake", "show", "1001", "--retries", "0"], env, profileClock);
      expectErrorLine(timedOut, 8, /no answer within 0\.2 s/);
      expect(profileClock.deadlines).toEqual([200]);
      const flagClock = expired();
      const envTimeout = await cli(
        home,
        ["intake", "show", "1001", "--retries", "0", "--timeout", "0.3"],
        { ...env, FOODCTL_TIMEOUT: "10" },
        flagClock,
      );
      expectErrorLine(envTimeout, 8, /no answer within 0\.3 s/);
      expect(flagClock.deadlines).toEqual([300]);
      // The environment's 10 s beats the profile's 0.2 s: the answer, 200 ms late, arrives in time.
      const envClock = fakeClock();
      expectExit(await cli(home, ["intake", "show", "1001"], { ...env, FOODCTL_TIMEOUT: "10" }, envClock), 0);
      expect(envClock.deadlines).toEqual([10_000]);
    } finally {
      await slow.close();
    }
  });
});
