/** A mixed batch through a manager's token: every kind of intake, two users, one missing intake. */
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import {
  apply,
  byLine,
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

const MIXED = jsonl(
  { image_id: 1001, user_id: 101, quantity: 330, salt: "low" },
  { image_id: 1002, user_id: 101, quantity: { "1": 150 }, oil: { "2": "high" } },
  { image_id: 1003, user_id: 101, quantity: { manual2: 80.5 }, measures: { manual1: "imperial" } },
  { image_id: 2002, user_id: 102, quantity: { "1": 90 }, salt: { "2": "high" } },
  { image_id: 9999, user_id: 101, quantity: 100 },
  { image_id: 2001, user_id: 102, quantity: 250 },
);

const MIXED_CSV = [
  CSV_HEADER,
  "1001,101,,330,low,,,",
  "1002,101,1,150,,,,",
  "1002,101,2,,,,high,",
  "1003,101,manual2,80.5,,,,",
  "1003,101,manual1,,,,,imperial",
  "2002,102,1,90,,,,",
  "2002,102,2,,high,,,",
  "9999,101,,100,,,,",
  "2001,102,,250,,,,",
  "",
].join("\n");

/** What the mixed batch must leave behind, whatever its input format. */
function expectMixedBatchApplied(
  lines: { recognition: number; segmentation: number; manual: number; bob: number; missing: number; bobTotal: number },
  stdout: string,
) {
  const handle = sb.handle;
  const list = results(stdout);
  expect(list).toHaveLength(6);
  const byLineNo = byLine(list);
  expect(byLineNo.get(lines.recognition)).toEqual({ line: lines.recognition, image_id: 1001, status: "applied" });
  expect(byLineNo.get(lines.segmentation)).toEqual({ line: lines.segmentation, image_id: 1002, status: "applied" });
  expect(byLineNo.get(lines.manual)).toEqual({ line: lines.manual, image_id: 1003, status: "applied" });
  // bob's plan (Analyse) is below Monitor: the quantity applies, the item-level salt is ignored.
  expect(byLineNo.get(lines.bob)).toEqual({
    line: lines.bob,
    image_id: 2002,
    status: "applied",
    ignored: [{ position: "2", field: "salt", requested: "high", actual: expect.any(String) }],
  });
  expect(byLineNo.get(lines.missing)).toEqual({
    line: lines.missing,
    image_id: 9999,
    status: "failed",
    error: { code: "not_found", exit_code: 6, status: 404, message: expect.stringMatching(/404.*no intake 9999/) },
  });
  expect(byLineNo.get(lines.bobTotal)).toEqual({ line: lines.bobTotal, image_id: 2001, status: "applied" });

  expect(intake(handle, 1001)).toMatchObject({ serving_size: 330, salt: "low" });
  expect(item(handle, 1002, 1).serving_size).toBe(150);
  expect(item(handle, 1002, 2).oil).toBe("high");
  expect(item(handle, 1003, "manual2").serving_size).toBe(80.5);
  expect(item(handle, 1003, "manual1").measures).toBe("imperial");
  expect(item(handle, 2002, 1).serving_size).toBe(90);
  expect(item(handle, 2002, 2).salt).not.toBe("high");
  expect(intake(handle, 2001).serving_size).toBe(250);
}

describe("intake apply: a mixed batch", () => {
  it("applies JSON Lines for two users through dave's token and reports the missing intake (exit 9)", async () => {
    const file = writeInput("mixed.jsonl", MIXED);
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--continue-on-error"], { as: "dave" });
    expect(run.stderr).toMatch(/applied 5 · failed 1 · skipped 0 · ignored modifiers 1 \(on 1 change\) · 6 changes in/);
    expect(run.stderr).toMatch(/error: 1 of 6 changes failed/);
    expect(run.code).toBe(9);
    expectMixedBatchApplied({ recognition: 1, segmentation: 2, manual: 3, bob: 4, missing: 5, bobTotal: 6 }, run.stdout);
    // Pre-check and verify reads for the five found intakes, one read for the missing one; no update for it.
    expect(sent()).toEqual({ [GET_INTAKE]: 11, [POST_QUANTITY]: 5 });
  });

  it("applies the same batch as CSV, one change per intake and user at its first row's line", async () => {
    const file = writeInput("mixed.csv", MIXED_CSV);
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--continue-on-error"], { as: "dave" });
    expect(run.code).toBe(9);
    expectMixedBatchApplied({ recognition: 2, segmentation: 3, manual: 5, bob: 7, missing: 9, bobTotal: 10 }, run.stdout);
    expect(sent()).toEqual({ [GET_INTAKE]: 11, [POST_QUANTITY]: 5 });
  });

  it("counts a change whose modifiers did not take effect as failed with --strict", async () => {
    const file = writeInput("mixed.jsonl", MIXED);
    const run = await apply(sb.handle, [file, "--continue-on-error", "--strict", "--json"], { as: "dave" });
    expect(run.code).toBe(9);
    const bob = byLine(results(run.stdout)).get(4)!;
    expect(bob).toMatchObject({
      status: "failed",
      error: { code: "rejected", exit_code: 7, status: null },
      ignored: [{ position: "2", field: "salt" }],
    });
    expect(bob.error!.message).toMatch(/did not take effect/);
    // The update itself was sent and applied: --strict judges, it does not undo.
    expect(item(sb.handle, 2002, 1).serving_size).toBe(90);
    const summary = run.stderr.split("\n").find((line) => line.startsWith('{"summary"'));
    expect(JSON.parse(summary!)).toEqual({
      summary: expect.objectContaining({ changes: 6, applied: 4, failed: 2, skipped: 0, not_sent: 0, ignored_modifiers: 1, stopped: null }),
    });
    expect(JSON.parse(run.stderr.trim().split("\n").at(-1)!)).toMatchObject({ error: { code: "partial", exit_code: 9 } });
  });

  it("stops sending after the first failure without --continue-on-error and leaves the rest unreported", async () => {
    const file = writeInput(
      "stop.jsonl",
      jsonl({ image_id: 9999, quantity: 100 }, { image_id: 1001, quantity: 300 }, { image_id: 1002, quantity: { "1": 120 } }),
    );
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--concurrency", "1"]);
    expect(results(run.stdout)).toEqual([expect.objectContaining({ line: 1, status: "failed" })]);
    expect(run.stderr).toMatch(/not sent 2/);
    expect(run.stderr).toContain(
      `hint: run it again, keeping its results: foodctl intake apply ${file} --concurrency 1 --results results.jsonl (add --continue-on-error to go past failing lines)`,
    );
    // Nothing was done at all, so the exit code is the failure's own: 6 for a missing intake.
    expect(run.code).toBe(6);
    expect(sent()).toEqual({ [QUOTA_PROBE]: 1, [GET_INTAKE]: 1 });
  });
});
