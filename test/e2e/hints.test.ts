/**
 * Hints that work when followed: each test provokes the error, takes the command from the hint
 * as printed, runs it in a shell (with `foodctl` on PATH) and sees the problem gone.
 */
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect, runCli, runFoodctl, runTempDir, type CliResult } from "../helpers/cli.js";
import { withSandbox } from "../helpers/sandbox.js";

let home = "";
let shimDir = "";
beforeEach(() => {
  home = runTempDir("foodctl-hints-");
  shimDir = runTempDir("foodctl-hints-bin-");
  const shim = join(shimDir, "foodctl");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${cliBin()}" "$@"\n`);
  chmodSync(shim, 0o755);
});

/** Runs a shell script as a user would type it, `foodctl` being the built CLI. */
function shell(script: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const fullEnv = baseEnv({ XDG_CONFIG_HOME: home, ...env });
  fullEnv.PATH = `${shimDir}:${fullEnv.PATH ?? "/usr/bin:/bin"}`;
  return collect(spawn("/bin/sh", ["-c", script], { env: fullEnv, stdio: ["pipe", "pipe", "pipe"] }), { timeoutMs: 30_000 });
}

/** The command at the end of a `hint:` line, after the last ": ". */
function hintCommand(stderr: string, lead: string): string {
  const hint = stderr.split("\n").find((line) => line.startsWith("hint: "));
  expect(hint, stderr).toBeDefined();
  const at = hint!.indexOf(lead);
  expect(at, hint).toBeGreaterThanOrEqual(0);
  return hint!.slice(at + lead.length);
}

const exportsOf = (stdout: string) =>
  Object.fromEntries([...stdout.matchAll(/^export (\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!])) as Record<string, string>;

describe("sandbox hints", () => {
  const ports: number[] = [];
  afterEach(async () => {
    for (const port of ports.splice(0)) await shell(`foodctl sandbox stop --port ${port}`);
  });

  async function detach(): Promise<Record<string, string>> {
    const started = await shell("foodctl sandbox --detach --port 0 --as alice");
    expect(started.code, started.stderr).toBe(0);
    const env = exportsOf(started.stdout);
    ports.push(Number(new URL(env.FOODCTL_API_URL!).port));
    return env;
  }

  it("a stopped sandbox: the hint starts one where FOODCTL_API_URL points, and the next command is answered", async () => {
    const env = await detach();
    const port = new URL(env.FOODCTL_API_URL!).port;
    expect((await shell(`foodctl sandbox stop --port ${port}`)).code).toBe(0);

    const refused = await shell("foodctl intake show 1001 --retries 0", env);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toContain(`127.0.0.1:${port} unreachable: connection refused`);
    // The sandbox recorded there, started again as it was (--as alice); with no record, "start a sandbox there" (client.test.ts).
    const command = hintCommand(refused.stderr, "start the sandbox that ran there again: ");
    expect(command).toBe(`eval "$(foodctl sandbox --detach --port ${port} --as alice)"`);

    const followed = await shell(`${command} && foodctl intake show 1001 --json`, env);
    expect(followed.code, followed.stderr).toBe(0);
    expect(JSON.parse(followed.stdout).intake_info.image_id).toBe(1001);
  });

  it("a stopped sandbox that had --state: the hint starts it again with its state file and user, and the next command sees the changed data", async () => {
    const state = join(home, "my state.json");
    const started = await shell(`foodctl sandbox --detach --port 0 --state '${state}' --as bob`);
    expect(started.code, started.stderr).toBe(0);
    const env = exportsOf(started.stdout);
    const port = new URL(env.FOODCTL_API_URL!).port;
    ports.push(Number(port));
    const changed = await shell("foodctl intake set-quantity 2001 333 --no-journal", env);
    expect(changed.code, changed.stderr).toBe(0);
    expect((await shell(`foodctl sandbox stop --port ${port}`)).code).toBe(0);

    const refused = await shell("foodctl intake show 2001 --retries 0", env);
    expect(refused.code).toBe(8);
    const command = hintCommand(refused.stderr, "start the sandbox that ran there again: ");
    expect(command).toBe(`eval "$(foodctl sandbox --detach --port ${port} --state '${state}' --as bob)"`);

    const followed = await shell(`${command} && echo "$FOODCTL_TOKEN" && foodctl intake show 2001 --json`, env);
    expect(followed.code, followed.stderr).toBe(0);
    const [token, ...json] = followed.stdout.split("\n");
    // bob's token again (--as bob), and bob's intake as he changed it (--state).
    expect(JSON.parse(Buffer.from(token!.split(".")[1]!, "base64url").toString()).sub).toBe("102");
    expect(JSON.parse(json.join("\n")).intake_info.serving_size).toBe(333);
  });

  it("sandbox stop twice: the second is exit 6, says when it was stopped and how to start it again", async () => {
    const env = await detach();
    const port = new URL(env.FOODCTL_API_URL!).port;
    expect((await shell("foodctl sandbox stop", env)).code).toBe(0);
    for (const again of ["foodctl sandbox stop", `foodctl sandbox stop --port ${port}`]) {
      const stopped = await shell(again, env);
      expect(stopped.code, again).toBe(6);
      expect(stopped.stderr).toMatch(
        new RegExp(`^error: the sandbox on http://127\\.0\\.0\\.1:${port} \\(PID \\d+\\) was stopped at \\S+Z: nothing to stop\n`),
      );
      const command = hintCommand(stopped.stderr, "start it again: ");
      expect(command).toBe(`eval "$(foodctl sandbox --detach --port ${port} --as alice)"`);
    }
  });

  it("a busy port among several sandboxes: the stop command it names stops that one, and the port is free again", async () => {
    const first = await detach();
    await detach();
    const port = new URL(first.FOODCTL_API_URL!).port;

    const busy = await shell(`foodctl sandbox --detach --port ${port}`);
    expect(busy.code).toBe(8);
    const command = /stop it with `([^`]+)`/.exec(busy.stderr)?.[1];
    expect(command, busy.stderr).toBe(`foodctl sandbox stop --port ${port}`);

    const followed = await shell(`${command} && foodctl sandbox --detach --port ${port}`);
    expect(followed.code, followed.stderr).toBe(0);
    expect(exportsOf(followed.stdout).FOODCTL_API_URL).toBe(`http://127.0.0.1:${port}`);
  });
});

