/** auth login / status / token / logout through the built CLI, and where the token may show. */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFoodctl, type CliResult } from "../../helpers/cli.js";
import { configHome, expectErrorLine, expectExit, signatureOf, useSandbox } from "./harness.js";

const sandbox = useSandbox();

const mode = (path: string) => statSync(path).mode & 0o777;
const configFile = (home: string) => join(home, "foodctl", "config.json");

/** The CLI with a given config folder, the sandbox's URL, and no FOODCTL_TOKEN. */
function cliIn(home: string, args: string[], options: { stdin?: string; env?: Record<string, string | undefined> } = {}) {
  return sandbox.cli(args, { as: null, stdin: options.stdin, env: { XDG_CONFIG_HOME: home, ...options.env } });
}

async function loggedIn(name = "alice", profile?: string): Promise<string> {
  const home = configHome();
  const args = ["auth", "login", "--with-token", ...(profile ? ["--profile", profile] : [])];
  expectExit(await cliIn(home, args, { stdin: `${sandbox.token(name)}\n` }), 0);
  return home;
}

describe("auth login", () => {
  it("stores the token from stdin and prints subject, role and expiry, never the token", async () => {
    const home = configHome();
    const token = sandbox.token("alice");
    const result = await cliIn(home, ["auth", "login", "--with-token"], { stdin: `${token}\n` });
    expectExit(result, 0);
    expect(result.stdout).toMatch(/^Logged in to profile "default" as 101 \(APIUser\), expires \d{4}-\d{2}-\d{2}T/);
    expect(result.stdout + result.stderr).not.toContain(signatureOf(token));
    const stored = JSON.parse(readFileSync(configFile(home), "utf8"));
    expect(stored.profiles.default.token).toBe(token);
  });

  it("refuses more than 16 KiB on stdin as not a token, and stores nothing", async () => {
    const home = configHome();
    const result = await cliIn(home, ["auth", "login", "--with-token"], { stdin: "x".repeat(20_000) });
    expectErrorLine(result, 2, /stdin holds more than 16384 bytes: not a token/);
    expect(existsSync(configFile(home))).toBe(false);
  });

  it("writes the config file with mode 0600 in a 0700 folder", async () => {
    const home = await loggedIn();
    expect(mode(configFile(home))).toBe(0o600);
    expect(mode(join(home, "foodctl"))).toBe(0o700);
  });

  it("tightens a config file and folder that were readable by others", async () => {
    const home = configHome();
    mkdirSync(join(home, "foodctl"), { mode: 0o755 });
    chmodSync(join(home, "foodctl"), 0o755);
    writeFileSync(configFile(home), JSON.stringify({ profiles: { default: { timeout: 5 } } }), { mode: 0o644 });
    chmodSync(configFile(home), 0o644);
    expectExit(await cliIn(home, ["auth", "login", "--with-token"], { stdin: sandbox.token("alice") }), 0);
    expect(mode(configFile(home))).toBe(0o600);
    expect(mode(join(home, "foodctl"))).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(home), "utf8")).profiles.default.timeout).toBe(5);
  });

  it("logs in to a named profile, creating it", async () => {
    const home = await loggedIn("bob", "staging");
    const status = await cliIn(home, ["auth", "status", "--json", "--profile", "staging"]);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: "staging", subject: "102", token_source: "profile" });
    expectExit(await cliIn(home, ["auth", "status"]), 4);
  });

  it("refuses a token that is not a JWT and stores nothing (exit 4)", async () => {
    const home = configHome();
    const result = await cliIn(home, ["auth", "login", "--with-token"], { stdin: "hunter2 not a token\n" });
    expectErrorLine(result, 4, /holds whitespace/);
    expect(result.stderr).not.toContain("hunter2");
    expect(existsSync(configFile(home))).toBe(false);
  });

  it("refuses empty stdin (exit 2)", async () => {
    expectErrorLine(await cliIn(configHome(), ["auth", "login", "--with-token"], { stdin: "\n" }), 2, /no token given/);
  });

  it("refuses to prompt without a terminal (exit 2)", async () => {
    const result = await cliIn(configHome(), ["auth", "login"]);
    expectErrorLine(result, 2, /no terminal/);
    expect(result.stderr).toMatch(/^hint: .*--with-token/m);
  });

  it("stores an expired token with a warning; status then exits 4", async () => {
    const home = configHome();
    const expired = await sandbox.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: -60 });
    const login = await cliIn(home, ["auth", "login", "--with-token"], { stdin: expired });
    expectExit(login, 0);
    expect(login.stderr).toMatch(/^warning: the token expired at /m);
    const status = await cliIn(home, ["auth", "status", "--json"]);
    expectExit(status, 4);
    expect(JSON.parse(status.stdout)).toMatchObject({ usable: false, problem: "token expired" });
    expect(JSON.parse(status.stderr)).toMatchObject({ error: { code: "auth", exit_code: 4, message: "token expired" } });
  });

  it("warns that FOODCTL_TOKEN takes precedence over the token being stored", async () => {
    const result = await cliIn(configHome(), ["auth", "login", "--with-token"], {
      stdin: sandbox.token("alice"),
      env: { FOODCTL_TOKEN: sandbox.token("bob") },
    });
    expectExit(result, 0);
    expect(result.stderr).toMatch(/^warning: FOODCTL_TOKEN is set and takes precedence/m);
  });
});

