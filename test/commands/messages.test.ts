/** Issue 17, messages that lead somewhere: each says what to do next. In process; nothing here reaches a server. */
import { Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { configHomes, OPAQUE_TOKEN, runIn } from "./helpers.js";

const newHome = configHomes();
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const EXPIRED_JWT = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "101", role: "APIUser", exp: 1_600_000_000 })}.c2lnbmF0dXJl`;
/** A port nothing answers on: these runs must stop before sending. */
const NOWHERE = "http://127.0.0.1:9";

async function withProfile(name: string): Promise<string> {
  const home = newHome();
  expect((await runIn(home, ["--profile", name, "config", "set", "api-url", "https://staging.example.com"])).code).toBe(0);
  return home;
}

describe("an expired FOODCTL_TOKEN", () => {
  it("says to unset or replace the variable (logging in cannot help while it wins); exit 4", async () => {
    const result = await runIn(newHome(), ["--api-url", NOWHERE, "intake", "show", "1002"], { FOODCTL_TOKEN: EXPIRED_JWT });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: FOODCTL_TOKEN expired at 2020-09-13T12:26:40\.000Z$/m);
    expect(result.stderr).toMatch(/^hint: unset FOODCTL_TOKEN or replace it with a fresh token/m);
  });
});

describe("the environment overriding the chosen profile", () => {
  it("says once on stderr that FOODCTL_TOKEN overrides the profile chosen with --profile", async () => {
    const home = await withProfile("staging");
    const result = await runIn(home, ["--profile", "staging", "auth", "status"], { FOODCTL_TOKEN: OPAQUE_TOKEN });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/warning:/g)).toHaveLength(1);
    expect(result.stderr).toContain('warning: FOODCTL_TOKEN from the environment overrides profile "staging"');
  });

  it("names both FOODCTL_API_URL and FOODCTL_TOKEN in one line when FOODCTL_PROFILE chose the profile", async () => {
    const home = await withProfile("staging");
    const env = { FOODCTL_PROFILE: "staging", FOODCTL_TOKEN: OPAQUE_TOKEN, FOODCTL_API_URL: NOWHERE };
    const result = await runIn(home, ["--retries", "0", "--timeout", "0.5", "intake", "show", "1002"], env);
    expect(result.stderr.match(/warning:/g)).toHaveLength(1);
    expect(result.stderr).toContain('warning: FOODCTL_API_URL and FOODCTL_TOKEN from the environment override profile "staging"');
  });

  it("says nothing when no profile was chosen", async () => {
    const result = await runIn(newHome(), ["auth", "status"], { FOODCTL_TOKEN: OPAQUE_TOKEN, FOODCTL_API_URL: "https://api.example.com" });
    expect(result.stderr).toBe("");
  });
});

describe("config messages", () => {
  it("config unset of a key that is not set says it was not set", async () => {
    const home = await withProfile("default");
    const result = await runIn(home, ["config", "unset", "user"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('user was not set in profile "default": nothing to unset\n');
    const set = await runIn(home, ["config", "unset", "api-url"]);
    expect(set.stderr).toBe('Unset api-url in profile "default"\n');
  });

  it("config list shows `default` as the source of every key the profile and environment leave unset", async () => {
    const result = await runIn(newHome(), ["config", "list"]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t")[2]),
    ).toEqual(["default", "default", "default", "default", "default", "default", "default"]);
    const json = JSON.parse((await runIn(newHome(), ["config", "list", "--json"])).stdout);
    expect(json.settings).toEqual({
      "api-url": { value: null, source: "default" },
      user: { value: null, source: "default" },
      timeout: { value: 30, source: "default" },
      journal: { value: "on", source: "default" },
      "journal-days": { value: 90, source: "default" },
      timezone: { value: null, source: "default" },
      language: { value: null, source: "default" },
    });
  });

  it.each([
    [["--timeout", "0", "config", "list"], /^error: --timeout must be a number of seconds greater than 0 and at most 3600, got "0"$/m],
    [["--timeout", "3601", "config", "list"], /--timeout must be a number of seconds greater than 0 and at most 3600/],
    [["config", "set", "timeout", "0"], /^error: timeout must be a number of seconds greater than 0 and at most 3600, got "0"$/m],
  ])("the timeout's range message matches what is allowed: %j", async (args, message) => {
    const result = await runIn(newHome(), args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect((await runIn(newHome(), ["--timeout", "3600", "config", "list"])).code).toBe(0);
    expect((await runIn(newHome(), ["--timeout", "0.5", "config", "list"])).code).toBe(0);
  });

  it("a token pasted with `Bearer ` says to drop the prefix", async () => {
    const result = await runIn(newHome(), ["auth", "login", "--with-token"], {}, { stdin: `Bearer ${OPAQUE_TOKEN}` });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: drop the "Bearer " prefix: give the token alone');
  });
});

describe("Ctrl-C at a prompt exits 130 (3 is for answering no)", () => {
  it("auth login's hidden prompt, interrupted: exit 130, nothing stored", async () => {
    const home = newHome();
    const test = bufferIO({ env: { XDG_CONFIG_HOME: home }, tty: true });
    const stdin = new Readable({ read() {} }) as Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => void };
    stdin.isTTY = true;
    stdin.setRawMode = () => {};
    test.io.stdin = stdin;
    // The prompt writes through a real stream (it pipes into it).
    let prompted = "";
    const stderr = new Writable({
      write(chunk, _encoding, done) {
        prompted += String(chunk);
        done();
      },
    }) as Writable & { isTTY?: boolean; columns?: number };
    stderr.isTTY = true;
    stderr.columns = 80;
    // Like process.stderr, it outlives the prompt that pipes into it.
    stderr.end = (() => stderr) as typeof stderr.end;
    test.io.stderr = stderr as unknown as typeof test.io.stderr;
    const controller = new AbortController();
    const running = run(["auth", "login"], { io: test.io, signal: controller.signal });
    for (let waited = 0; !prompted.includes("Paste your API token") && waited < 5000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await running).toBe(130);
    expect(prompted).toContain("login interrupted: nothing was stored");
    expect((await runIn(home, ["auth", "status", "--json"])).code).toBe(4);
  });
});
