/**
 * `undo --batch` runs on the batch runner's lanes (docs/journal.md, undo --batch): entries of
 * different intakes at once, `--concurrency` at a time, those of one intake one after another,
 * last line first; and --concurrency is checked as `intake apply` checks it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

const LATENCY_MS = 150;

let sandbox: JournalSandbox;
beforeAll(async () => {
  sandbox = await startJournalSandbox({ latencyMs: LATENCY_MS });
});
afterAll(() => sandbox.close());

describe("undo --batch on lanes", () => {
  it("undoes four intakes at once, each intake's entries last line first, and puts every intake back", async () => {
    // Two lines on each of four intakes: 1001 (total grams), 1002 (segmentation), 1003 and 1004 (manual).
    const lines = [
      { image_id: 1001, quantity: 210 },
      { image_id: 1002, quantity: { "1": 151 } },
      { image_id: 1003, quantity: { manual1: 41 } },
      { image_id: 1004, quantity: { manual1: 61 } },
      { image_id: 1001, quantity: 220 },
      { image_id: 1002, quantity: { "1": 152 } },
      { image_id: 1003, quantity: { manual1: 42 } },
      { image_id: 1004, quantity: { manual1: 62 } },
    ];
    const before = await Promise.all([1001, 1002, 1003, 1004].map((id) => sandbox.show(id)));
    const input = sandbox.file("lanes.jsonl", lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const applied = await sandbox.cli(["intake", "apply", input]);
    expect(applied.code, applied.stderr).toBe(0);
    const results = sandbox.file("lanes-results.jsonl", applied.stdout);

    const started = performance.now();
    const undone = await sandbox.cli(["undo", "--batch", results, "--yes", "--json", "--concurrency", "4"]);
    const elapsed = performance.now() - started;
    expect(undone.code, undone.stderr).toBe(0);
    expect(JSON.parse(undone.stdout).summary).toMatchObject({ entries: 8, undone: 8, refused: 0, failed: 0, overwritten: 0 });
    // One at a time, eight undos of three answers each (read, update, read back) wait 24 latencies; four lanes wait about six.
    expect(elapsed).toBeLessThan(16 * LATENCY_MS);

    const entries = await journalEntries(sandbox);
    const applies = new Map(entries.filter((entry) => entry.batch_id).map((entry) => [entry.id, entry]));
    // Newest first in the journal: per intake, the undo of the later line came first, so it is listed last.
    for (const imageId of [1001, 1002, 1003, 1004]) {
      const undos = entries.filter((entry) => entry.command === "undo" && entry.image_id === imageId).reverse();
      expect(undos.map((entry) => applies.get(entry.undo_of)!.request.body.quantity)).toEqual(
        lines
          .filter((line) => line.image_id === imageId)
          .map((line) => line.quantity)
          .reverse(),
      );
    }
    expect(await Promise.all([1001, 1002, 1003, 1004].map((id) => sandbox.show(id)))).toEqual(before);
  }, 30_000);

  it("refuses a --concurrency out of 1 to 64, and --concurrency without --batch, before anything is read (exit 2)", async () => {
    for (const value of ["0", "65", "two"]) {
      const result = await sandbox.cli(["undo", "--batch", "nothing.jsonl", "--yes", "--concurrency", value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: --concurrency must be a whole number from 1 to 64, got "${value}"`);
    }
    const alone = await sandbox.cli(["undo", "--last", "--yes", "--concurrency", "2"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("error: --concurrency goes with --batch");
  });
});
