/** The journal and results files under a full disk, torn lines, wrong shapes and large files (issue 28: M1, M5, L3, L4, L6). */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sendChange } from "../../src/change/pipeline.js";
import type { ApiClient } from "../../src/api/client.js";
import { JournalRecorder } from "../../src/journal/recorder.js";
import { JournalStore } from "../../src/journal/store.js";
import { runTempDir } from "../helpers/tempDir.js";
import { journalText, startJournalSandbox, type JournalSandbox } from "./helpers.js";

const begin = (id: string, extra: Record<string, unknown> = {}) => ({
  record: "begin",
  id,
  time: new Date().toISOString(),
  profile: "default",
  api_url: "https://api.example.com",
  user_id: 101,
  image_id: 1002,
  command: "intake set-quantity",
  request: { method: "POST", url: "https://api.example.com/v2/nutrition/confirm/quantity", body: { quantity: 150 } },
  before: null,
  ...extra,
});
const complete = (id: string) => ({ record: "complete", id, time: new Date().toISOString(), outcome: "applied", after: null });
const line = (record: unknown) => `${JSON.stringify(record)}\n`;

const ENOSPC = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

function journalIn(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "journal.jsonl"), text);
  return join(dir, "journal.jsonl");
}

const recorderFor = (store: JournalStore, warn?: (message: string) => void) =>
  new JournalRecorder({
    store,
    days: 90,
    profile: "default",
    apiUrl: "https://api.example.com",
    userId: 101,
    command: "intake set-quantity",
    secrets: [],
    warn,
  });

const request = { method: "POST", url: "https://api.example.com/v2/nutrition/confirm/quantity", headers: {}, body: { quantity: 150 } };

