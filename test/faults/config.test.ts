/**
 * A corrupt config file: a clear error naming the file and the fix, exit 2, and the file left
 * byte for byte as it was, even by the commands that write it. Two writers at once never leave
 * a broken file.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runFoodctl, tempConfigHome } from "../helpers/cli.js";
import { signTestToken } from "./fixtures.js";

function corruptHome(content: string | Buffer): { home: string; file: string } {
  const home = tempConfigHome();
  const dir = join(home, "foodctl");
  mkdirSync(dir, { mode: 0o700 });
  const file = join(dir, "config.json");
  writeFileSync(file, content, { mode: 0o600 });
  return { home, file };
}

/** The first two go through every command that reads the file; the rest through the two that write it. */
const corruptions: Array<{ name: string; content: string | Buffer; where?: string; expected?: string; everyCommand?: boolean }> = [
  { name: "invalid JSON", content: '{"profiles": {"default": {"api-url": "https://api.example.com",}', everyCommand: true },
  {
    name: "a wrong type (user as a string)",
    content: '{"profiles":{"default":{"user":"abc"}}}',
    where: "profiles.default.user",
    expected: "a positive whole number",
    everyCommand: true,
  },
  {
    name: "a negative timeout",
    content: '{"profiles":{"default":{"timeout":-5}}}',
    where: "profiles.default.timeout",
    expected: "a positive number of seconds",
  },
  {
    name: "a token that is a number",
    content: '{"profiles":{"work":{"token":12345}}}',
    where: "profiles.work.token",
    expected: "a token in quotes",
  },
  { name: "profiles as a list", content: '{"profiles":[{"user":101}]}', where: "profiles", expected: "an object of profiles" },
  { name: "a bare JSON string", content: '"just text"', expected: "a JSON object" },
  { name: "binary garbage", content: Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x13, 0x37, 0x80]) },
  { name: "a truncated write", content: '{"profiles":{"default":{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMDEifQ.sig' },
];

describe.concurrent("a corrupt config file", () => {
  it.each(corruptions)(
    "$name: the commands exit 2 naming the file, and nothing rewrites it",
    async ({ content, where, expected, everyCommand }) => {
      const { home, file } = corruptHome(content);
      const original = readFileSync(file);
      const token = await signTestToken();
      const env = { XDG_CONFIG_HOME: home };
      const writers: Array<{ args: string[]; stdin?: string; env?: Record<string, string> }> = [
        { args: ["config", "set", "api-url", "https://api.example.com"] },
        { args: ["auth", "login", "--with-token"], stdin: token },
      ];
      const others: typeof writers = [
        { args: ["config", "unset", "user"] },
        { args: ["auth", "logout"] },
        { args: ["config", "list"] },
        { args: ["auth", "status"] },
        { args: ["--api-url", "http://127.0.0.1:9", "intake", "show", "1002"], env: { FOODCTL_TOKEN: token } },
      ];
      const attempts = everyCommand ? [...writers, ...others] : writers;
      const results = await Promise.all(
        attempts.map((attempt) =>
          runFoodctl(attempt.args, { env: { ...env, ...attempt.env }, ...(attempt.stdin ? { stdin: attempt.stdin } : {}) }),
        ),
      );
      for (const [index, result] of results.entries()) {
        const label = attempts[index]!.args.join(" ");
        expect(result.code, `${label}: ${result.stderr}`).toBe(2);
        const [first, second] = result.stderr.trim().split("\n");
        expect(first, label).toContain(file);
        if (where) expect(first, label).toContain(where);
        if (expected) expect(first, label).toContain(`: expected ${expected}`);
        expect(second, label).toMatch(/^hint: fix it or remove it/);
        expect(result.stderr).not.toMatch(/^\s+at /m);
        expect(result.stderr).not.toContain(token);
      }
      expect(readFileSync(file).equals(original)).toBe(true);
    },
  );

  it("--json reports it as a usage error", async () => {
    const { home, file } = corruptHome('{"profiles":{"default":{"user":"abc"}}}');
    const result = await runFoodctl(["config", "set", "user", "101", "--json"], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code).toBe(2);
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ code: "usage", exit_code: 2 });
    expect(error.message).toContain(file);
  });

  it("config path still works, so the user can find the file", async () => {
    const { home, file } = corruptHome("{{{");
    const result = await runFoodctl(["config", "path"], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(file);
  });

  it("a config path that is a folder is a clear exit 2", async () => {
    const home = tempConfigHome();
    mkdirSync(join(home, "foodctl", "config.json"), { recursive: true });
    const result = await runFoodctl(["config", "set", "user", "101"], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(home, "foodctl", "config.json"));
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("two config set runs at once", () => {
  // The lock is a file: two runs in this process contend for it as two processes do; a few real process pairs show that too.
  it.each([
    { kind: "in process", pairs: 20, runner: runFoodctl },
    { kind: "as processes", pairs: 3, runner: runCli },
  ])("$pairs pairs ($kind) setting different keys always leave a valid JSON file", async ({ pairs, runner }) => {
    const home = tempConfigHome();
    const file = join(home, "foodctl", "config.json");
    const env = { XDG_CONFIG_HOME: home };
    const lost: number[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const timeout = 10 + pair;
      const user = 100 + pair;
      const [a, b] = await Promise.all([
        runner(["config", "set", "timeout", String(timeout)], { env }),
        runner(["config", "set", "user", String(user)], { env }),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const data = JSON.parse(readFileSync(file, "utf8"));
      const profile = data.profiles.default;
      if (profile.timeout !== timeout || profile.user !== user) lost.push(pair);
      // Whatever interleaving happened, each key holds a value some process wrote.
      expect([undefined, ...Array.from({ length: pair + 1 }, (_, i) => 10 + i)]).toContain(profile.timeout);
      expect([undefined, ...Array.from({ length: pair + 1 }, (_, i) => 100 + i)]).toContain(profile.user);
    }
    expect(lost).toEqual([]);
  });

  it("takes over a lock left by a process that died", async () => {
    const home = tempConfigHome();
    const dir = join(home, "foodctl");
    mkdirSync(dir, { mode: 0o700 });
    // Far above any pid a test machine hands out, so no such process.
    writeFileSync(join(dir, "config.json.lock"), "4194000");
    const result = await runFoodctl(["config", "set", "user", "101"], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).profiles.default.user).toBe(101);
    expect(existsSync(join(dir, "config.json.lock"))).toBe(false);
  });

  it("waits for a live writer's lock instead of overwriting its change", async ({ onTestFinished }) => {
    const home = tempConfigHome();
    const dir = join(home, "foodctl");
    mkdirSync(dir, { mode: 0o700 });
    const lock = join(dir, "config.json.lock");
    // The other writer: a live process of its own (a lock naming this process's pid would be an earlier process's).
    const writer = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    onTestFinished(() => void writer.kill("SIGKILL"));
    writeFileSync(lock, String(writer.pid));
    const pending = runFoodctl(["config", "set", "user", "101"], { env: { XDG_CONFIG_HOME: home } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The "other writer" finishes its change, then lets go.
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { default: { timeout: 12 } } }));
    rmSync(lock);
    const result = await pending;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).profiles.default).toEqual({ timeout: 12, user: 101 });
  });
});
