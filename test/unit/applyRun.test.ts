/** The batch's side of the journal contract: one batch id handed to every change, journal ids written back. */
import { describe, expect, it } from "vitest";
import { ChangeList } from "../../src/batch/changeList.js";
import type { BatchResult as Result } from "../../src/batch/results.js";
import { runBatch } from "../../src/commands/intake/applyRun.js";
import type { UpdateOutcome } from "../../src/change/pipeline.js";

const seen: Array<{ imageId: number; batchId: string | undefined }> = [];
/** The change pipeline as a stub: records the batch id it is given, returns a journal id for 1002. */
const update = async (
  _client: unknown,
  imageId: number,
  _fields: unknown,
  options: { batchId?: string | undefined },
): Promise<UpdateOutcome> => {
  seen.push({ imageId, batchId: options.batchId });
  return {
    imageId,
    before: null,
    after: null,
    afterRaw: null,
    diff: null,
    ignored: [],
    dryRun: null,
    response: null,
    overwritten: [],
    othersChanged: [],
    journalId: imageId === 1002 ? "j-1002" : undefined,
  };
};

describe("runBatch and the journal", () => {
  it("passes the run's batch id to every change and writes journal_id when the pipeline returns one", async () => {
    const changes = new ChangeList();
    changes.push({ line: 1, imageId: 1001, userId: undefined, fields: { quantity: 300 } });
    changes.push({ line: 2, imageId: 1002, userId: undefined, fields: { quantity: { "1": 150 } } });
    const written: Result[] = [];
    const options = {
      batchId: "20261123-161504-4fd7c4",
      concurrency: 2,
      continueOnError: false,
      strict: false,
      dryRun: false,
      verify: false,
      done: null,
    };
    const tools = {
      clientFor: () => ({}) as never,
      write: async (result: Result) => void written.push(result),
      progress: () => {},
      update: update as never,
    };
    const run = await runBatch(changes, options, tools, new AbortController().signal);
    expect(run.applied).toBe(2);
    expect(seen).toEqual([
      { imageId: 1001, batchId: "20261123-161504-4fd7c4" },
      { imageId: 1002, batchId: "20261123-161504-4fd7c4" },
    ]);
    expect(written.sort((a, b) => a.line - b.line)).toEqual([
      { line: 1, image_id: 1001, status: "applied", batch_id: "20261123-161504-4fd7c4" },
      { line: 2, image_id: 1002, status: "applied", batch_id: "20261123-161504-4fd7c4", journal_id: "j-1002" },
    ]);
  });
});

describe("newBatchId", () => {
  it("is time-sortable: later runs sort after earlier ones", async () => {
    const { newBatchId } = await import("../../src/batch/results.js");
    const times = ["2026-11-23T16:15:04Z", "2026-11-23T16:15:05Z", "2026-12-01T00:00:00Z", "2027-01-01T09:30:00Z"].map(
      (text) => new Date(text),
    );
    const ids = times.map((time) => newBatchId(time));
    expect(ids[0]).toMatch(/^20261123-161504-[0-9a-f]{6}$/);
    expect([...ids].sort()).toEqual(ids);
  });
});
