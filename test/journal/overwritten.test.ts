/**
 * Undo of an entry another writer overwrote (docs/journal.md, concurrent writers): refused, naming
 * the value now; with --force, only the fields the entry set are put back. The entry is made
 * overwritten by hand here; test/e2e/change/concurrentWriters.test.ts makes one with two processes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

const POST = "POST /v2/nutrition/confirm/quantity";
const posts = () => sandbox.handle.stats().requests[POST] ?? 0;
const grams = async (position: string) =>
  ((await sandbox.show(1002)).intake_info.recipe_per_item as Array<{ food_item_position: number | string; serving_size: number }>).find(
    (item) => String(item.food_item_position) === position,
  )!.serving_size;

/** The entry's complete record as another writer would have left it: its value in position 1, found. */
function markOverwritten(id: string): void {
  const lines = readFileSync(sandbox.journalPath, "utf8").trimEnd().split("\n");
  const rewritten = lines.map((line) => {
    const record = JSON.parse(line);
    if (record.record !== "complete" || record.id !== id) return line;
    const found = structuredClone(record.after);
    found.items.find((item: { position: string }) => item.position === "1").grams = 170;
    return JSON.stringify({ ...record, after: null, found, overwritten: [{ position: "1", field: "grams", sent: "140", now: "170" }] });
  });
  writeFileSync(sandbox.journalPath, `${rewritten.join("\n")}\n`);
}

describe("undo of an overwritten entry", () => {
  it("refuses (exit 7, nothing sent) naming the value now; --force puts back only the fields the entry set", async () => {
    const before1 = await grams("1");
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=140"])).code).toBe(0);
    const [entry] = await journalEntries(sandbox);
    markOverwritten(entry.id);
    // The other writer: position 1 to 170, and position 2, which the entry did not set.
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=170", "2=95", "--no-journal"])).code).toBe(0);

    const show = await sandbox.cli(["journal", "show", entry.id]);
    expect(show.stdout).toContain("conflict:   1 grams: sent 140, another writer's 170 found");
    expect(show.stdout).toContain("before → found (another writer's values, not this change's result):");
    const list = await sandbox.cli(["journal"]);
    expect(list.stdout).toContain("\toverwritten: 1 g 140, now 170\t");

    const sent = posts();
    const refused = await sandbox.cli(["undo", entry.id, "--yes"]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(
      `error: entry ${entry.id} was overwritten by another writer: intake 1002 1 grams is 170 now (the entry sent 140; another writer's 170 was found)`,
    );
    expect(posts()).toBe(sent);

    const forced = await sandbox.cli(["undo", entry.id, "--yes", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("(--force: undoing anyway)");
    expect([await grams("1"), await grams("2")]).toEqual([before1, 95]);
    const [undo] = await journalEntries(sandbox);
    expect(undo.request.body).toEqual({ imageId: 1002, quantity: { "1": before1 } });
  });
});
