/**
 * `intake apply` against faults on its updates: the same retry rule per change as a single
 * command, one result line per change, the exit code of docs/cli.md (8 when every change failed
 * alike, 9 for a partial batch), nothing sent after a stop, and Ctrl-C finishing what is in flight.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect, runFoodctl, runTempDir, tempConfigHome, type CliResult } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, type FaultServer, type Reply } from "../helpers/faultServer.js";
import { manualIntake, segmentationIntake, signTestToken } from "./fixtures.js";
import { faultServerPairs, KILL_AFTER_MS, runAgainst } from "./harness.js";

const UPDATE = "POST /v2/nutrition/confirm/quantity";
const CHANGES = [
  { image_id: 1002, quantity: { "1": 150 } },
  { image_id: 1003, quantity: { manual1: 250 } },
  { image_id: 1002, quantity: { "2": 80 } },
];

let token: string;
let input: string;

beforeAll(async () => {
  token = await signTestToken();
  input = join(runTempDir("foodctl-apply-faults-"), "fixes.jsonl");
  writeFileSync(input, CHANGES.map((change) => JSON.stringify(change)).join("\n") + "\n");
});
// The intakes the batch reads: a case that stops early never reads the second one. Read first,
// each holds other values than the batch sends (a value already there is not sent); read again,
// what the batch sent, so a read-back after an update shows it (not another writer's value).
const servers = faultServerPairs((server) => {
  // 1002: before line 1, after it, before line 3, after it.
  const reads = [
    [200, 120],
    [150, 120],
    [150, 120],
    [150, 80],
  ] as const;
  server.allow("GET /v2/intake/1002", ...reads.map((grams) => faults.intake(segmentationIntake(1002, [...grams]))));
  server.allow("GET /v2/intake/1003", faults.intake(manualIntake(1003, false, 300)), faults.intake(manualIntake()));
});

interface ResultLine {
  line: number;
  image_id: number;
  status: string;
  error?: { code: string; exit_code: number; status: number | null; message: string };
}

function results(result: CliResult): ResultLine[] {
  return result.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ResultLine)
    .sort((a, b) => a.line - b.line);
}

/** Ended by itself with this code; stderr holds the summary and one `error:` line, no stack trace. */
function expectBatchError(result: CliResult, exitCode: number, mentions: Array<string | RegExp>): void {
  expect(result.signal, `killed; stderr: ${result.stderr}`).toBeNull();
  expect(result.code, result.stderr).toBe(exitCode);
  const errors = result.stderr.split("\n").filter((line) => line.startsWith("error:"));
  expect(errors, result.stderr).toHaveLength(1);
  for (const mention of mentions) expect(errors[0]).toMatch(mention);
  expect(result.stderr).toMatch(/^applied \d+ · failed \d+/m);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const apply = (server: FaultServer, ...extra: string[]) =>
  runAgainst(server, token, ["intake", "apply", input, "--concurrency", "1", ...extra]);

/** The request bodies the server got, in order. */
const updateBodies = (server: FaultServer) =>
  server.requests
    .filter((request) => request.route === UPDATE)
    .map((request) => JSON.parse(request.body.toString("utf8")) as Record<string, unknown>);

describe.concurrent("intake apply against faults on the updates", () => {
  it("503 on every update with --continue-on-error: 3 attempts per change, every change failed, exit 8", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.unavailable());
    const result = await apply(server, "--continue-on-error");
    expect(result.signal).toBeNull();
    expect(result.code, result.stderr).toBe(8);
    expect(server.count(UPDATE)).toBe(9);
    const lines = results(result);
    expect(lines.map((line) => [line.line, line.status, line.error?.status, line.error?.exit_code])).toEqual([
      [1, "failed", 503, 8],
      [2, "failed", 503, 8],
      [3, "failed", 503, 8],
    ]);
    expect(lines[0]!.error!.message).toContain(`${server.host} answered 503`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("503 without --continue-on-error: the first change fails after 3 attempts and nothing more is sent", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.unavailable());
    const result = await apply(server);
    expectBatchError(result, 8, [server.host, "503", /2 changes not sent/]);
    expect(server.count(UPDATE)).toBe(3);
    expect(updateBodies(server).every((body) => JSON.stringify(body) === JSON.stringify({ imageId: 1002, quantity: { "1": 150 } }))).toBe(
      true,
    );
    expect(results(result).map((line) => line.status)).toEqual(["failed"]);
  });

  it("500 is not retried: one attempt per change", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.internalError());
    const result = await apply(server, "--continue-on-error");
    expect(result.code, result.stderr).toBe(8);
    expect(server.count(UPDATE)).toBe(3);
  });

  it("a 429 with Retry-After, then 200s: waits and applies every change", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.rateLimited(1), faults.updated(1002));
    const result = await apply(server);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(UPDATE)).toBe(4);
    expect(results(result).map((line) => line.status)).toEqual(["applied", "applied", "applied"]);
  });

  it("one 400 among 200s with --continue-on-error: a partial batch, exit 9", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.updated(1002), faults.error(400, "quantity out of range"), faults.updated(1002));
    const result = await apply(server, "--continue-on-error");
    expect(result.code, result.stderr).toBe(9);
    expect(server.count(UPDATE)).toBe(3);
    const lines = results(result);
    expect(lines.map((line) => line.status)).toEqual(["applied", "failed", "applied"]);
    expect(lines[1]!.error).toMatchObject({ code: "rejected", exit_code: 7, status: 400 });
    expect(result.stderr).toMatch(/^error: 1 of 3 changes failed/m);
  });

  it("an update that never answers (--timeout 1 --retries 1): 2 attempts, then the batch stops, exit 8", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.hang());
    const result = await apply(server, "--timeout", "1", "--retries", "1", "--continue-on-error");
    expectBatchError(result, 8, [server.host, "no answer within 1 s"]);
    // An unreachable API stops every change: the others are not tried.
    expect(server.count(UPDATE)).toBe(2);
  });

  it("resets mid-body are network errors: retried, then the batch stops", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.resetMidBody());
    const result = await apply(server, "--continue-on-error");
    expectBatchError(result, 8, [server.host, "unreachable"]);
    expect(server.count(UPDATE)).toBe(3);
  });

  it("an empty 200 to every update is fine: the reads after decide", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.empty200());
    const result = await apply(server);
    expect(result.code, result.stderr).toBe(0);
    expect(results(result).map((line) => line.status)).toEqual(["applied", "applied", "applied"]);
    // A read before and after each change.
    expect(server.count("GET /v2/intake/1002")).toBe(4);
    expect(server.count("GET /v2/intake/1003")).toBe(2);
  });

  it("a redirect of the updates is not followed to another host", async () => {
    const { server, other } = await servers();
    server.route(UPDATE, faults.redirect(`${other.url}/v2/nutrition/confirm/quantity`, 307));
    const result = await apply(server, "--continue-on-error");
    expect(result.code, result.stderr).toBe(1);
    expect(other.count()).toBe(0);
    expect(results(result).every((line) => line.status === "failed" && line.error?.status === 307)).toBe(true);
  });

  it("a 50 MB answer to an update is refused, not buffered: exit 1", async () => {
    const { server } = await servers();
    server.route(UPDATE, faults.huge(false));
    const result = await apply(server);
    expectBatchError(result, 1, [server.host, /limit/]);
    expect(server.count(UPDATE)).toBe(1);
  });

  it("a closed port stops the batch at the first change: exit 8, the rest not sent", async () => {
    // Port 1 (tcpmux), where nothing listens: a port a closed test server let go of may be another test's by now.
    const url = "http://127.0.0.1:1";
    // In process, on a fake clock: the retry's backoff costs no real time.
    const clock = fakeClock();
    const result = await runFoodctl(
      ["--api-url", url, "--retries", "1", "intake", "apply", input, "--concurrency", "1", "--continue-on-error"],
      { env: { FOODCTL_TOKEN: token }, clock },
    );
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expectBatchError(result, 8, [new URL(url).host, "connection refused", /2 changes not sent/]);
    expect(results(result).map((line) => line.status)).toEqual(["failed"]);
  });
});

describe.concurrent("Ctrl-C during intake apply", () => {
  it("finishes the change in flight, reports it, sends nothing more, exit 130", async () => {
    const { server } = await servers();
    // The first update is answered after a pause; the signal comes while it is in flight.
    const slowOk: Reply = {
      kind: "handler",
      handle: (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ message: "updated", imageId: 1002 }));
        }, 700);
      },
    };
    server.route(UPDATE, slowOk);
    const child = spawn(process.execPath, [cliBin(), "--api-url", server.url, "intake", "apply", input, "--concurrency", "1"], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_TOKEN: token }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const done = collect(child, { timeoutMs: KILL_AFTER_MS });
    await server.waitFor(UPDATE);
    child.kill("SIGINT");
    const result = await done;
    expect(result.signal).toBeNull();
    expect(result.code, result.stderr).toBe(130);
    expect(server.count(UPDATE)).toBe(1);
    expect(results(result).map((line) => [line.line, line.status])).toEqual([[1, "applied"]]);
    expect(result.stderr).toMatch(/interrupted: 2 changes not sent/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
