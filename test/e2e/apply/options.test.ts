/** --dry-run, stdin, --no-verify, and the exit codes of a batch that could do nothing. */
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import {
  apply,
  countRequests,
  CSV_HEADER,
  GET_INTAKE,
  intake,
  item,
  jsonl,
  POST_QUANTITY,
  QUOTA_PROBE,
  results,
  writeInput,
} from "./harness.js";

const sb = withSandbox({}, { perTest: true });

describe("intake apply: options", () => {
  it("--dry-run prints each request, token masked, and sends nothing", async () => {
    const file = writeInput(
      "fixes.jsonl",
      jsonl({ image_id: 1001, user_id: 101, quantity: 300 }, { image_id: 2002, user_id: 102, quantity: { "1": 90 }, salt: { "2": "low" } }),
    );
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, [file, "--dry-run"], { as: "dave" });
    expect(run.code).toBe(0);
    const list = results(run.stdout);
    expect(list).toEqual([
      {
        line: 1,
        image_id: 1001,
        status: "dry_run",
        request: {
          method: "POST",
          url: `${sb.handle.url}/v2/nutrition/confirm/quantity?user_id=101`,
          headers: expect.objectContaining({ authorization: "Bearer ****" }),
          body: { imageId: 1001, quantity: 300 },
        },
      },
      {
        line: 2,
        image_id: 2002,
        status: "dry_run",
        request: expect.objectContaining({
          url: `${sb.handle.url}/v2/nutrition/confirm/quantity?user_id=102`,
          body: { imageId: 2002, quantity: { "1": 90 }, salt: { "2": "low" } },
        }),
      },
    ]);
    expect(run.stdout + run.stderr).not.toContain(sb.handle.tokenFor("dave"));
    expect(run.stderr).toMatch(/dry run 2 · failed 0/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });

  it("reads CSV from stdin with --format csv", async () => {
    const stdin = [CSV_HEADER, "1002,,1,155,,,,", "1002,,3,42,,,,", "1001,,,333,,,,", ""].join("\n");
    const run = await apply(sb.handle, ["-", "--format", "csv"], { stdin });
    expect(run.code).toBe(0);
    expect(results(run.stdout).sort((a, b) => a.line - b.line)).toEqual([
      { line: 2, image_id: 1002, status: "applied" },
      { line: 4, image_id: 1001, status: "applied" },
    ]);
    expect(item(sb.handle, 1002, 1).serving_size).toBe(155);
    expect(item(sb.handle, 1002, 3).serving_size).toBe(42);
    expect(intake(sb.handle, 1001).serving_size).toBe(333);
  });

  it("reads JSON Lines from stdin with --format jsonl", async () => {
    const stdin = jsonl({ image_id: 1001, quantity: 290 });
    const run = await apply(sb.handle, ["-", "--format", "jsonl"], { stdin });
    expect(run.code).toBe(0);
    expect(results(run.stdout)).toEqual([{ line: 1, image_id: 1001, status: "applied" }]);
  });

  it("--no-verify sends only the updates", async () => {
    const file = writeInput("fixes.jsonl", jsonl({ image_id: 1001, quantity: 301 }, { image_id: 1003, quantity: { manual1: 33 } }));
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--no-verify"]);
    expect(run.code).toBe(0);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [POST_QUANTITY]: 2 });
    expect(item(sb.handle, 1003, "manual1").serving_size).toBe(33);
  });

  it("refuses an update that cannot apply to its intake before sending it (exit 7)", async () => {
    const file = writeInput("fixes.jsonl", jsonl({ image_id: 1002, quantity: { "9": 50 } }));
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file]);
    expect(run.code).toBe(7);
    expect(results(run.stdout)).toEqual([
      {
        line: 1,
        image_id: 1002,
        status: "failed",
        error: { code: "rejected", exit_code: 7, status: null, message: expect.stringMatching(/unknown position 9/) },
      },
    ]);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [GET_INTAKE]: 1 });
  });

  it("exits 4 on a 401 and stops the batch even with --continue-on-error", async () => {
    const stranger = await sb.handle.signToken({ sub: "999", role: "APIUser" });
    const file = writeInput(
      "fixes.jsonl",
      jsonl({ image_id: 1001, quantity: 300 }, { image_id: 1002, quantity: { "1": 100 } }, { image_id: 1003, quantity: { manual1: 10 } }),
    );
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--continue-on-error", "--concurrency", "1"], { env: { FOODCTL_TOKEN: stranger } });
    expect(run.code).toBe(4);
    expect(results(run.stdout)).toEqual([
      { line: 1, image_id: 1001, status: "failed", error: expect.objectContaining({ code: "auth", exit_code: 4, status: 401 }) },
    ]);
    expect(run.stderr).toMatch(/not sent 2/);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [GET_INTAKE]: 1 });
  });

  it("exits 8 when the API is unreachable", async () => {
    const file = writeInput("fixes.jsonl", jsonl({ image_id: 1001, quantity: 300 }, { image_id: 1002, quantity: { "1": 100 } }));
    const run = await apply(sb.handle, [file, "--retries", "0", "--continue-on-error"], { env: { FOODCTL_API_URL: "http://127.0.0.1:1" } });
    expect(run.code).toBe(8);
    for (const result of results(run.stdout))
      expect(result).toMatchObject({ status: "failed", error: { code: "unavailable", exit_code: 8, status: null } });
  });

  it("exits 0 for an empty input", async () => {
    const run = await apply(sb.handle, [writeInput("empty.jsonl", "\n")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/no changes in the input/);
  });
});
