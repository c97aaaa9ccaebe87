/**
 * `foodctl sandbox --detach` and `sandbox stop` with the built CLI as the background process,
 * and a foreground sandbox whose launcher dies: no sandbox is left behind either way.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxCommandOptions } from "../../src/sandboxes/options.js";
import { isSandboxRunning, listPidFiles, readRecord, restartCommandAt, writeRecord } from "../../src/sandboxes/records.js";
import { sandboxCommand } from "../../src/commands/sandbox/start.js";
import { stopSandbox } from "../../src/commands/sandbox/stop.js";
import { Context } from "../../src/context.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { fakeClock } from "../helpers/clock.js";
import { processStart } from "../../src/processes.js";
import { baseEnv, cliBin } from "../helpers/cli.js";

/** A record's fields a test does not care about. */
/** A record of no process: Linux gives no pid as large as 2^22 (its largest pid_max). */
const RECORD = { pid: 4_194_304, start: null, url: "", port: 0, log: "", started_at: "", again: "", stopped_at: null };

const options: SandboxCommandOptions = { port: 0, host: "127.0.0.1", env: false, tokenKind: "jwt", strict: false, detach: true };

let dir = "";
let env: NodeJS.ProcessEnv = {};
const started: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "foodctl-detach-"));
  env = baseEnv({ XDG_RUNTIME_DIR: join(dir, "run") });
});
afterEach(() => {
  for (const pid of started.splice(0)) if (isSandboxRunning({ pid, start: null })) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function deps(json = false) {
  const buffers = bufferIO({ env });
  const globals = { json, verbose: false, color: false, pager: false };
  buffers.io.program = { node: process.execPath, script: cliBin() };
  return { ...buffers, deps: new Context(buffers.io, globals, new AbortController().signal) };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("--detach", () => {
  it("returns once listening, prints the export lines and a comment with its PID and how to stop it; `stop` ends it and marks the record stopped", async () => {
    const run = deps();
    expect(await sandboxCommand(run.deps, { ...options, as: "dave" })).toBe(0);
    const lines = run.stdout().trimEnd().split("\n");
    expect(lines[0]).toMatch(/^export FOODCTL_API_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^export FOODCTL_TOKEN=\S+$/);
    expect(lines[2]).toBe("export FOODCTL_USER=101");
    const comment = /^# foodctl sandbox: PID (\d+) on (\S+), log (\S+); stop it with: foodctl sandbox stop --port (\d+)$/.exec(lines[3]!);
    expect(comment).not.toBeNull();
    const [, pid, url, log, port] = comment!;
    started.push(Number(pid));
    expect(url).toBe(lines[0]!.split("=")[1]);
    expect(run.stderr()).toContain("FOODCTL_USER=101 acts for alice");

    const token = lines[1]!.split("=")[1]!;
    expect((await fetch(`${url}/v2/intake/1001?user_id=101`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await until(() => readFileSync(log!, "utf8").includes("/v2/intake/1001"));
    expect(listPidFiles(env)).toEqual([join(dir, "run", "foodctl", `sandbox-${port}.json`)]);

    const stop = deps();
    expect(await stopSandbox(stop.deps, {})).toBe(0);
    expect(stop.stderr()).toBe(`stopped the sandbox on ${url} (PID ${pid})\n`);
    expect(isSandboxRunning({ pid: Number(pid), start: null })).toBe(false);
    // The record stays, marked stopped, for the hint that starts it again (with --as dave).
    const record = join(dir, "run", "foodctl", `sandbox-${port}.json`);
    expect(readRecord(record)).toMatchObject({ pid: Number(pid), again: " --as dave", stopped_at: expect.stringMatching(/Z$/) });
    expect(restartCommandAt(env, new URL(url!))).toBe(`foodctl sandbox --detach --port ${port} --as dave`);
    await expect(fetch(`${url}/sandbox/stats`)).rejects.toThrow();
  });

  it("--json prints one object with the PID, port, log and pid file; --pid-file records it where asked", async () => {
    const run = deps(true);
    const pidFile = join(dir, "sb.pid");
    expect(await sandboxCommand(run.deps, { ...options, pidFile })).toBe(0);
    const start = JSON.parse(run.stdout());
    started.push(start.pid);
    expect(start).toMatchObject({
      url: expect.stringMatching(/^http:/),
      pid: expect.any(Number),
      port: expect.any(Number),
      pid_file: pidFile,
    });
    expect(start.users).toHaveLength(6);
    expect(JSON.parse(readFileSync(pidFile, "utf8"))).toMatchObject({ pid: start.pid, url: start.url });

    const stop = deps(true);
    expect(await stopSandbox(stop.deps, { pidFile })).toBe(0);
    expect(JSON.parse(stop.stdout())).toEqual({ stopped: true, stale: false, pid: start.pid, port: start.port, url: start.url });
    expect(existsSync(pidFile)).toBe(false);
  });

  it("a sandbox that cannot start: the launcher fails at once with its error and exit code, and leaves no record", async () => {
    const corrupt = join(dir, "state.json");
    writeFileSync(corrupt, "{oops");
    await expect(sandboxCommand(deps().deps, { ...options, state: corrupt })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^cannot use state file .*state\.json: it is not valid JSON$/),
    });
    expect(readdirSync(join(dir, "run", "foodctl"))).toEqual([]);
    const busy = deps();
    const first = deps(true);
    expect(await sandboxCommand(first.deps, options)).toBe(0);
    const { pid, port } = JSON.parse(first.stdout());
    started.push(pid);
    await expect(sandboxCommand(busy.deps, { ...options, port })).rejects.toMatchObject({
      exitCode: 8,
      message: `port ${port} on 127.0.0.1 is already in use by a detached sandbox (PID ${pid}): stop it with \`foodctl sandbox stop --port ${port}\`, \
or start with --port 0 for a free port`,
    });
    expect(listPidFiles(env)).toHaveLength(1);
    expect(await stopSandbox(deps().deps, { port })).toBe(0);
  });
});

describe("sandbox stop", () => {
  it("without --port, stops the sandbox FOODCTL_API_URL points to when several run; without it, asks which (exit 2)", async () => {
    const first = deps(true);
    const second = deps(true);
    expect(await sandboxCommand(first.deps, options)).toBe(0);
    expect(await sandboxCommand(second.deps, options)).toBe(0);
    const [a, b] = [JSON.parse(first.stdout()), JSON.parse(second.stdout())];
    started.push(a.pid, b.pid);
    await expect(stopSandbox(deps().deps, {})).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^2 detached sandboxes are running \(ports \d+, \d+\): choose one with --port$/),
    });
    env = { ...env, FOODCTL_API_URL: b.url };
    const stop = deps();
    expect(await stopSandbox(stop.deps, {})).toBe(0);
    expect(stop.stderr()).toBe(`stopped the sandbox on ${b.url} (PID ${b.pid})\n`);
    expect(isSandboxRunning({ pid: a.pid, start: null })).toBe(true);
    expect(await stopSandbox(deps().deps, { port: a.port })).toBe(0);
  });

  it("with nothing recorded: exit 6 and says where it looked", async () => {
    const message = `no detached sandbox is recorded in ${join(dir, "run", "foodctl")}`;
    await expect(stopSandbox(deps().deps, {})).rejects.toMatchObject({ exitCode: 6, message });
  });

  it("sandbox stop alone, FOODCTL_API_URL naming a stopped sandbox: exit 6, and another one running is named in the hint, not stopped", async () => {
    const start = async () => {
      const run = deps(true);
      expect(await sandboxCommand(run.deps, options)).toBe(0);
      const started_ = JSON.parse(run.stdout()) as { url: string; pid: number; port: number };
      started.push(started_.pid);
      return started_;
    };
    const [a, b] = [await start(), await start()];
    expect(await stopSandbox(deps().deps, { port: a.port })).toBe(0);
    const pointing = bufferIO({ env: { ...env, FOODCTL_API_URL: a.url } });
    const ctx = new Context(pointing.io, { json: false, verbose: false, color: false, pager: false }, new AbortController().signal);
    await expect(stopSandbox(ctx, {})).rejects.toMatchObject({
      exitCode: 6,
      message: expect.stringMatching(new RegExp(`^the sandbox on ${a.url} \\(PID ${a.pid}\\) was stopped at \\S+Z: nothing to stop$`)),
      hint: `start it again: eval "$(foodctl sandbox --detach --port ${a.port})"; or stop the one running: foodctl sandbox stop --port ${b.port}`,
    });
    expect(isSandboxRunning({ pid: b.pid, start: null })).toBe(true);
    expect(await stopSandbox(deps().deps, { port: b.port })).toBe(0);
  });

  it("a stale record (its process is gone) is marked stopped and the stop succeeds; stopping it again is exit 6 with how to start it", async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const path = join(dir, "run", "foodctl", "sandbox-4321.json");
    writeRecord(path, { ...RECORD, pid: gone, url: "http://127.0.0.1:4321", port: 4321, again: " --state '/tmp/my state.json'" });
    const stop = deps();
    expect(await stopSandbox(stop.deps, { port: 4321 })).toBe(0);
    expect(stop.stderr()).toBe(`the sandbox on http://127.0.0.1:4321 (PID ${gone}) was not running; recorded it as stopped\n`);
    expect(readRecord(path)?.stopped_at).toMatch(/Z$/);
    for (const options of [{ port: 4321 }, {}]) {
      await expect(stopSandbox(deps().deps, options)).rejects.toMatchObject({
        exitCode: 6,
        message: expect.stringMatching(/^the sandbox on http:\/\/127\.0\.0\.1:4321 \(PID \d+\) was stopped at \S+Z: nothing to stop$/),
        hint: `start it again: eval "$(foodctl sandbox --detach --port 4321 --state '/tmp/my state.json')"`,
      });
    }
  });

  it("a stale record in a --pid-file is removed, as a pid file is", async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const pidFile = join(dir, "sb.pid");
    writeRecord(pidFile, { ...RECORD, pid: gone, url: "http://127.0.0.1:4322", port: 4322 });
    const stop = deps();
    expect(await stopSandbox(stop.deps, { pidFile })).toBe(0);
    expect(stop.stderr()).toBe(`the sandbox on http://127.0.0.1:4322 (PID ${gone}) was not running; removed its stale record\n`);
    expect(existsSync(pidFile)).toBe(false);
  });

  it("reads a record only as its definition allows (src/records/sandboxes.ts); an older one's missing keys are filled in", () => {
    const path = join(dir, "sandbox-4500.json");
    const read = (record: unknown) => {
      writeFileSync(path, JSON.stringify(record));
      return readRecord(path);
    };
    expect(read({ pid: 4321, url: "http://127.0.0.1:4500", port: 4500 })).toEqual({
      pid: 4321,
      start: null,
      url: "http://127.0.0.1:4500",
      port: 4500,
      log: "",
      started_at: "",
      again: "",
      stopped_at: null,
    });
    for (const refused of [
      { pid: 0, url: "http://127.0.0.1:4500", port: 4500 },
      { pid: -1, url: "http://127.0.0.1:4500", port: 4500 },
      { pid: 4321, url: "http://127.0.0.1:4500", port: "4500" },
      { pid: 4321, url: "http://127.0.0.1:4500", port: 4500, start: "12; rm -rf" },
      { pid: 4321, port: 4500 },
      [4321],
    ])
      expect(read(refused), JSON.stringify(refused)).toBeUndefined();
  });

  it("keeps the newest 20 stopped records for 30 days, and forgets older ones with their logs", async () => {
    const folder = join(dir, "run", "foodctl");
    const day = 86_400_000;
    const now = Date.parse("2026-11-28T00:00:00Z");
    // 22 stopped an hour apart (the two oldest beyond the 20), one 31 days ago, one 29 days ago.
    const ages = [...Array.from({ length: 22 }, (_, index) => index * 3_600_000), 31 * day, 29 * day];
    ages.forEach((age, index) => {
      const port = 5000 + index;
      writeRecord(join(folder, `sandbox-${port}.json`), {
        ...RECORD,
        port,
        url: `http://127.0.0.1:${port}`,
        stopped_at: new Date(now - age).toISOString(),
      });
      writeFileSync(join(folder, `sandbox-${port}.log`), "GET /v2/intake/1001 200 1ms\n");
    });
    const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    writeRecord(join(folder, "sandbox-4999.json"), { ...RECORD, pid: gone, port: 4999, url: "http://127.0.0.1:4999" });
    const clock = fakeClock({ start: now });
    const globals = { json: false, verbose: false, color: false, pager: false };
    expect(await stopSandbox(new Context(bufferIO({ env }).io, globals, new AbortController().signal, { clock }), { port: 4999 })).toBe(0);
    // Kept: the one just stopped, then the 19 newest of the others (ports 5000-5018); not 5019-5021, 5022 (31 days).
    const kept = listPidFiles(env).map((file) => Number(/(\d+)\.json$/.exec(file)![1]));
    expect(kept).toEqual([4999, ...Array.from({ length: 19 }, (_, index) => 5000 + index)]);
    expect(readdirSync(folder).filter((name) => name.endsWith(".log"))).toHaveLength(19);
    expect(existsSync(join(folder, "sandbox-5023.log"))).toBe(false);
  });

  it("the restart command is only for a loopback port whose recorded sandbox is not running", () => {
    const path = join(dir, "run", "foodctl", "sandbox-4400.json");
    writeRecord(path, { ...RECORD, pid: process.pid, start: null, port: 4400, url: "http://127.0.0.1:4400", again: " --strict" });
    // This process is no `foodctl sandbox` (its command line says so): not running, so the hint.
    expect(restartCommandAt(env, new URL("http://localhost:4400/v2"))).toBe("foodctl sandbox --detach --port 4400 --strict");
    expect(restartCommandAt(env, new URL("http://127.0.0.1:4401"))).toBeUndefined();
    expect(restartCommandAt(env, new URL("http://api.example.com:4400"))).toBeUndefined();
  });
});