describe("M1: journal writes on a full disk", () => {
  it("writes every byte of a record when the disk takes a few bytes at a time", async () => {
    const dir = runTempDir("journal-short-");
    const short: typeof writeSync = ((fd: number, buffer: Buffer, offset: number, length: number) =>
      writeSync(fd, buffer, offset, Math.min(length, 7))) as typeof writeSync;
    const store = new JournalStore(dir, { writeSync: short });
    const id = await recorderFor(store).begin({ imageId: 1002, request, before: null });
    expect(await store.query()).toMatchObject({ entries: [{ id, image_id: 1002, outcome: "unknown" }], unreadable: 0 });
  });

  it("a begin record the disk cannot take whole refuses the change (exit 1, naming ENOSPC, nothing sent), and leaves no half record", async () => {
    const dir = runTempDir("journal-full-");
    const path = journalIn(dir, line(begin("a00000000001")) + line(complete("a00000000001")));
    const before = readFileSync(path, "utf8");
    let calls = 0;
    const halfThenFull: typeof writeSync = ((fd: number, buffer: Buffer, offset: number, length: number) => {
      if (calls++ === 0) return writeSync(fd, buffer, offset, Math.floor(length / 2));
      throw ENOSPC();
    }) as typeof writeSync;
    const store = new JournalStore(dir, { writeSync: halfThenFull });
    let sent = 0;
    const change = sendChange({} as ApiClient, {
      imageId: 1002,
      before: null,
      request,
      fields: { quantity: 150 },
      options: { dryRun: false, verify: false, precheck: false, journal: recorderFor(store, () => {}) },
      send: async () => {
        sent++;
        return { data: {}, raw: "{}", status: 200 } as never;
      },
    });
    await expect(change).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(new RegExp(`^cannot write the journal in ${dir}: ENOSPC`)),
      hint: expect.stringMatching(/^nothing was sent; the disk is full \(ENOSPC\)/),
    });
    expect(sent).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  it("after the change was sent, a complete record the disk cannot take is a warning naming the change as applied; the command goes on", async () => {
    const dir = runTempDir("journal-full-after-");
    let full = false;
    const fullLater: typeof writeSync = ((fd: number, buffer: Buffer, offset: number, length: number) => {
      if (full) throw ENOSPC();
      return writeSync(fd, buffer, offset, length);
    }) as typeof writeSync;
    const warnings: string[] = [];
    const store = new JournalStore(dir, { writeSync: fullLater });
    const outcome = await sendChange({} as ApiClient, {
      imageId: 1002,
      before: null,
      request,
      fields: { quantity: 150 },
      options: { dryRun: false, verify: false, precheck: false, journal: recorderFor(store, (message) => warnings.push(message)) },
      send: async () => {
        full = true;
        return { data: { ok: true }, raw: "{}", status: 200 } as never;
      },
    });
    expect(outcome).toMatchObject({ imageId: 1002, response: { ok: true } });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the change to intake 1002 was applied, but the journal could not record it \\(cannot write the journal in ${dir}: ENOSPC.*\\): journal entry ${outcome.journalId} stays outcome unknown$`,
        ),
      ),
    ]);
    expect((await store.query()).entries).toMatchObject([{ id: outcome.journalId, outcome: "unknown" }]);
  });

  it("keeps the record glued onto a torn fragment, counting the fragment as unreadable", async () => {
    const dir = runTempDir("journal-torn-");
    const torn = line(begin("b00000000001")).slice(0, 60);
    journalIn(dir, line(begin("a00000000001")) + torn + line(begin("c00000000001")) + line(complete("c00000000001")));
    const read = await new JournalStore(dir).query();
    expect(read.entries.map((entry) => [entry.id, entry.outcome])).toEqual([
      ["a00000000001", "unknown"],
      ["c00000000001", "applied"],
    ]);
    expect(read.unreadable).toBe(1);
  });

  it("an append after a torn tail (a crash mid-write) starts on a line of its own", async () => {
    const dir = runTempDir("journal-tail-");
    const path = journalIn(dir, line(begin("a00000000001")) + line(begin("b00000000001")).slice(0, 40));
    const store = new JournalStore(dir);
    const id = await recorderFor(store).begin({ imageId: 1003, request, before: null });
    expect(readFileSync(path, "utf8").split("\n").at(-2)).toMatch(/^\{"record":"begin"/);
    expect(await store.query()).toMatchObject({ entries: [{ id: "a00000000001" }, { id, image_id: 1003 }], unreadable: 1 });
  });
});

describe("M5: the journal is read line by line", () => {
  it("reads a journal many chunks long and skips a record over the line limit, counting it, without losing the records after it", async () => {
    const dir = runTempDir("journal-large-");
    const records = Array.from({ length: 3000 }, (_, index) => line(begin(`a${String(index).padStart(11, "0")}`)));
    const huge = line(begin("b00000000000", { notes: ["x".repeat(8192)] }));
    journalIn(dir, records.slice(0, 1500).join("") + huge + records.slice(1500).join(""));
    const store = new JournalStore(dir, { chunkBytes: 512, maxLineBytes: 4096 });
    const all = await store.query();
    expect(all.entries).toHaveLength(3000);
    expect(all.unreadable).toBe(1);
    expect(all.entries.map((entry) => entry.id)).not.toContain("b00000000000");
    expect((await store.select({ limit: 3 })).entries.map((entry) => entry.id)).toEqual(["a00000002999", "a00000002998", "a00000002997"]);
    expect((await store.query({ newest: 1 })).entries.map((entry) => entry.id)).toEqual(["a00000002999"]);
  });

  it("retention rewrites by streaming: the old entries go, the rest stay byte for byte, an unreadable line goes", async () => {
    const dir = runTempDir("journal-retention-");
    const old = begin("a00000000000", { time: new Date(Date.now() - 100 * 86_400_000).toISOString() });
    const kept = Array.from({ length: 500 }, (_, index) => line(begin(`b${String(index).padStart(11, "0")}`))).join("");
    const path = journalIn(dir, line(old) + line(complete("a00000000000")) + "not a record\n" + kept);
    const store = new JournalStore(dir, { chunkBytes: 256, maxLineBytes: 4096 });
    const added = begin("c00000000000");
    await store.append(added as never, 90, Date.now());
    expect(readFileSync(path, "utf8")).toBe(kept + line(added));
  });
});

describe("L3 and L4: records of the wrong shape", () => {
  it("an image copy outside images/<id> makes a bad record: never an entry, and retention deletes nothing outside", async () => {
    const dir = runTempDir("journal-climb-");
    const outside = join(dir, "precious.txt");
    writeFileSync(outside, "keep me");
    const oldTime = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const climbing = begin("a00000000001", { time: oldTime, image_copy: { file: "images/../precious.txt", bytes: 7, sha256: "" } });
    const fine = begin("a00000000002", { time: oldTime, image_copy: { file: "images/a00000000002", bytes: 1, sha256: "" } });
    journalIn(dir, line(climbing) + line(fine));
    mkdirSync(join(dir, "images"), { recursive: true });
    writeFileSync(join(dir, "images", "a00000000002"), "x");
    const store = new JournalStore(dir);
    expect(await store.query()).toEqual({ entries: [expect.objectContaining({ id: "a00000000002" })], unreadable: 1 });
    await store.append(begin("c00000000000") as never, 90, Date.now());
    expect(readFileSync(outside, "utf8")).toBe("keep me");
    expect(existsSync(join(dir, "images", "a00000000002"))).toBe(false);
  });
});

describe("the commands", () => {
  let sandbox: JournalSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('journal skips a record of the wrong shape ("request": null), says how many it skipped, and exits 0', async () => {
    sandbox = await startJournalSandbox();
    await sandbox.cli(["intake", "set-quantity", "1002", "1=150"]);
    sandbox.file("foodctl/journal.jsonl", line(begin("a00000000001", { request: null })) + journalText(sandbox));
    for (const args of [["journal"], ["journal", "--json"]]) {
      const result = await sandbox.cli(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe("warning: 1 unreadable line of the journal skipped\n");
      expect(result.stdout).toContain("1002");
    }
  });

  it("intake apply --skip-applied refuses a FIFO and a device before sending anything (exit 2, one error line)", async () => {
    sandbox = await startJournalSandbox();
    const fifo = join(sandbox.home, "results.fifo");
    execFileSync("mkfifo", [fifo]);
    const changes = sandbox.file("changes.jsonl", '{"image_id":1002,"quantity":{"1":150}}\n');
    for (const [file, kind] of [
      [fifo, "a FIFO"],
      ["/dev/zero", "a device"],
    ] as const) {
      const result = await sandbox.cli(["intake", "apply", changes, "--skip-applied", file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.split("\n").filter((text) => text.startsWith("error: "))).toEqual([
        `error: ${file} is ${kind}, not a results file: nothing was sent`,
      ]);
    }
    const undo = await sandbox.cli(["undo", "--batch", fifo, "--yes"]);
    expect(undo.code, undo.stderr).toBe(2);
    expect(undo.stderr).toContain(`error: ${fifo} is a FIFO, not a results file: nothing was sent`);
    expect(existsSync(sandbox.journalPath)).toBe(false);
  });

  it("intake apply --results /dev/full: a warning names the change as applied, the summary is printed, exit 9", async () => {
    sandbox = await startJournalSandbox();
    const changes = sandbox.file("changes.jsonl", '{"image_id":1002,"quantity":{"1":150}}\n');
    const result = await sandbox.cli(["intake", "apply", changes, "--results", "/dev/full"]);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(
      /warning: line 1 \(intake 1002, applied\): its result could not be written to \/dev\/full \(ENOSPC[^\n]*\); it and the rest go to stdout only/,
    );
    expect(result.stderr).toMatch(/applied 1 · failed 0/);
    expect(result.stderr).toMatch(/error: 1 result could not be written to the --results file \(ENOSPC/);
    expect(JSON.parse(result.stdout)).toMatchObject({ line: 1, image_id: 1002, status: "applied" });
  });
});

describe("H1: the journal is never written through a link or into a folder another user may rename entries in", () => {
  it("a folder swapped for a link between the check and the write: the write still lands in the folder that was checked", async () => {
    const base = runTempDir("journal-swap-");
    const dir = join(base, "foodctl");
    const store = new JournalStore(dir);
    // The check: the store opens its folder with the first record.
    await store.append(begin("a00000000001") as never, null, Date.now());
    // The swap: the folder moves away and a link to another folder takes its name, where the journal is a link to the victim's file.
    const victim = join(base, "victim.txt");
    writeFileSync(victim, "the victim's file\n");
    const elsewhere = join(base, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(victim, join(elsewhere, "journal.jsonl"));
    renameSync(dir, join(base, "checked"));
    symlinkSync(elsewhere, dir);
    await store.append(complete("a00000000001") as never, null, Date.now());
    expect(readFileSync(victim, "utf8")).toBe("the victim's file\n");
    const kept = readFileSync(join(base, "checked", "journal.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(kept.map((text) => JSON.parse(text).record)).toEqual(["begin", "complete"]);
  });

  it.each([
    ["anyone", 0o777],
    ["its group", 0o770],
  ])("a state folder %s may change without the sticky bit is refused with a hint, and nothing is sent", async (_who, mode) => {
    const sandbox = await startJournalSandbox();
    try {
      const shared = join(sandbox.home, "shared");
      mkdirSync(shared);
      chmodSync(shared, mode);
      const before = await sandbox.show(1002);
      const env = { XDG_STATE_HOME: shared };
      const result = await sandbox.cli(["intake", "set-quantity", "1002", "1=151"], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: cannot use the journal in ${join(shared, "foodctl")}: ${shared} may be changed by ${_who} (mode ${mode.toString(8)}, no sticky bit), who may rename what is in it\n` +
          "hint: nothing was sent; point XDG_STATE_HOME at a folder only you can change, or pass --no-journal\n",
      );
      expect(await sandbox.show(1002)).toEqual(before);
      expect(existsSync(join(shared, "foodctl"))).toBe(false);
      // With the sticky bit (as /tmp has), no one else may rename what is not theirs: used.
      chmodSync(shared, mode | 0o1000);
      expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=151"], { env })).code).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
