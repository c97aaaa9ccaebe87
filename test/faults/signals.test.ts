/**
 * Ctrl-C (SIGINT) while a change is under way: exit 130, promptly, and stderr says whether
 * the change had been sent. The request is held in flight by the fault server (or by the
 * sandbox's latency), and the signal comes once the server has the request: in process (the
 * run's abort signal) for most cases, as a real SIGINT to the built CLI for two.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";
import { baseEnv, cliBin, collect, runFoodctl, runTempDir, tempConfigHome, type CliResult } from "../helpers/cli.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { manualIntake, segmentationIntake, signTestToken, tinyPngFile } from "./fixtures.js";
import { KILL_AFTER_MS } from "./harness.js";

const READ_1002 = "GET /v2/intake/1002";
const UPDATE = "POST /v2/nutrition/confirm/quantity";
const READ_1003 = "GET /v2/intake/1003";
const UPLOAD = "POST /v2/intake/1003/display_image";

let server: FaultServer;
let token: string;
let photo: string;

beforeAll(async () => {
  [server, token] = await Promise.all([startFaultServer(), signTestToken()]);
  photo = tinyPngFile();
});
afterAll(async () => {
  await server.close();
});
// After each case: a scripted reply it left unused fails that case.
afterEach(() => {
  server.reset();
});

/**
 * Starts foodctl in process; `interruptWhen` aborts its signal (what the process entry does on
 * SIGINT) once `when` resolves. `{ process: true }` runs the built CLI and sends it a real SIGINT,
 * for the cases that show the wiring from the signal to the run.
 */
function start(args: string[], env: Record<string, string>, options: { process?: boolean } = {}) {
  if (options.process) {
    const child = spawn(process.execPath, [cliBin(), ...args], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), ...env }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const done = collect(child, { timeoutMs: KILL_AFTER_MS });
    return {
      async interruptWhen(when: Promise<unknown>): Promise<CliResult> {
        await when;
        child.kill("SIGINT");
        return done;
      },
    };
  }
  const controller = new AbortController();
  const done = runFoodctl(args, { env, signal: controller.signal });
  return {
    async interruptWhen(when: Promise<unknown>): Promise<CliResult> {
      await when;
      controller.abort();
      return done;
    },
  };
}

function expectInterrupted(result: CliResult, said: RegExp): void {
  expect(result.signal, `killed; stderr: ${result.stderr}`).toBeNull();
  expect(result.code, result.stderr).toBe(130);
  expect(result.stderr).toMatch(said);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stdout).toBe("");
}

const SENT = /after the POST request was sent.*may have been applied/;
const NOT_SENT = /no change was sent|nothing was changed/;

