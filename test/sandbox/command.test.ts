/** `foodctl sandbox`: start-up output in each mode, exit codes, and a clean stop on a signal. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxCommand, type SandboxCommandOptions } from "../../src/commands/sandbox.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { baseEnv, cliBin } from "../helpers/cli.js";
import { ALL_TIME } from "../helpers/sandbox.js";

const defaults: SandboxCommandOptions = { port: 0, host: "127.0.0.1", json: false, env: false };

// The test process may have SIGINT/SIGTERM listeners of its own: keep them out of the way.
let saved: Array<[NodeJS.Signals, Array<(...args: unknown[]) => void>]> = [];
beforeEach(() => {
  saved = (["SIGINT", "SIGTERM"] as const).map((signal) => [signal, process.listeners(signal) as Array<(...args: unknown[]) => void>]);
  for (const [signal] of saved) process.removeAllListeners(signal);
});
afterEach(() => {
  for (const [signal, listeners] of saved) {
    process.removeAllListeners(signal);
    for (const listener of listeners) process.on(signal, listener);
  }
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs the command in-process until its start-up output is complete, then lets the test act. */
async function runUntilStarted(options: Partial<SandboxCommandOptions>, tty = false) {
  const buffers = bufferIO({ tty });
  const done = sandboxCommand(buffers.io, { ...defaults, ...options });
  let exitCode: number | undefined;
  void done.then((code) => (exitCode = code));
  await until(() => exitCode !== undefined || process.listenerCount("SIGINT") > 0);
  if (exitCode === undefined) await until(() => buffers.stdout().endsWith("\n"));
  return { ...buffers, done };
}

describe("start-up output", () => {
  it("--json prints exactly one JSON object with the URL and a working token per user, then stops on SIGINT with 0", async () => {
    const run = await runUntilStarted({ json: true });
    const lines = run.stdout().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    const output = JSON.parse(lines[0]!);
    expect(Object.keys(output)).toEqual(["url", "users"]);
    expect(output.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output.users.map((user: { name: string }) => user.name)).toEqual(["alice", "bob", "carol", "erin", "dave", "acme"]);
    expect(output.users[0]).toEqual({ id: 101, name: "alice", role: "APIUser", plan: "Monitor", token: expect.any(String) });
    expect(output.users[4].plan).toBeNull();

    const response = await fetch(`${output.url}/v2/intake/1001`, { headers: { authorization: `Bearer ${output.users[0].token}` } });
    expect(response.status).toBe(200);
    await until(() => run.stderr().includes("\n"));
    expect(run.stderr()).toMatch(/^GET \/v2\/intake\/1001 200 \d+(\.\d+)?ms\n$/);

    process.emit("SIGINT");
    expect(await run.done).toBe(0);
    expect(process.listenerCount("SIGINT")).toBe(0);
    expect(process.listenerCount("SIGTERM")).toBe(0);
    await expect(fetch(`${output.url}/sandbox/stats`)).rejects.toThrow();
  });

  it("--env prints only the two export lines, for the first APIUser by default", async () => {
    const run = await runUntilStarted({ env: true });
    const lines = run.stdout().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^export FOODCTL_API_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^export FOODCTL_TOKEN=[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(lines[1]!.split("=")[1]!.split(".")[1]!, "base64url").toString());
    expect(claims.sub).toBe("101");
    process.emit("SIGTERM");
    expect(await run.done).toBe(0);
  });

  it("--env --as dave exports the manager's token, and --env wins over --json", async () => {
    const run = await runUntilStarted({ env: true, as: "dave", json: true });
    const token = run.stdout().trimEnd().split("\n")[1]!.split("=")[1]!;
    expect(JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString())).toMatchObject({ sub: "201", role: "APIUserManager" });
    process.emit("SIGINT");
    expect(await run.done).toBe(0);
  });

  it("when not a terminal: the URL, then one tab-separated row per user", async () => {
    const run = await runUntilStarted({});
    await until(() => run.stdout().split("\n").length >= 8);
    const lines = run.stdout().trimEnd().split("\n");
    expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.slice(1).map((line) => line.split("\t").slice(0, 4))).toEqual([
      ["101", "alice", "APIUser", "Monitor"],
      ["102", "bob", "APIUser", "Analyse"],
      ["103", "carol", "APIUser", "Recommend"],
      ["104", "erin", "APIUser", "Monitor"],
      ["201", "dave", "APIUserManager", "-"],
      ["301", "acme", "APICompany", "-"],
    ]);
    expect(lines.slice(1).every((line) => line.split("\t").length === 5)).toBe(true);
    process.emit("SIGINT");
    expect(await run.done).toBe(0);
  });

  it("on a terminal: the URL, a table of users and an export hint", async () => {
    const run = await runUntilStarted({}, true);
    await until(() => run.stdout().includes("Ctrl-C"));
    const out = run.stdout();
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    for (const word of ["id", "name", "role", "plan", "token", "alice", "APIUserManager"]) expect(out).toContain(word);
    expect(out).toMatch(/export FOODCTL_API_URL=http:\/\/127\.0\.0\.1:\d+ FOODCTL_TOKEN=\S+/);
    process.emit("SIGINT");
    expect(await run.done).toBe(0);
  });
});

describe("refusals", () => {
  it("an unknown --as name: exit 2, one line on stderr, nothing started", async () => {
    const { io, stdout, stderr } = bufferIO();
    expect(await sandboxCommand(io, { ...defaults, env: true, as: "mallory" })).toBe(2);
    expect(stderr()).toBe('error: unknown sandbox user "mallory" (known: alice, bob, carol, erin, dave, acme)\n');
    expect(stdout()).toBe("");
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("a port already in use: exit 8 with a one-line error", async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const port = Number(new URL(other.url).port);
      const { io, stdout, stderr } = bufferIO();
      expect(await sandboxCommand(io, { ...defaults, port })).toBe(8);
      expect(stderr()).toMatch(new RegExp(`^error: port ${port} .*in use.*\\n$`));
      expect(stderr().split("\n")).toHaveLength(2);
      expect(stdout()).toBe("");
    } finally {
      await other.close();
    }
  });

  it("a corrupt state file: exit 2 with a one-line error and the file untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "foodctl-sandbox-cmd-"));
    try {
      const path = join(dir, "state.json");
      writeFileSync(path, "{oops");
      const { io, stderr } = bufferIO();
      expect(await sandboxCommand(io, { ...defaults, state: path })).toBe(2);
      expect(stderr()).toMatch(/^error: cannot use state file .*state\.json: it is not valid JSON\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the built CLI", () => {
  it("`foodctl sandbox --port 0 --json` starts well under a few seconds, serves, and exits 0 on SIGINT", async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [cliBin(), "sandbox", "--port", "0", "--json"], { env: baseEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      await until(() => stdout.includes("\n"), 10_000);
      expect(Date.now() - started).toBeLessThan(5000);
      const { url, users } = JSON.parse(stdout);
      const response = await fetch(`${url}/v2/history/getIntakesList?${new URLSearchParams(ALL_TIME)}`, { headers: { authorization: `Bearer ${users[1].token}` } });
      expect(response.status).toBe(200);
      await until(() => /getIntakesList\S* 200/.test(stderr));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
