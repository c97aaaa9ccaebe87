/** `foodctl sandbox` in the foreground: start-up output in each mode, refusals as CliErrors, and a stop on the run's signal. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRateLimit, parseSandboxOptions } from "../../src/commands/sandbox/index.js";
import { formatRateLimit, type SandboxCommandOptions } from "../../src/sandboxes/options.js";
import { sandboxCommand } from "../../src/commands/sandbox/start.js";
import { portInUseMessage } from "../../src/sandboxes/foreground.js";
import { chooseExport, userViews } from "../../src/sandboxes/users.js";
import { run } from "../../src/main.js";
import { SEED_USERS } from "../../src/sandbox/seed.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { Context } from "../../src/context.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { baseEnv, cliBin } from "../helpers/cli.js";
import { ALL_TIME } from "../helpers/sandbox.js";

const defaults: SandboxCommandOptions = { port: 0, host: "127.0.0.1", env: false, tokenKind: "jwt", strict: false, detach: false };

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs the command in-process until its start-up output is complete; `stop()` aborts the run's signal. */
async function runUntilStarted(options: Partial<SandboxCommandOptions>, io: { tty?: boolean; columns?: number; json?: boolean } = {}) {
  const buffers = bufferIO({ tty: io.tty, columns: io.columns });
  const controller = new AbortController();
  const globals = { json: io.json ?? false, verbose: false, color: false, pager: false };
  const done = sandboxCommand(new Context(buffers.io, globals, controller.signal), { ...defaults, ...options });
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  await until(() => settled || buffers.stdout().endsWith("\n"));
  return { ...buffers, done, stop: () => controller.abort() };
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

describe("start-up output", () => {
  it("--json prints exactly one JSON object with the URL and a working token per user, then stops with 0 when the run's signal aborts", async () => {
    const listeners = () => process.listenerCount("SIGINT") + process.listenerCount("SIGTERM");
    const before = listeners();
    const run = await runUntilStarted({}, { json: true });
    // No signal handlers of its own: it stops on the run's signal.
    expect(listeners()).toBe(before);
    const lines = run.stdout().split("\n");
    expect(lines).toHaveLength(2);
    const output = JSON.parse(lines[0]!);
    expect(Object.keys(output)).toEqual(["url", "users"]);
    expect(output.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output.users.map((user: { name: string }) => user.name)).toEqual(["alice", "bob", "carol", "erin", "dave", "acme"]);
    expect(output.users[0]).toMatchObject({ id: 101, name: "alice", role: "APIUser", plan: "Monitor", token: expect.any(String) });
    expect(output.users[4].plan).toBeNull();

    const response = await fetch(`${output.url}/v2/intake/1001`, { headers: { authorization: `Bearer ${output.users[0].token}` } });
    expect(response.status).toBe(200);
    await until(() => run.stderr().includes("\n"));
    expect(run.stderr()).toMatch(/^GET \/v2\/intake\/1001 200 \d+(\.\d+)?ms\n$/);

    run.stop();
    expect(await run.done).toBe(0);
    await expect(fetch(`${output.url}/sandbox/stats`)).rejects.toThrow();
  });

  it("--env prints only the two export lines, for the first APIUser by default, once it is listening", async () => {
    const run = await runUntilStarted({ env: true });
    const lines = run.stdout().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^export FOODCTL_API_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/^export FOODCTL_TOKEN=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(claimsOf(lines[1]!.split("=")[1]!).sub).toBe("101");
    const url = lines[0]!.split("=")[1]!;
    expect(run.stderr()).toBe("");
    expect((await fetch(`${url}/sandbox/stats`)).status).toBe(200);
    run.stop();
    expect(await run.done).toBe(0);
  });

  it("--env --as dave (a manager) also exports FOODCTL_USER for one of his users and says which on stderr; --env wins over --json", async () => {
    const run = await runUntilStarted({ env: true, as: "dave" }, { json: true });
    const lines = run.stdout().trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(claimsOf(lines[1]!.split("=")[1]!)).toMatchObject({ sub: "201", role: "APIUserManager" });
    expect(lines[2]).toBe("export FOODCTL_USER=101");
    expect(run.stderr()).toBe("dave is an APIUserManager: FOODCTL_USER=101 acts for alice, one of dave's users (also: bob)\n");
    run.stop();
    expect(await run.done).toBe(0);
  });

  it("when not a terminal: the URL, then one tab-separated row per user with the whole token", async () => {
    const run = await runUntilStarted({});
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
    expect(lines.slice(1).every((line) => line.split("\t").length === 5 && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(line.split("\t")[4]!))).toBe(
      true,
    );
    run.stop();
    expect(await run.done).toBe(0);
  });

  it("on an 80-column terminal: the users table fits, tokens cut with …, then one export line to copy", async () => {
    const run = await runUntilStarted({}, { tty: true, columns: 80 });
    await until(() => run.stdout().includes("Ctrl-C"));
    const out = run.stdout();
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const table = out.split("\n").slice(1, 9);
    for (const line of table) expect([...line].length).toBeLessThanOrEqual(80);
    expect(table[0]).toMatch(/^ id {2}name {3}role .*acts for +token$/);
    expect(table[6]).toMatch(/^201 {2}dave {3}APIUserManager .*101,102 .*…$/);
    expect(out).toMatch(/export FOODCTL_API_URL=http:\/\/127\.0\.0\.1:\d+ FOODCTL_TOKEN=[\w-]+\.[\w-]+\.[\w-]+\n/);
    run.stop();
    expect(await run.done).toBe(0);
  });

  it("with --wide (a stream without a width) the tokens are whole", async () => {
    const run = await runUntilStarted({}, { tty: true, columns: 0 });
    await until(() => run.stdout().includes("Ctrl-C"));
    const rows = run.stdout().split("\n").slice(3, 9);
    for (const row of rows) expect(row).toMatch(/ [\w-]+\.[\w-]+\.[\w-]+$/);
    run.stop();
    expect(await run.done).toBe(0);
  });
});

describe("which token --env exports", () => {
  const users = userViews(
    { users: SEED_USERS.map((user) => ({ ...user, token: `jwt-${user.name}`, opaque_token: `${user.id}`.padStart(40, "a") })) },
    SEED_USERS,
  );

  it("--token-kind opaque exports the user's opaque token instead of the JWT", () => {
    expect(chooseExport("http://x", users, { as: "bob", tokenKind: "opaque" }).env).toEqual({
      url: "http://x",
      token: "102".padStart(40, "a"),
    });
    expect(chooseExport("http://x", users, { as: "bob", tokenKind: "jwt" }).env).toEqual({ url: "http://x", token: "jwt-bob" });
  });

  it("a company acts for the first of its users", () => {
    const { env, note } = chooseExport("http://x", users, { as: "acme", tokenKind: "jwt" });
    expect(env).toEqual({ url: "http://x", token: "jwt-acme", user: 101 });
    expect(note).toBe("acme is an APICompany: FOODCTL_USER=101 acts for alice, one of acme's users (also: bob, carol, erin)");
  });
});

describe("refusals: one line on stderr (JSON under --json), an exit code, nothing started", () => {
  it("an unknown --as name: exit 2", async () => {
    const { io, stdout, stderr } = bufferIO();
    expect(await run(["sandbox", "--port", "0", "--env", "--as", "mallory"], { io, signal: new AbortController().signal })).toBe(2);
    expect(stderr()).toBe('error: unknown sandbox user "mallory" (known: alice, bob, carol, erin, dave, acme)\n');
    expect(stdout()).toBe("");
  });

  it("an unknown --token-kind: exit 2", async () => {
    const { io, stderr } = bufferIO();
    expect(await run(["sandbox", "--port", "0", "--env", "--token-kind", "paper"], { io, signal: new AbortController().signal })).toBe(2);
    expect(stderr()).toMatch(
      /^error: option '--token-kind <kind>' argument 'paper' is invalid\. Allowed choices are jwt, opaque\.\nhint: /,
    );
  });

  it("a port already in use: exit 8 at once, the error as JSON under --json and nothing on stdout", async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const port = new URL(other.url).port;
      const { io, stdout, stderr } = bufferIO();
      expect(await run(["sandbox", "--port", port, "--env", "--json"], { io, signal: new AbortController().signal })).toBe(8);
      const { error } = JSON.parse(stderr());
      expect(error).toMatchObject({ code: "unavailable", exit_code: 8 });
      expect(error.message).toBe(`port ${port} on 127.0.0.1 is already in use: choose another with --port (0 picks a free one)`);
      expect(stdout()).toBe("");
    } finally {
      await other.close();
    }
  });

  it("a busy default port suggests --port 0; a port held by a detached sandbox says which and how to stop it", () => {
    const { io } = bufferIO({ env: { XDG_RUNTIME_DIR: join(tmpdir(), "foodctl-no-runtime") } });
    expect(portInUseMessage(io, { ...defaults, port: undefined }, 8787)).toBe(
      "port 8787 on 127.0.0.1 is already in use (another sandbox?): start with --port 0 for a free port",
    );
  });

  it("`sandbox --help` lists --json and the other global options, and `sandbox stop`", async () => {
    const { io, stdout } = bufferIO();
    expect(await run(["sandbox", "--help"], { io, signal: new AbortController().signal })).toBe(0);
    expect(stdout()).toMatch(/^ {2}--json +machine output/m);
    expect(stdout()).toMatch(/^ {2}stop +stop a sandbox started with --detach/m);
    expect(stdout()).toMatch(/^ {2}--detach +run in the background/m);
  });

  it("a corrupt state file: exit 2 with a one-line error and the file untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "foodctl-sandbox-cmd-"));
    try {
      const path = join(dir, "state.json");
      writeFileSync(path, "{oops");
      const { io, stderr } = bufferIO();
      expect(await run(["sandbox", "--port", "0", "--state", path], { io, signal: new AbortController().signal })).toBe(2);
      expect(stderr()).toMatch(/^error: cannot use state file .*state\.json: it is not valid JSON\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("--rate-limit and --strict", () => {
  it("--rate-limit is n requests per rolling window: 24 hours unless a window in s, m, h or d is given", () => {
    const cases: Array<[string, number, number]> = [
      ["100", 100, 86_400_000],
      ["100/24h", 100, 86_400_000],
      ["5/1s", 5, 1000],
      ["5/s", 5, 1000],
      ["30/10m", 30, 600_000],
      ["1000/7d", 1000, 604_800_000],
    ];
    for (const [given, limit, windowMs] of cases) expect([given, parseRateLimit(given)]).toEqual([given, { limit, windowMs }]);
    expect(formatRateLimit({ limit: 30, windowMs: 600_000 })).toBe("30/600s");
    expect(parseRateLimit(formatRateLimit({ limit: 100, windowMs: 86_400_000 }))).toEqual({ limit: 100, windowMs: 86_400_000 });
  });

  for (const given of ["0", "1.5", "-3", "abc", "", "100/", "100/24", "100/0h", "100/24x", "100/1.5h", "100/367d", "100 /24h"]) {
    it(`--rate-limit ${JSON.stringify(given)} is refused before anything starts: exit 2, one line`, async () => {
      const { io, stdout, stderr } = bufferIO();
      expect(await run(["sandbox", "--port", "0", "--env", "--rate-limit", given], { io, signal: new AbortController().signal })).toBe(2);
      expect(stderr()).toBe(
        `error: --rate-limit must be n or n/<window>: a whole number of requests, a window in s, m, h or d up to 366d (100/24h, 5/1s), got "${given}"\n`,
      );
      expect(stdout()).toBe("");
    });
  }

  it("the started sandbox applies both: an unused field is a 400, alice's third request in the hour a 429, and the log shows both", async () => {
    const parsed = parseSandboxOptions({ rateLimit: parseRateLimit("2/1h"), strict: true, env: false, detach: false } as Parameters<
      typeof parseSandboxOptions
    >[0]);
    expect(parsed).toMatchObject({ rateLimit: { limit: 2, windowMs: 3_600_000 }, strict: true });
    const started = await runUntilStarted({ ...parsed, port: 0 }, { json: true });
    const output = JSON.parse(started.stdout());
    const headers = { authorization: `Bearer ${output.users[0].token}`, "content-type": "application/json" };
    const strict = await fetch(`${output.url}/v2/nutrition/recipe/ingredients`, {
      method: "POST",
      headers,
      body: JSON.stringify({ imageId: 1001, source: "logmeal" }),
    });
    expect([strict.status, ((await strict.json()) as { code: number }).code]).toEqual([400, 1402]);
    expect(strict.headers.get("ratelimit-remaining")).toBe("1");
    await fetch(`${output.url}/v2/intake/1001`, { headers });
    const limited = await fetch(`${output.url}/v2/intake/1001`, { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-limit")).toBe("2");
    started.stop();
    expect(await started.done).toBe(0);
    expect(started.stderr()).toMatch(/^POST \/v2\/nutrition\/recipe\/ingredients 400 /m);
    expect(started.stderr()).toMatch(/^GET \/v2\/intake\/1001 429 /m);
  });

  it("`sandbox --help` shows both options", async () => {
    const { io, stdout } = bufferIO();
    expect(await run(["sandbox", "--help"], { io, signal: new AbortController().signal })).toBe(0);
    expect(stdout()).toMatch(/^ {2}--rate-limit <n\[\/window\]> +APIUser tokens only/m);
    expect(stdout()).toMatch(/^ {2}--strict +check a client/m);
  });
});

describe("the built CLI", () => {
  it("`foodctl sandbox --port 0 --json` serves, and exits 0 on a real SIGINT (the run's signal)", async () => {
    const child = spawn(process.execPath, [cliBin(), "sandbox", "--port", "0", "--json"], {
      env: baseEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      await until(() => stdout.includes("\n"));
      const { url, users } = JSON.parse(stdout);
      const headers = { authorization: `Bearer ${users[1].token}` };
      expect((await fetch(`${url}/v2/history/getIntakesList?${new URLSearchParams(ALL_TIME)}`, { headers })).status).toBe(200);
      await until(() => /getIntakesList\S* 200/.test(stderr));
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("a sandbox reachable from the network (--host 0.0.0.0, ::, 0): a warning on stderr, and a URL this machine reaches", () => {
  // The sandbox listens on every address for the moment of the test, on a free port; only loopback talks to it.
  it.each([
    ["0.0.0.0", "http://0.0.0.0:", "http://127.0.0.1:"],
    ["0", "http://0.0.0.0:", "http://127.0.0.1:"],
    ["::", "http://[::]:", "http://[::1]:"],
  ])(
    "--host %s: warns with the real listening address in text and --json, and the printed URL answers",
    async (host, listening, reachable) => {
      for (const json of [false, true]) {
        const run = await runUntilStarted({ host }, { json });
        const url = json ? (JSON.parse(run.stdout()) as { url: string }).url : run.stdout().split("\n")[0]!;
        const port = new URL(url).port;
        expect(url).toBe(`${reachable}${port}`);
        expect(run.stderr()).toContain(`warning: the sandbox listens on ${listening}${port}, reachable from the network`);
        if (json)
          expect(JSON.parse(run.stdout())).toMatchObject({ listening_url: `${listening}${port}`, network_warning: expect.any(String) });
        expect((await fetch(`${url}/sandbox/stats`)).status).toBe(200);
        run.stop();
        expect(await run.done).toBe(0);
      }
    },
  );

  it("--env prints the warning too; on loopback there is none", async () => {
    const open = await runUntilStarted({ host: "0.0.0.0", env: true });
    expect(open.stderr()).toMatch(/^warning: the sandbox listens on http:\/\/0\.0\.0\.0:\d+, reachable from the network/m);
    open.stop();
    await open.done;
    const local = await runUntilStarted({ host: "127.0.0.1" }, { json: true });
    expect(local.stderr()).not.toContain("warning");
    expect(Object.keys(JSON.parse(local.stdout()))).toEqual(["url", "users"]);
    local.stop();
    await local.done;
  });
});