describe("token hints know where the token came from", () => {
  const sandbox = withSandbox();
  /** Shaped like a sandbox token, known to no user. */
  const UNKNOWN = "0123456789abcdef0123456789abcdef01234567";
  const ENV_HINT =
    "hint: unset FOODCTL_TOKEN or replace it with a fresh token (`foodctl auth login` cannot help while the variable is set)";

  const commands = [
    ["auth", "status", "--check"],
    ["intake", "show", "1001"],
    ["intake", "list"],
    ["smoke", "1001", "--read-only"],
  ];

  it("FOODCTL_TOKEN refused: every command says to unset or replace it; replacing it works, and so does unsetting it with a stored token", async () => {
    const env = { XDG_CONFIG_HOME: home, FOODCTL_API_URL: sandbox.handle.url };
    for (const args of commands) {
      const refused = await runFoodctl(args, { env: { ...env, FOODCTL_TOKEN: UNKNOWN } });
      expect(refused.code, args.join(" ")).toBe(4);
      expect(refused.stderr.trimEnd().split("\n").at(-1), args.join(" ")).toBe(ENV_HINT);
      expect(refused.stderr).not.toContain("run `foodctl auth login`");
      const replaced = await runFoodctl(args, { env: { ...env, FOODCTL_TOKEN: sandbox.handle.tokenFor("alice") } });
      expect(replaced.code, `${args.join(" ")}: ${replaced.stderr}`).toBe(0);
    }
    const stored = await runFoodctl(["auth", "login", "--with-token"], { env, stdin: sandbox.handle.tokenFor("alice") });
    expect(stored.code, stored.stderr).toBe(0);
    const unset = await runFoodctl(["intake", "show", "1001"], { env });
    expect(unset.code, unset.stderr).toBe(0);
  });

  it("a stored token refused: the hint to log in, which then works", async () => {
    const env = { XDG_CONFIG_HOME: home, FOODCTL_API_URL: sandbox.handle.url };
    expect((await runFoodctl(["auth", "login", "--with-token"], { env, stdin: UNKNOWN })).code).toBe(0);
    for (const args of commands) {
      const refused = await runFoodctl(args, { env });
      expect(refused.code, args.join(" ")).toBe(4);
      expect(refused.stderr, args.join(" ")).toMatch(/^hint: run `foodctl auth login`/m);
      expect(refused.stderr).not.toContain("FOODCTL_TOKEN or replace");
    }
    expect((await runFoodctl(["auth", "login", "--with-token"], { env, stdin: sandbox.handle.tokenFor("alice") })).code).toBe(0);
    for (const args of commands) expect((await runFoodctl(args, { env })).code, args.join(" ")).toBe(0);
  });

  it("an expired JWT in FOODCTL_TOKEN: auth status says to unset or replace it", async () => {
    const expired = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from('{"sub":"1","exp":1000}').toString("base64url")}.x`;
    const status = await runCli(["auth", "status"], { env: { XDG_CONFIG_HOME: home, FOODCTL_TOKEN: expired } });
    expect(status.code).toBe(4);
    expect(status.stderr.trimEnd().split("\n").at(-1)).toBe(ENV_HINT);
  });
});