describe("auth status, token and logout", () => {
  it("describes the stored token", async () => {
    const home = await loggedIn();
    const result = await cliIn(home, ["auth", "status"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    const rows = Object.fromEntries(
      result.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split(/\s{2,}/)),
    );
    expect(rows).toMatchObject({
      profile: "default",
      token: "from profile",
      subject: "101",
      role: "APIUser",
      "acting for": "the token's own user",
    });
    expect(rows["api url"]).toBe(`${sandbox.url} (from env)`);
    expect(rows.expires).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  });

  it("describes it as JSON", async () => {
    const home = await loggedIn("dave");
    const result = await cliIn(home, ["auth", "status", "--json", "--user", "101"]);
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: "default",
      api_url: sandbox.url,
      api_url_source: "env",
      user: 101,
      token_source: "profile",
      token_kind: "jwt",
      subject: "201",
      role: "APIUserManager",
      expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      usable: true,
      problem: null,
      server_check: null,
    });
  });

  it("prefers FOODCTL_TOKEN over the stored token", async () => {
    const home = await loggedIn("alice");
    const result = await cliIn(home, ["auth", "status", "--json"], { env: { FOODCTL_TOKEN: sandbox.token("carol") } });
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toMatchObject({ token_source: "FOODCTL_TOKEN", subject: "103" });
    const token = await cliIn(home, ["auth", "token"], { env: { FOODCTL_TOKEN: sandbox.token("carol") } });
    expect(token.stdout).toBe(`${sandbox.token("carol")}\n`);
  });

  it("sends FOODCTL_TOKEN rather than the stored token", async () => {
    // The stored token is bob's, who may not read alice's intake 1001.
    const home = await loggedIn("bob");
    expectExit(await cliIn(home, ["intake", "show", "1001"]), 5);
    expectExit(await cliIn(home, ["intake", "show", "1001"], { env: { FOODCTL_TOKEN: sandbox.token("alice") } }), 0);
  });

  it("prints the token with auth token, and only the token", async () => {
    const home = await loggedIn();
    const result = await cliIn(home, ["auth", "token"]);
    expectExit(result, 0);
    expect(result.stdout).toBe(`${sandbox.token("alice")}\n`);
    expect(result.stderr).toBe("");
  });

  it("forgets the token on logout; status and token then exit 4", async () => {
    const home = await loggedIn();
    const logout = await cliIn(home, ["auth", "logout"]);
    expectExit(logout, 0);
    expect(logout.stderr).toMatch(/Removed the token of profile "default"/);
    expect(JSON.parse(readFileSync(configFile(home), "utf8")).profiles.default.token).toBeUndefined();
    expect(mode(configFile(home))).toBe(0o600);
    const status = await cliIn(home, ["auth", "status"]);
    expectExit(status, 4);
    expect(status.stdout).toMatch(/^token\s+none$/m);
    expect(status.stderr).toMatch(/^error: no token$/m);
    expectErrorLine(await cliIn(home, ["auth", "token"]), 4, /not logged in/);
  });

  it("says so when there was nothing to forget", async () => {
    const result = await cliIn(configHome(), ["auth", "logout", "--json"]);
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toEqual({ profile: "default", removed: false });
  });

  it("reports a malformed token as unusable (exit 4)", async () => {
    const result = await cliIn(configHome(), ["auth", "status", "--json"], { env: { FOODCTL_TOKEN: "plain-secret-value\u0007x" } });
    expectExit(result, 4);
    expect(JSON.parse(result.stdout)).toMatchObject({
      token_source: "FOODCTL_TOKEN",
      usable: false,
      problem: "the token holds control characters",
    });
    expect(result.stdout + result.stderr).not.toContain("plain-secret-value");
  });
});

