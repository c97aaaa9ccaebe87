/**
 * Bad input through the built CLI: each refused with its exit code and one `error:` line (or one
 * JSON object under --json), no stack trace, and nothing sent to the API.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configHome, expectErrorLine, expectJsonError, useSandbox } from "./harness.js";

const sandbox = useSandbox();

describe("bad image ids", () => {
  it.each([
    ["non-numeric", ["abc"]],
    ["zero", ["0"]],
    ["negative after --", ["--", "-5"]],
    ["fractional", ["1002.5"]],
    ["huge", ["99999999999999999999"]],
    ["hexadecimal", ["0x3ea"]],
  ])("refuses a %s image_id (exit 2)", async (_name, args) => {
    const result = await sandbox.cliSendingNothing(["intake", "show", ...args]);
    expectErrorLine(result, 2, /^error: image_id must be a positive integer/);
    expect(result.stdout).toBe("");
  });

  it("reports it as JSON under --json", async () => {
    const error = expectJsonError(await sandbox.cliSendingNothing(["intake", "show", "abc", "--json"]), 2, "usage");
    expect(error.message).toMatch(/image_id/);
    expect(error.status).toBeNull();
  });
});

describe("bad settings", () => {
  it("refuses an unknown profile (exit 2)", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002", "--profile", "nope"]);
    expectErrorLine(result, 2, /unknown profile "nope"/);
  });

  it("refuses an unknown profile named by FOODCTL_PROFILE (exit 2)", async () => {
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "list"], { env: { FOODCTL_PROFILE: "nope" } }), 2, /unknown profile "nope"/);
  });

  it("says how to set the API URL when none is configured (exit 2)", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002"], { env: { FOODCTL_API_URL: undefined } });
    expectErrorLine(result, 2, /no API URL configured/);
    expect(result.stderr).toMatch(/^hint: .*--api-url/m);
  });

  it.each([
    [["--api-url", "not a url"], /--api-url "not a url" is not a valid URL/],
    [["--api-url", "ftp://127.0.0.1"], /--api-url must start with https:\/\//],
    [["--api-url", "https://user:pw@api.example.com"], /--api-url must not contain credentials/],
  ])("refuses a malformed --api-url %j (exit 2)", async (args, pattern) => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002", ...args]);
    expectErrorLine(result, 2, pattern);
    expect(result.stderr).not.toContain(":pw@");
  });

  it("names FOODCTL_API_URL when the bad URL comes from the environment", async () => {
    expectErrorLine(
      await sandbox.cliSendingNothing(["intake", "show", "1002"], { env: { FOODCTL_API_URL: "nope" } }),
      2,
      /^error: FOODCTL_API_URL "nope"/,
    );
  });

  it.each(["http://api.example.com", "http://10.1.2.3:8787", "http://127.0.0.1.example.com"])(
    "refuses to send the token over plain %s (exit 2)",
    async (url) => {
      const result = await sandbox.cliSendingNothing(["intake", "show", "1002", "--api-url", url]);
      expectErrorLine(result, 2, /refusing to send the token over plain http:\/\//);
    },
  );

  it.each([
    [["--user", "alice"], /--user must be a positive integer/],
    [["--user", "0"], /--user must be a positive integer/],
    [["--timeout", "0"], /--timeout must be/],
    [["--timeout", "soon"], /--timeout must be/],
    [["--retries", "-1"], /--retries must be/],
    [["--retries", "11"], /--retries must be/],
  ])("refuses %j (exit 2)", async (args, pattern) => {
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "show", "1002", ...args]), 2, pattern);
  });

  it("names FOODCTL_USER when the bad user id comes from the environment", async () => {
    expectErrorLine(
      await sandbox.cliSendingNothing(["intake", "list"], { env: { FOODCTL_USER: "bob" } }),
      2,
      /^error: FOODCTL_USER must be/,
    );
  });

  it("refuses a corrupt config file, naming it (exit 2)", async () => {
    const home = configHome();
    mkdirSync(join(home, "foodctl"));
    writeFileSync(join(home, "foodctl", "config.json"), "{ not json");
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002"], { env: { XDG_CONFIG_HOME: home } });
    expectErrorLine(result, 2, /config file .*config\.json is not valid JSON/);
  });
});

describe("bad tokens", () => {
  it("refuses to run without a token (exit 4)", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002"], { as: null });
    expectErrorLine(result, 4, /not logged in/);
    expect(result.stderr).toMatch(/^hint: .*auth login/m);
  });

  it("refuses a malformed token (whitespace inside) before sending (exit 4)", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002"], { env: { FOODCTL_TOKEN: "not-a-jwt at-all" } });
    expectErrorLine(result, 4, /FOODCTL_TOKEN holds whitespace/);
    expect(result.stderr).not.toContain("not-a-jwt at-all");
  });

  it("refuses an expired token before sending (exit 4)", async () => {
    const expired = await sandbox.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: -60 });
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002"], { env: { FOODCTL_TOKEN: expired } });
    expectErrorLine(result, 4, /FOODCTL_TOKEN expired at \d{4}-\d{2}-\d{2}T/);
    expect(result.stderr).not.toContain(expired.split(".")[2]!);
  });

  it("reports an expired token as JSON under --json", async () => {
    const expired = await sandbox.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: -60 });
    expectJsonError(await sandbox.cliSendingNothing(["intake", "list", "--json"], { env: { FOODCTL_TOKEN: expired } }), 4, "auth");
  });
});

describe("bad command lines", () => {
  it("refuses an unknown option (exit 2)", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "show", "1002", "--bogus"]);
    expectErrorLine(result, 2, /^error: unknown option '--bogus'$/);
    expect(result.stderr).toMatch(/^hint: .*--help/m);
  });

  it("refuses an unknown command (exit 2)", async () => {
    expectErrorLine(await sandbox.cliSendingNothing(["frobnicate"]), 2, /^error: unknown command 'frobnicate'/);
  });

  it("keeps the did-you-mean suggestion on the error's line", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "shwo", "1002"]);
    expectErrorLine(result, 2, /^error: unknown command 'shwo' \(Did you mean show\?\)$/);
  });

  it("refuses a missing argument (exit 2)", async () => {
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "show"]), 2, /missing required argument/);
  });

  it("shows help on stderr and exits 2 for a command group without its command", async () => {
    const result = await sandbox.cliSendingNothing(["intake"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: foodctl intake");
  });

  it.each([
    [["frobnicate", "--json"], "usage"],
    [["intake", "show", "1002", "--bogus", "--json"], "usage"],
    [["intake", "show", "1002", "--json", "--profile", "nope"], "usage"],
    [["intake", "show", "1002", "--json", "--api-url", "http://api.example.com"], "usage"],
  ])("reports %j as one JSON object on stderr", async (args, code) => {
    expectJsonError(await sandbox.cliSendingNothing(args), 2, code);
  });

  it("reports a missing token as JSON under --json", async () => {
    const error = expectJsonError(await sandbox.cliSendingNothing(["intake", "show", "1002", "--json"], { as: null }), 4, "auth");
    expect(error.message).toMatch(/no token/);
  });
});

describe("every bad input under --json", () => {
  const cases: Array<[string, string[], Record<string, string | undefined>, number, string]> = [
    ["non-numeric image_id", ["intake", "show", "abc"], {}, 2, "usage"],
    ["zero image_id", ["intake", "show", "0"], {}, 2, "usage"],
    ["negative image_id", ["intake", "show", "--json", "--", "-5"], {}, 2, "usage"],
    ["huge image_id", ["intake", "show", "99999999999999999999"], {}, 2, "usage"],
    ["unknown profile", ["intake", "list", "--profile", "nope"], {}, 2, "usage"],
    ["missing API URL", ["intake", "list"], { FOODCTL_API_URL: undefined }, 2, "usage"],
    ["malformed --api-url", ["intake", "list", "--api-url", "::"], {}, 2, "usage"],
    ["plain http to a remote host", ["intake", "list", "--api-url", "http://api.example.com"], {}, 2, "usage"],
    ["no token", ["intake", "list"], { FOODCTL_TOKEN: undefined }, 4, "auth"],
    ["a token pasted with Bearer", ["intake", "list"], { FOODCTL_TOKEN: "Bearer abc.def" }, 4, "auth"],
    ["unknown option", ["intake", "list", "--bogus"], {}, 2, "usage"],
    ["unknown command", ["intake", "frobnicate"], {}, 2, "usage"],
  ];

  it.each(cases)("%s: one JSON error object, nothing sent", async (_name, args, env, code, errorCode) => {
    const withJson = args.includes("--json") ? args : [...args, "--json"];
    const error = expectJsonError(await sandbox.cliSendingNothing(withJson, { env }), code, errorCode);
    expect(error.message).not.toMatch(/\n/);
  });
});