describe("N9: sandbox stop signals only the sandbox it recorded", () => {
  it("a stale record whose pid is now another program's (even one with `sandbox` in its arguments) is marked stopped, and that program left alone", async ({
    onTestFinished,
  }) => {
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)", "sandbox"], { stdio: "ignore" });
    onTestFinished(() => void other.kill("SIGKILL"));
    await until(() => processStart(other.pid!) !== null);
    const pid = other.pid!;
    for (const [port, start] of [
      [4322, "1"], // recorded with another start time: the pid was reused
      [4323, null], // an older record without one: its command line is not foodctl's
    ] as const) {
      const path = join(dir, "run", "foodctl", `sandbox-${port}.json`);
      writeRecord(path, { ...RECORD, pid, start, url: `http://127.0.0.1:${port}`, port });
      const stop = deps();
      expect(await stopSandbox(stop.deps, { port })).toBe(0);
      expect(stop.stderr()).toBe(
        `the sandbox on http://127.0.0.1:${port} (PID ${pid}) was not running (PID ${pid} is another process now, left alone); recorded it as stopped\n`,
      );
      expect(readRecord(path)?.stopped_at).toMatch(/Z$/);
    }
    expect(other.exitCode).toBe(null);
    expect(other.signalCode).toBe(null);
  });
});