describe("the token's signature never shows, except in auth token", () => {
  const leaks = (result: CliResult, token: string) => (result.stdout + result.stderr).includes(signatureOf(token));

  it.each(
    [
      ["auth", "status"],
      ["auth", "status", "--json"],
      ["intake", "show", "1002"],
      ["intake", "show", "1002", "--json"],
      ["intake", "show", "9999"],
      ["intake", "show", "2001", "--json"],
      ["intake", "list"],
      ["intake", "list", "--from", "2026-11-03"],
      ["auth", "logout"],
    ].map((args) => [args.join(" "), args] as const),
  )("%s", async (_name, args) => {
    const token = sandbox.token("alice");
    const runs = [[], ["--verbose"]].flatMap((verbose) =>
      (["profile", "env"] as const).map(async (where) => {
        const home = where === "profile" ? await loggedIn("alice") : configHome();
        const env = where === "env" ? { FOODCTL_TOKEN: token } : {};
        const result = await cliIn(home, [...args, ...verbose], { env });
        expect(leaks(result, token), `${args.join(" ")} ${verbose.join(" ")} (token in ${where})\n${result.stderr}`).toBe(false);
        if (verbose.length && args[0] === "intake") expect(result.stderr).toContain("authorization: Bearer ****");
      }),
    );
    await Promise.all(runs);
  });

  it("auth login --with-token, with and without --verbose, and with --json", async () => {
    const token = sandbox.token("alice");
    for (const extra of [[], ["--verbose"], ["--json"], ["--json", "--verbose"]]) {
      const result = await cliIn(configHome(), ["auth", "login", "--with-token", ...extra], { stdin: token });
      expectExit(result, 0);
      expect(leaks(result, token), extra.join(" ")).toBe(false);
    }
  });

  it("shows nothing of it under FOODCTL_DEBUG=1 either", async () => {
    const token = sandbox.token("alice");
    const result = await cliIn(await loggedIn("alice"), ["intake", "show", "1003"], { env: { FOODCTL_DEBUG: "1" } });
    expectExit(result, 0);
    expect(result.stderr).toContain("> GET ");
    expect(leaks(result, token)).toBe(false);
  });

  it("masks a token that a server echoes back in its error message", async () => {
    const token = sandbox.token("alice");
    const echo = http.createServer((request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: `bad token ${String(request.headers.authorization)}`, code: 400 }));
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const home = await loggedIn("alice");
      for (const json of [[], ["--json"]]) {
        const result = await runFoodctl(["intake", "show", "1002", "--api-url", url, ...json], { env: { XDG_CONFIG_HOME: home } });
        expectExit(result, 7);
        expect(result.stderr).toContain("bad token Bearer ****");
        expect(leaks(result, token)).toBe(false);
      }
    } finally {
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
