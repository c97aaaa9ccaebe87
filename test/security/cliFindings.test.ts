/**
 * Issue 15's CLI findings (proxy, config file, URL credentials, loopback names, profile names),
 * each named after the finding, in process against a loopback server that records what it got.
 */
import { execFileSync } from "node:child_process";
import { chownSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkOwnEntry, MAX_CONFIG_BYTES } from "../../src/config/store.js";
import { segmentationIntake } from "../faults/fixtures.js";
import { configHomes, OPAQUE_TOKEN, runIn } from "../commands/helpers.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";

let server: FaultServer;
const newHome = configHomes();

beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
});
// After each case: a scripted reply it left unused fails that case.
afterEach(() => {
  server.reset();
});
const answerIntake = () => server.route("GET /v2/intake/1002", faults.intake(segmentationIntake()));

/** A config folder with a file in it, as `auth login` would leave it. */
function configFile(home: string, profiles: unknown = { default: { user: 101 } }): { dir: string; file: string } {
  const dir = join(home, "foodctl");
  mkdirSync(dir, { mode: 0o700, recursive: true });
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({ profiles }), { mode: 0o600 });
  return { dir, file };
}

describe("issue 15 #2, proxy and plain HTTP", () => {
  const remoteProxy = "http://192.0.2.10:3128";

  it("refuses (exit 2, says why) a plain-http request that would leave the machine through a proxy; nothing is sent", async () => {
    const env = { FOODCTL_TOKEN: OPAQUE_TOKEN, HTTP_PROXY: remoteProxy, NO_PROXY: "" };
    const result = await runIn(newHome(), ["--api-url", server.url, "intake", "show", "1002"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing to send the token over plain http:\/\/ to 127\.0\.0\.1:\d+ through the proxy 192\.0\.2\.10/);
    expect(server.count()).toBe(0);
  });

  it("a loopback API URL bypasses the proxy when NO_PROXY is not set", async () => {
    answerIntake();
    const result = await runIn(newHome(), ["--api-url", server.url, "intake", "show", "1002"], {
      FOODCTL_TOKEN: OPAQUE_TOKEN,
      HTTP_PROXY: remoteProxy,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(server.count()).toBe(1);
    expect(server.connects).toEqual([]);
  });
});

describe("issue 15 #3, config file symlinked to another file", () => {
  it("refuses a config file that is a symlink (exit 2, naming it) and never writes through it", async () => {
    const home = newHome();
    const { file } = configFile(home);
    const target = join(home, "elsewhere.json");
    writeFileSync(target, '{"keep": "me"}');
    const { rmSync } = await import("node:fs");
    rmSync(file);
    symlinkSync(target, file);
    for (const args of [
      ["auth", "status"],
      ["config", "set", "user", "7"],
    ]) {
      const result = await runIn(home, args, { FOODCTL_TOKEN: OPAQUE_TOKEN });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`config file ${file} is a symbolic link`);
    }
    const login = await runIn(home, ["auth", "login", "--with-token"], {}, { stdin: OPAQUE_TOKEN });
    expect(login.code).toBe(2);
    expect(readFileSync(target, "utf8")).toBe('{"keep": "me"}');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it("refuses a config folder that is a symlink", async () => {
    const home = newHome();
    const real = join(home, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(home, "foodctl"));
    const result = await runIn(home, ["auth", "login", "--with-token"], {}, { stdin: OPAQUE_TOKEN });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`config folder ${join(home, "foodctl")} is a symbolic link`);
    expect(() => lstatSync(join(real, "config.json"))).toThrow();
  });

  it("refuses a config file or folder owned by another user, naming it", async () => {
    const home = newHome();
    const { dir, file } = configFile(home);
    const me = process.getuid!();
    expect(() => checkOwnEntry(lstatSync(file), file, "file", me + 1)).toThrow(`config file ${file} belongs to another user (uid ${me})`);
    expect(() => checkOwnEntry(lstatSync(dir), dir, "folder", me + 1)).toThrow(`config folder ${dir} belongs to another user`);
    if (me === 0) {
      // As root (CI), the whole command: a file handed to another user is refused.
      chownSync(file, 65534, 65534);
      const result = await runIn(home, ["config", "list"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`config file ${file} belongs to another user (uid 65534)`);
    }
  });
});

describe("issue 15, low: a config path that is /dev/zero or a FIFO is not read without bound", () => {
  it("a FIFO is refused at once (not a regular file), without waiting for a writer", async () => {
    const home = newHome();
    mkdirSync(join(home, "foodctl"), { mode: 0o700 });
    execFileSync("mkfifo", [join(home, "foodctl", "config.json")]);
    const result = await runIn(home, ["config", "list"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/config file .*config\.json is not a regular file/);
  });

  it("a link to /dev/zero is refused; a regular file over 1 MiB is refused unread", async () => {
    const home = newHome();
    mkdirSync(join(home, "foodctl"), { mode: 0o700 });
    symlinkSync("/dev/zero", join(home, "foodctl", "config.json"));
    expect((await runIn(home, ["config", "list"])).code).toBe(2);
    const big = newHome();
    const { file } = configFile(big);
    writeFileSync(file, " ".repeat(MAX_CONFIG_BYTES + 1));
    const result = await runIn(big, ["config", "list"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`is over ${MAX_CONFIG_BYTES} bytes`);
  });
});

describe("issue 15, low: credentials in an API URL are masked", () => {
  it("auth status and config list never print the password of https://user:pass@host", async () => {
    const home = newHome();
    configFile(home, { default: { "api-url": "https://alice:s3cretpass@api.example.com" } });
    for (const args of [
      ["auth", "status"],
      ["auth", "status", "--json"],
      ["config", "list"],
      ["config", "list", "--json"],
      ["config", "get", "api-url"],
    ]) {
      const result = await runIn(home, args, { FOODCTL_TOKEN: OPAQUE_TOKEN });
      expect(result.stdout + result.stderr, args.join(" ")).not.toContain("s3cretpass");
      expect(result.stdout + result.stderr, args.join(" ")).not.toContain("alice:");
      expect(result.stdout, args.join(" ")).toContain("https://****@api.example.com");
    }
    const env = await runIn(newHome(), ["auth", "status"], {
      FOODCTL_TOKEN: OPAQUE_TOKEN,
      FOODCTL_API_URL: "https://bob:hunter22@api.example.com",
    });
    expect(env.stdout).not.toContain("hunter22");
  });

  it("using such a URL is refused (exit 2) without echoing the password", async () => {
    const result = await runIn(newHome(), ["--api-url", "https://alice:s3cretpass@api.example.com", "intake", "show", "1002"], {
      FOODCTL_TOKEN: OPAQUE_TOKEN,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain("s3cretpass");
  });
});

describe("issue 15, low: evil.localhost is not loopback", () => {
  it("plain http:// to evil.localhost is refused (exit 2) before anything is sent", async () => {
    const result = await runIn(newHome(), ["--api-url", "http://evil.localhost:8787", "intake", "show", "1002"], {
      FOODCTL_TOKEN: OPAQUE_TOKEN,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing to send the token over plain http:\/\/ to evil\.localhost/);
  });
});

describe("issue 15, low: --profile __proto__", () => {
  it.each([
    ["--profile __proto__", ["--profile", "__proto__"], {}],
    ["--profile constructor", ["--profile", "constructor"], {}],
    ["--profile with a slash", ["--profile", "a/b"], {}],
    ["--profile of 65 characters", ["--profile", "p".repeat(65)], {}],
    ["FOODCTL_PROFILE=__proto__", [], { FOODCTL_PROFILE: "__proto__" }],
  ])("%s is refused (exit 2) and nothing is stored", async (_name, flags, env) => {
    const home = newHome();
    const result = await runIn(home, [...flags, "auth", "login", "--with-token"], env, { stdin: OPAQUE_TOKEN });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a valid profile name/);
    expect(result.stdout).not.toMatch(/Logged in/);
    expect(() => lstatSync(join(home, "foodctl", "config.json"))).toThrow();
  });

  it("names of letters, digits, dot, underscore and dash up to 64 work", async () => {
    const home = newHome();
    const name = `Stag_ing-1.${"x".repeat(53)}`;
    const result = await runIn(home, ["--profile", name, "auth", "login", "--with-token"], {}, { stdin: OPAQUE_TOKEN });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "foodctl", "config.json"), "utf8")).profiles[name].token).toBe(OPAQUE_TOKEN);
  });
});