describe("SIGINT during set-quantity", () => {
  it("while the update is in flight: exit 130, says it was sent", async () => {
    server.route(READ_1002, faults.intake(segmentationIntake()));
    server.route(UPDATE, faults.hang());
    const run = start(["--api-url", server.url, "intake", "set-quantity", "1002", "1=150"], { FOODCTL_TOKEN: token }, { process: true });
    const result = await run.interruptWhen(server.waitFor(UPDATE));
    expectInterrupted(result, SENT);
    expect(server.count(UPDATE)).toBe(1);
  });

  it("while the update is in flight: the hint names the intake, never <image_id>", async () => {
    server.route(READ_1002, faults.intake(segmentationIntake()));
    server.route(UPDATE, faults.hang());
    const run = start(["--api-url", server.url, "intake", "set-quantity", "1002", "1=150"], { FOODCTL_TOKEN: token });
    const result = await run.interruptWhen(server.waitFor(UPDATE));
    expectInterrupted(result, SENT);
    expect(result.stderr).toContain("hint: check with `foodctl intake show 1002`; sending the same change again is safe");
    expect(result.stderr).not.toContain("<image_id>");
  });

  it("before the update could be sent (the read before is held): exit 130, says nothing was sent", async () => {
    server.route(READ_1002, faults.hang());
    const run = start(["--api-url", server.url, "intake", "set-quantity", "1002", "1=150"], { FOODCTL_TOKEN: token });
    const result = await run.interruptWhen(server.waitFor(READ_1002));
    expectInterrupted(result, NOT_SENT);
    expect(server.count(UPDATE)).toBe(0);
  });

  it("while waiting out a Retry-After between attempts: ends at once, exit 130", async () => {
    server.route(READ_1002, faults.intake(segmentationIntake()));
    // 100 s is over the kill timeout: the test only passes if the wait is cut short.
    server.route(UPDATE, faults.rateLimited(100));
    const run = start(["--api-url", server.url, "intake", "set-quantity", "1002", "1=150"], { FOODCTL_TOKEN: token });
    const result = await run.interruptWhen(server.waitFor(UPDATE).then(() => new Promise((resolve) => setTimeout(resolve, 200))));
    expectInterrupted(result, /interrupted/);
    expect(result.stderr).toMatch(/may have been applied|was sent/);
    expect(server.count(UPDATE)).toBe(1);
  });

  it("while the read after is in flight: exit 130, says the change was applied", async () => {
    server.route(READ_1002, faults.intake(segmentationIntake()), faults.hang());
    server.route(UPDATE, faults.empty200());
    const run = start(["--api-url", server.url, "intake", "set-quantity", "1002", "1=150"], { FOODCTL_TOKEN: token });
    const secondRead = new Promise<void>((resolve) => {
      const onRequest = () => {
        if (server.count(READ_1002) >= 2) {
          server.off("request", onRequest);
          resolve();
        }
      };
      server.on("request", onRequest);
    });
    const result = await run.interruptWhen(secondRead);
    expectInterrupted(result, /interrupted after intake 1002 was changed/);
  });
});

describe("SIGINT during display-image attach", () => {
  it("while the upload is in flight: exit 130, says it was sent", async () => {
    server.route(READ_1003, faults.intake(manualIntake()));
    server.route(UPLOAD, faults.hang());
    const run = start(["--api-url", server.url, "display-image", "attach", "1003", photo], { FOODCTL_TOKEN: token });
    const result = await run.interruptWhen(server.waitFor(UPLOAD));
    expectInterrupted(result, SENT);
  });

  it("before the upload could be sent: exit 130, says nothing was sent", async () => {
    server.route(READ_1003, faults.hang());
    const run = start(["--api-url", server.url, "display-image", "attach", "1003", photo], { FOODCTL_TOKEN: token }, { process: true });
    const result = await run.interruptWhen(server.waitFor(READ_1003));
    expectInterrupted(result, NOT_SENT);
    expect(server.count(UPLOAD)).toBe(0);
  });
});

