import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JournalRecorder, newEntryId } from "../../src/journal/recorder.js";
import { JournalStore } from "../../src/journal/store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "foodctl-recorder-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const OPAQUE = "0123456789abcdef0123456789abcdef01234567";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMDEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";

describe("journal recorder", () => {
  it.each([
    ["an opaque token", OPAQUE],
    ["a JWT", JWT],
  ])("masks %s wherever it appears in what is written (body, error text), and its signature", async (_name, token) => {
    const store = new JournalStore(dir);
    const recorder = new JournalRecorder({
      store,
      days: 90,
      profile: "default",
      apiUrl: "https://api.example.com",
      userId: 101,
      command: "intake set-quantity",
      secrets: [token],
    });
    const url = "https://api.example.com/v2/nutrition/confirm/quantity?user_id=202";
    const id = await recorder.begin({
      imageId: 1002,
      request: { method: "POST", url, headers: {}, body: { imageId: 1002, comment: `Bearer ${token}`, echo: token } },
      before: null,
    });
    await recorder.complete(id, { outcome: "failed", after: null, error: new Error(`server said: your token ${token} is bad`) });
    const text = readFileSync(store.path, "utf8");
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split(".").at(-1)!);
    const [entry] = (await store.query()).entries;
    expect(entry).toMatchObject({ id, outcome: "failed", user_id: 202, image_id: 1002 });
    expect(entry!.error).toBe("server said: your token **** is bad");
  });

  it("a begin record without its complete record folds to outcome unknown; stray lines are skipped", async () => {
    const begin = {
      record: "begin",
      id: "a",
      time: "2026-11-23T00:00:00Z",
      profile: "default",
      api_url: "https://api.example.com",
      user_id: null,
      image_id: 1002,
      command: "intake set-quantity",
      request: { method: "POST", url: "x", body: {} },
      before: null,
    };
    const store = new JournalStore(dir);
    writeFileSync(store.path, ['{"record":"begin"', JSON.stringify(begin), "not json", ""].join("\n"));
    expect(await store.query()).toMatchObject({ entries: [{ id: "a", outcome: "unknown", after: null }], unreadable: 2 });
  });

  it("ids are short, unique and sort by time", () => {
    const ids = [newEntryId(1_700_000_000_000), newEntryId(1_700_000_000_000), newEntryId(1_700_000_000_001)];
    expect(ids.every((id) => /^[0-9a-z]{12}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
  });

  it("ids stay unique and sorted past 36 in one millisecond, and end with the process's digits", () => {
    const ids = Array.from({ length: 100 }, () => newEntryId(1_800_000_000_000, 4242));
    expect(new Set(ids).size).toBe(100);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => id.endsWith((4242).toString(36).padStart(3, "0")))).toBe(true);
    // Two processes in the same millisecond: different digits.
    expect(newEntryId(1_900_000_000_000, 1).slice(-3)).not.toBe(newEntryId(1_900_000_000_000, 2).slice(-3));
    // A clock that steps back never gives an id that sorts before the last.
    const later = newEntryId(1_900_000_000_000, 1);
    expect(newEntryId(1_899_999_999_999, 1) > later).toBe(true);
  });
});
