/**
 * Quotas you can see and plan with, against a sandbox with the documented rolling 24-hour window
 * (docs/api.md, rate limit): auth status --check shows what is left, intake apply refuses a batch
 * that needs more calls than are left before a reset it would not wait for, and with --force stops
 * cleanly at the limit. Each test has a sandbox of its own, so each starts with a fresh window.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, runEither, runTempDir } from "../../helpers/cli.js";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, countRequests, jsonl, POST_QUANTITY, results, writeInput } from "./harness.js";

const sb = withSandbox({ rateLimit: { limit: 12, windowMs: 86_400_000 } }, { perTest: true });
const LIST = "GET /v2/history/getIntakesList";

const status = (args: string[], as = "alice") =>
  runEither(["auth", "status", "--check", ...args], {
    env: { FOODCTL_API_URL: sb.handle.url, FOODCTL_TOKEN: sb.handle.tokenFor(as), NO_COLOR: "1" },
  });

const changes = (count: number) =>
  jsonl(...Array.from({ length: count }, (_, index) => ({ image_id: 1003, quantity: { manual1: 200 + index } })));

describe("auth status --check", () => {
  it("shows the calls left in the window, when it resets, and the credits left; its own read (the history list) spends neither", async () => {
    const fresh = await status(["--tz", "Asia/Tokyo"]);
    expectExit(fresh, 0);
    expect(fresh.stdout).toMatch(/^calls left +12 of 12 in the rolling window$/m);
    expect(fresh.stdout).toMatch(/^resets +nothing to reset: no call counted in the window$/m);
    expect(fresh.stdout).toMatch(/^credits left +100,000 \(0 used\)$/m);
    await fetch(`${sb.handle.url}/v2/intake/1001`, { headers: { authorization: `Bearer ${sb.handle.tokenFor("alice")}` } });
    const result = await status(["--tz", "Asia/Tokyo"]);
    expect(result.stdout).toMatch(/^calls left +11 of 12 in the rolling window$/m);
    expect(result.stdout).toMatch(/^resets +\d{4}-\d{2}-\d{2} \d{2}:\d{2} Asia\/Tokyo \(in 24 h\)$/m);
    expect(result.stdout).toMatch(/^credits left +99,999 \(1 used\)$/m);
  });

  it("says so for a token the window does not limit, and gives the quota under --json", async () => {
    // A manager's token acts for the user --user names (without one, --check asks nothing).
    const manager = await status(["--user", "101"], "dave");
    expectExit(manager, 0);
    expect(manager.stdout).toMatch(/^calls left +not limited for this token/m);
    const json = await status(["--json"]);
    expectExit(json, 0);
    expect(JSON.parse(json.stdout).server_check.quota).toMatchObject({
      user_id: "101",
      calls_limit: 12,
      calls_remaining: 12,
      reset_seconds: 86_400,
      credits_used: 0,
    });
  });

  it("--verbose traces the quota's headers", async () => {
    const result = await status(["--verbose"]);
    expectExit(result, 0);
    for (const header of [
      "user-id: 101",
      "x-account-credits-remaining: 100000",
      "ratelimit-limit: 12",
      "ratelimit-remaining: 12",
      "ratelimit-reset: 86400",
    ]) {
      expect(result.stderr).toContain(`< ${header}`);
    }
  });
});

describe("intake apply and the quota", () => {
  it("refuses before the first change a batch that needs more calls than are left (exit 2), after one cheap request", async () => {
    // One counted call starts the window: the cheap request (the history list) counts none.
    await fetch(`${sb.handle.url}/v2/intake/1001`, { headers: { authorization: `Bearer ${sb.handle.tokenFor("alice")}` } });
    const file = writeInput("quota.jsonl", changes(6));
    const sent = countRequests(sb.handle);
    const result = await apply(sb.handle, [file, "--tz", "America/New_York"]);
    expectErrorLine(
      result,
      2,
      /^error: the batch needs 13 calls \(1 read, 6 updates, 6 read-backs\) but 127\.0\.0\.1:\d+ allows 11 more until \d{4}-\d{2}-\d{2} \d{2}:\d{2} America\/New_York \(in 24 h\)$/,
    );
    expect(result.stderr).toMatch(/--force/);
    expect(sent()).toEqual({ [LIST]: 1 });
  });

  it("refuses on an unused window too a batch that needs more calls than the whole window holds", async () => {
    const file = writeInput("fresh.jsonl", changes(6));
    const sent = countRequests(sb.handle);
    const result = await apply(sb.handle, [file, "--concurrency", "1"]);
    expectErrorLine(
      result,
      2,
      /^error: the batch needs 13 calls \(1 read, 6 updates, 6 read-backs\) but 127\.0\.0\.1:\d+ allows 12 more until .* UTC \(in 24 h\)$/,
    );
    expect(sent()).toEqual({ [LIST]: 1 });
  });

  it("plans without the reads under --no-verify, and starts a batch that fits", async () => {
    const file = writeInput("fits.jsonl", changes(6));
    const run = await apply(sb.handle, [file, "--no-verify"]);
    expectExit(run, 0);
    expect(results(run.stdout).map((line) => line.status)).toEqual(Array(6).fill("applied"));
  });

  it("with --force starts anyway, stops cleanly at the limit, writes its results and says how to resume and when", async () => {
    const dir = runTempDir("foodctl-quota-");
    const file = writeInput("forced.jsonl", changes(8));
    const resultsFile = join(dir, "results.jsonl");
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--force", "--results", resultsFile]);
    expect(run.code).toBe(9);
    expect(run.stderr).toMatch(
      /^error: stopped at the rate limit: 6 changes applied \(1 unverified\), 2 changes not sent; .*answered 429 \(code 114\).*; the limit resets in 24 h \(at .* UTC\)$/m,
    );
    // The sixth change was applied; only its read-back was refused: counted apart from failed.
    expect(run.stderr).toMatch(/^applied 5 · applied, unverified 1 · failed 0 · skipped 0 · not sent 2 · /m);
    expect(run.stderr).toContain(
      `hint: after the reset, resume with: foodctl intake apply ${file} --skip-applied ${resultsFile} --results ${resultsFile}`,
    );
    // 12 calls: 1 read, 5 changes of an update and a read-back each, a sixth update whose read-back is refused; nothing after it.
    expect(sent()[POST_QUANTITY]).toBe(6);
    const written = readFileSync(resultsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(written.map((line) => line.status)).toEqual(["applied", "applied", "applied", "applied", "applied", "applied"]);
    expect(written.map((line) => line.verified)).toEqual([undefined, undefined, undefined, undefined, undefined, false]);
    expect(written[5].error).toMatchObject({ exit_code: 8, status: 429 });
    expect(written[5].error.message).toMatch(/the change was applied, but reading it back failed/);
  });

  it("names one zone in the quota refusal and in the 429 stop: the user's, at +05:45", async () => {
    // One counted call starts the window: the cheap request (the history list) counts none.
    await fetch(`${sb.handle.url}/v2/intake/1001`, { headers: { authorization: `Bearer ${sb.handle.tokenFor("alice")}` } });
    const file = writeInput("zone.jsonl", changes(8));
    const env = { FOODCTL_TZ: "Asia/Kathmandu" };
    const refused = await apply(sb.handle, [file], { env });
    expect(refused.code).toBe(2);
    const until = / until (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) (\S+) \(in 24 h\)$/m.exec(refused.stderr);
    expect(until?.[2]).toBe("Asia/Kathmandu");
    const stopped = await apply(sb.handle, [file, "--force"], { env });
    expect(stopped.code).toBe(9);
    const at = /the limit resets in 24 h \(at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) (\S+)\)$/m.exec(stopped.stderr);
    expect(at?.[2]).toBe("Asia/Kathmandu");
    // The same window's reset, on the same clock: the minute, give or take the run between them.
    expect(Math.abs(Date.parse(`${at![1]}Z`) - Date.parse(`${until![1]}Z`))).toBeLessThanOrEqual(60_000);
    expect(stopped.stderr).not.toContain("UTC");
  });
});
