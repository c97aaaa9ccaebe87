/** The config file holds the token: mode 0600 in a 0700 folder, however it was before. */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFoodctl, tempConfigHome } from "../helpers/cli.js";
import { signTestToken } from "../faults/fixtures.js";

const mode = (path: string) => statSync(path).mode & 0o777;

function paths(home: string) {
  const dir = join(home, "foodctl");
  return { dir, file: join(dir, "config.json") };
}

async function login(home: string) {
  const token = await signTestToken();
  const result = await runFoodctl(["auth", "login", "--with-token"], { stdin: token, env: { XDG_CONFIG_HOME: home } });
  expect(result.code, result.stderr).toBe(0);
  return token;
}

async function configSet(home: string) {
  const result = await runFoodctl(["config", "set", "api-url", "https://api.example.com"], { env: { XDG_CONFIG_HOME: home } });
  expect(result.code, result.stderr).toBe(0);
}

describe("config file permissions", () => {
  it("auth login creates the file 0600 in a 0700 folder", async () => {
    const home = tempConfigHome();
    const token = await login(home);
    const { dir, file } = paths(home);
    expect(mode(file).toString(8)).toBe("600");
    expect(mode(dir).toString(8)).toBe("700");
    expect(JSON.parse(readFileSync(file, "utf8")).profiles.default.token).toBe(token);
  });

  it("config set creates the file 0600 in a 0700 folder", async () => {
    const home = tempConfigHome();
    await configSet(home);
    const { dir, file } = paths(home);
    expect(mode(file).toString(8)).toBe("600");
    expect(mode(dir).toString(8)).toBe("700");
  });

  it.each([
    ["auth login", login],
    ["config set", configSet],
  ] as const)("%s tightens a file that was 0644 in a 0755 folder", async (_name, change) => {
    const home = tempConfigHome();
    const { dir, file } = paths(home);
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(file, JSON.stringify({ profiles: { default: { user: 101 }, staging: { "api-url": "https://staging.example.com" } } }), {
      mode: 0o644,
    });
    chmodSync(file, 0o644);
    await change(home);
    expect(mode(file).toString(8)).toBe("600");
    expect(mode(dir).toString(8)).toBe("700");
    // The rest of the file survived the rewrite.
    const data = JSON.parse(readFileSync(file, "utf8"));
    expect(data.profiles.default.user).toBe(101);
    expect(data.profiles.staging["api-url"]).toBe("https://staging.example.com");
  });

  it("auth logout keeps the file 0600", async () => {
    const home = tempConfigHome();
    await login(home);
    const { file } = paths(home);
    chmodSync(file, 0o644);
    const result = await runFoodctl(["auth", "logout"], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(mode(file).toString(8)).toBe("600");
    expect(JSON.parse(readFileSync(file, "utf8")).profiles.default?.token).toBeUndefined();
  });
});