describe("a foreground sandbox whose launcher dies", () => {
  it("stops by itself (`bash script.sh` with `foodctl sandbox &` in a wrapper, then `kill %1`)", async ({ onTestFinished }) => {
    const script = `"${process.execPath}" "${cliBin()}" sandbox --port 0 --json & echo $!; wait`;
    // A group of its own, so a run that fails before its pid is known still ends the wrapper and the sandbox.
    const launcher = spawn("bash", ["-c", script], { env, stdio: ["ignore", "pipe", "ignore"], detached: true });
    onTestFinished(() => {
      try {
        process.kill(-launcher.pid!, "SIGKILL");
      } catch {
        // Both ended already.
      }
    });
    let out = "";
    launcher.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    await until(() => out.split("\n").length >= 3, 10_000);
    const pid = Number(out.split("\n")[0]);
    started.push(pid);
    const { url } = JSON.parse(out.split("\n")[1]!);
    expect((await fetch(`${url}/sandbox/stats`)).status).toBe(200);
    launcher.kill("SIGKILL");
    await until(() => !isSandboxRunning({ pid, start: null }));
    await expect(fetch(`${url}/sandbox/stats`)).rejects.toThrow();
  });
});

describe("a launcher that cannot run", () => {
  it("fails with exit 1 and one line, and leaves no record or log", async () => {
    const run = deps();
    const missing = new Context(
      { ...run.io, program: { node: join(dir, "no-such-node"), script: cliBin() } },
      run.deps.globals,
      run.deps.signal,
    );
    await expect(sandboxCommand(missing, options)).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/^cannot start the sandbox in the background: .*ENOENT/),
    });
    expect(readdirSync(join(dir, "run", "foodctl"))).toEqual([]);
  });
});

describe("--detach --host 0.0.0.0", () => {
  it("the launcher prints the detached sandbox's network warning on its stderr, in text and --json", async () => {
    for (const json of [false, true]) {
      const run = deps(json);
      expect(await sandboxCommand(run.deps, { ...options, host: "0.0.0.0" })).toBe(0);
      const url = json ? (JSON.parse(run.stdout()) as { url: string }).url : /^export FOODCTL_API_URL=(\S+)$/m.exec(run.stdout())![1]!;
      const port = new URL(url).port;
      expect(url).toBe(`http://127.0.0.1:${port}`);
      expect(run.stderr()).toContain(`warning: the sandbox listens on http://0.0.0.0:${port}, reachable from the network`);
      const record = JSON.parse(readFileSync(join(dir, "run", "foodctl", `sandbox-${port}.json`), "utf8")) as { pid: number };
      started.push(record.pid);
      expect(await stopSandbox(deps().deps, { port: Number(port) })).toBe(0);
    }
  });
});