describe("SIGINT against a slow sandbox", () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, latencyMs: 60_000 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  /** Resolves once the sandbox has counted a request on that route. */
  async function received(route: string): Promise<void> {
    for (let waited = 0; waited < 15_000; waited += 20) {
      if ((sandbox.stats().requests[route] ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the sandbox never received ${route}`);
  }

  it("set-quantity interrupted while its read before is answered slowly: nothing changed", async () => {
    const before = sandbox.intake(1003);
    const run = start(["--api-url", sandbox.url, "intake", "set-quantity", "1003", "manual1=99"], {
      FOODCTL_TOKEN: sandbox.tokenFor("alice"),
    });
    const result = await run.interruptWhen(received("GET /v2/intake/:image_id"));
    expectInterrupted(result, NOT_SENT);
    expect(sandbox.stats().requests["POST /v2/nutrition/confirm/quantity"] ?? 0).toBe(0);
    expect(sandbox.intake(1003)).toEqual(before);
  });
});

describe("SIGINT against a sandbox that answers after a second", () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, latencyMs: 1000 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("set-quantity interrupted after the sandbox applied the update (its answer still delayed): says it may have been applied", async () => {
    const servingOf = () =>
      (sandbox.intake(1003) as { recipe_per_item: Array<{ food_item_position: string; serving_size: number }> }).recipe_per_item.find(
        (item) => item.food_item_position === "manual1",
      )!.serving_size;
    expect(servingOf()).not.toBe(99);
    const run = start(["--api-url", sandbox.url, "intake", "set-quantity", "1003", "manual1=99"], {
      FOODCTL_TOKEN: sandbox.tokenFor("alice"),
    });
    // The change is in the sandbox; only its answer is held back by the latency.
    const applied = (async () => {
      for (let waited = 0; waited < 15_000; waited += 10) {
        if (servingOf() === 99) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error("the sandbox never applied the update");
    })();
    const result = await run.interruptWhen(applied);
    expectInterrupted(result, SENT);
    expect(servingOf()).toBe(99);
  });
});

describe("SIGTERM (kill, timeout, a CI runner) is handled as Ctrl-C is", () => {
  it("intake apply interrupted while its first change is still being read: says none had been sent, and none was", async () => {
    const folder = runTempDir("foodctl-sigterm-");
    const input = join(folder, "changes.jsonl");
    writeFileSync(input, Array.from({ length: 20 }, (_, index) => `{"image_id":1002,"quantity":{"1":${150 + index}}}\n`).join(""));
    server.route(READ_1002, faults.hang());
    const child = spawn(process.execPath, [cliBin(), "--api-url", server.url, "intake", "apply", input], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_TOKEN: await signTestToken() }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const done = collect(child, { timeoutMs: KILL_AFTER_MS });
    await server.waitFor(READ_1002);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted: 20 changes not sent; none had been sent$/m);
    expect(result.stderr).toMatch(/^hint: run it again, keeping its results: foodctl intake apply \S+ --results results\.jsonl$/m);
    expect(server.count(UPDATE)).toBe(0);
  });

  it("undo --batch interrupted while its first entry is still being read: says none had been sent, and none was", async () => {
    const folder = runTempDir("foodctl-sigterm-");
    const input = join(folder, "changes.jsonl");
    const results = join(folder, "results.jsonl");
    writeFileSync(input, `{"image_id":1002,"quantity":{"1":150}}\n`);
    const env = baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), XDG_STATE_HOME: folder, FOODCTL_TOKEN: await signTestToken() });
    server.route(READ_1002, faults.intake(segmentationIntake()), faults.intake(segmentationIntake(1002, [150, 120])));
    server.route(UPDATE, faults.updated(1002));
    const applied = await collect(
      spawn(process.execPath, [cliBin(), "--api-url", server.url, "intake", "apply", input, "--results", results], { env }),
      { timeoutMs: KILL_AFTER_MS },
    );
    expect(applied.code, applied.stderr).toBe(0);
    server.reset();
    server.route(READ_1002, faults.hang());
    const child = spawn(process.execPath, [cliBin(), "--api-url", server.url, "undo", "--batch", results, "--yes"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const done = collect(child, { timeoutMs: KILL_AFTER_MS });
    await server.waitFor(READ_1002);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted: 1 entry not undone; none had been sent$/m);
    expect(server.count(UPDATE)).toBe(0);
  });

  it("intake apply: the change in flight is finished and reported, then the interrupted line, exit 130 (a real process)", async () => {
    const folder = runTempDir("foodctl-sigterm-");
    const input = join(folder, "changes.jsonl");
    writeFileSync(input, Array.from({ length: 20 }, (_, index) => `{"image_id":1002,"quantity":{"1":${150 + index}}}\n`).join(""));
    let release = () => {};
    server.route(READ_1002, faults.intake(segmentationIntake()), faults.intake(segmentationIntake(1002, [150, 120])));
    // The update is answered only when the test says: 2.2 s after SIGTERM, past the 2 s after which SIGTERM used to end the process.
    server.route(UPDATE, {
      kind: "handler",
      handle: (_req, res) => {
        release = () => res.writeHead(200, { "content-type": "application/json" }).end('{"message":"updated","imageId":1002}');
      },
    });
    const child = spawn(process.execPath, [cliBin(), "--api-url", server.url, "intake", "apply", input], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_TOKEN: token }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const done = collect(child, { timeoutMs: KILL_AFTER_MS });
    await server.waitFor(UPDATE);
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 2200));
    release();
    const result = await done;
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(130);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { line: number; status: string });
    expect(lines.map(({ line, status }) => ({ line, status }))).toEqual([{ line: 1, status: "applied" }]);
    expect(result.stderr).toMatch(/^error: interrupted: 19 changes not sent; the changes in flight were finished and reported$/m);
    expect(server.count(UPDATE)).toBe(1);
  });
});
