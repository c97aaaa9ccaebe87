/** Resuming a batch that stopped at a failure: --skip-applied sends only what was not applied. */
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, countRequests, GET_INTAKE, jsonl, POST_QUANTITY, QUOTA_PROBE, results, spawnApply, writeInput } from "./harness.js";

const sb = withSandbox();

describe("intake apply --skip-applied", () => {
  it("after a run that failed midway, sends only the changes not applied yet", async () => {
    const lines = [
      { image_id: 1001, user_id: 101, quantity: 310 },
      { image_id: 1002, user_id: 101, quantity: { "1": 140 } },
      { image_id: 1003, user_id: 101, quantity: { manual1: 60 } },
      // No user_id: dave is a manager, so the API refuses it (400) and the batch stops here.
      { image_id: 2001, quantity: 240 },
      { image_id: 2002, user_id: 102, quantity: { "2": 70 } },
      { image_id: 2003, user_id: 102, quantity: { manual2: 45 } },
    ];
    const first = writeInput("fixes.jsonl", jsonl(...lines));
    const firstRun = await apply(sb.handle, [first, "--concurrency", "1"], { as: "dave" });
    expect(firstRun.code).toBe(9);
    const earlier = results(firstRun.stdout);
    expect(earlier.map((result) => [result.line, result.status])).toEqual([
      [1, "applied"],
      [2, "applied"],
      [3, "applied"],
      [4, "failed"],
    ]);
    expect(earlier[3]!.error).toMatchObject({ code: "rejected", exit_code: 7, status: 400 });
    expect(firstRun.stderr).toMatch(/not sent 2/);

    // The line is fixed in place (same line number, same image_id) and the batch resumed.
    lines[3] = { image_id: 2001, user_id: 102, quantity: 240 };
    const fixed = writeInput("fixes.jsonl", jsonl(...lines));
    const resultsFile = writeInput("results.jsonl", firstRun.stdout);
    const sent = countRequests(sb.handle);
    const resumed = await apply(sb.handle, [fixed, "--skip-applied", resultsFile, "--concurrency", "1"], { as: "dave" });
    expect(resumed.code).toBe(0);
    expect(results(resumed.stdout)).toEqual([
      { line: 1, image_id: 1001, status: "skipped" },
      { line: 2, image_id: 1002, status: "skipped" },
      { line: 3, image_id: 1003, status: "skipped" },
      { line: 4, image_id: 2001, status: "applied" },
      { line: 5, image_id: 2002, status: "applied" },
      { line: 6, image_id: 2003, status: "applied" },
    ]);
    expect(sent()).toEqual({ [GET_INTAKE]: 6, [POST_QUANTITY]: 3 });
    expect(resumed.stderr).toMatch(/applied 3 · failed 0 · skipped 3/);
  });

  it("matches on line number and image_id together: a moved line is sent again", async () => {
    const file = writeInput(
      "fixes.jsonl",
      jsonl({ image_id: 1005, quantity: { manual1: 50 } }, { image_id: 1004, quantity: { manual1: 30 } }),
    );
    const earlier = writeInput(
      "results.jsonl",
      jsonl({ line: 1, image_id: 1004, status: "applied" }, { line: 2, image_id: 1004, status: "applied" }),
    );
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--skip-applied", earlier, "--no-verify"]);
    expect(run.code).toBe(0);
    // Results come as changes complete, not in input order.
    expect(results(run.stdout).sort((x, y) => x.line - y.line)).toEqual([
      { line: 1, image_id: 1005, status: "applied" },
      { line: 2, image_id: 1004, status: "skipped" },
    ]);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [POST_QUANTITY]: 1 });
  });

  it("a results file that does not exist yet means nothing was applied: one cron line makes the first run and every later one", async () => {
    const file = writeInput(
      "fixes.jsonl",
      jsonl({ image_id: 1004, quantity: { manual1: 35 } }, { image_id: 1005, quantity: { manual1: 55 } }),
    );
    const resultsFile = join(dirname(file), "results.jsonl");
    const cron = [file, "--skip-applied", resultsFile, "--results", resultsFile, "--concurrency", "1", "--no-verify"];
    const sent = countRequests(sb.handle);
    const first = await apply(sb.handle, cron);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`${resultsFile} does not exist yet: no change has been applied before\n`);
    expect(results(first.stdout).map((result) => result.status)).toEqual(["applied", "applied"]);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [POST_QUANTITY]: 2 });

    const again = await apply(sb.handle, cron);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("does not exist yet");
    expect(results(again.stdout).map((result) => result.status)).toEqual(["skipped", "skipped"]);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [POST_QUANTITY]: 2 });
  });

  it("refuses a results file that stdout emptied (> instead of >>) rather than sending everything again", async () => {
    const file = writeInput("fixes.jsonl", jsonl({ image_id: 1001, quantity: 305 }));
    const resultsFile = writeInput("results.jsonl", "");
    writeFileSync(resultsFile, jsonl({ line: 1, image_id: 1001, status: "applied" }));
    const before = sb.handle.stats().total_requests;
    // What `> results.jsonl` does: the file is emptied and becomes stdout before the command starts.
    const stdout = openSync(resultsFile, "w");
    const { done } = spawnApply(sb.handle, [file, "--skip-applied", resultsFile], "alice", stdout);
    closeSync(stdout);
    const run = await done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is also stdout, and was emptied before it could be read: nothing was sent/);
    expect(run.stderr).toMatch(/hint: write the results with --results .*results\.jsonl \(or append with >>/);
    expect(readFileSync(resultsFile, "utf8")).toBe("");
    expect(sb.handle.stats().total_requests).toBe(before);

    // Appending (>>) keeps the earlier results: the applied line is skipped.
    writeFileSync(resultsFile, jsonl({ line: 1, image_id: 1001, status: "applied" }));
    const appended = openSync(resultsFile, "a");
    const again = spawnApply(sb.handle, [file, "--skip-applied", resultsFile], "alice", appended);
    closeSync(appended);
    expect((await again.done).code).toBe(0);
    expect(results(readFileSync(resultsFile, "utf8"))).toEqual([
      { line: 1, image_id: 1001, status: "applied" },
      { line: 1, image_id: 1001, status: "skipped" },
    ]);
    expect(sb.handle.stats().total_requests).toBe(before);
  });
});
