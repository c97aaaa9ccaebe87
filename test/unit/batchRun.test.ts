/** The batch's side of the journal contract, driven at its boundary (the changes and the transport): one batch id in every entry, journal ids written back. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { ChangeList } from "../../src/batch/changeList.js";
import type { BatchResult as Result } from "../../src/batch/results.js";
import { runBatch } from "../../src/change/batch/run.js";
import { JournalRecorder } from "../../src/journal/recorder.js";
import { JournalStore } from "../../src/journal/store.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";

const BATCH_ID = "20261123-161504-4fd7c4";
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runBatch and the journal", () => {
  it("journals every change under the run's batch id and writes each result's journal_id", async () => {
    dir = mkdtempSync(join(tmpdir(), "foodctl-batch-"));
    const api = scriptedTransport().route("POST /v2/nutrition/confirm/quantity", faults.updated(1001), faults.updated(1002));
    const client = new ApiClient({
      baseUrl: new URL("http://127.0.0.1:9"),
      token: "0123456789abcdef0123456789abcdef01234567",
      timeoutMs: 2000,
      retries: 0,
      userAgent: "foodctl/0.1.0",
      transport: api.transport,
    });
    const store = new JournalStore(dir);
    const journal = new JournalRecorder({
      store,
      days: 90,
      profile: "default",
      apiUrl: "http://127.0.0.1:9",
      userId: 101,
      command: "intake apply",
      secrets: [],
    });
    const changes = new ChangeList();
    changes.push({ line: 1, imageId: 1001, userId: undefined, fields: { quantity: 300 } });
    changes.push({ line: 2, imageId: 1002, userId: undefined, fields: { quantity: { "1": 150 } } });
    const written: Result[] = [];
    const options = {
      batchId: BATCH_ID,
      concurrency: 2,
      continueOnError: false,
      strict: false,
      dryRun: false,
      verify: false,
      done: null,
      journal,
    };
    const tools = { clientFor: () => client, write: async (result: Result) => void written.push(result), progress: () => {} };
    const run = await runBatch(changes, options, tools, new AbortController().signal);
    expect(run.applied).toBe(2);
    expect(api.requests.map((request) => JSON.parse(request.body.toString()).imageId).sort()).toEqual([1001, 1002]);
    const entries = (await store.query()).entries;
    expect(
      entries
        .map((entry) => ({ image_id: entry.image_id, batch_id: entry.batch_id, outcome: entry.outcome }))
        .sort((a, b) => a.image_id - b.image_id),
    ).toEqual([
      { image_id: 1001, batch_id: BATCH_ID, outcome: "applied" },
      { image_id: 1002, batch_id: BATCH_ID, outcome: "applied" },
    ]);
    const idOf = (imageId: number) => entries.find((entry) => entry.image_id === imageId)!.id;
    expect(written.sort((a, b) => a.line - b.line)).toEqual([
      { line: 1, image_id: 1001, status: "applied", batch_id: BATCH_ID, journal_id: idOf(1001) },
      { line: 2, image_id: 1002, status: "applied", batch_id: BATCH_ID, journal_id: idOf(1002) },
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
