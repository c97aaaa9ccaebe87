import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { png } from "../fixtures/images.js";
import { imageBytes, journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

async function expectOk(args: string[], stderr = "") {
  const result = await sandbox.cli(args);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr });
  return result;
}

/** The intake without its image URL (a re-attached copy gets a new name from the server). */
const withoutImageUrl = ({ intake_info: { image_url: _url, ...rest } }: { intake_info: Record<string, unknown> }) => rest;

describe("undo puts the intake back exactly", () => {
  it.each([
    ["quantities of an itemized intake", 1002, ["intake", "set-quantity", "1002", "1=150", "3=120"]],
    ["the total of a recognition-only intake", 1001, ["intake", "set-quantity", "1001", "250"]],
    [
      "levels and measures",
      1002,
      ["intake", "set-modifiers", "1002", "1", "2", "--salt", "high", "--oil", "medium", "--measures", "imperial"],
    ],
    ["recognition-only levels", 1001, ["intake", "set-modifiers", "1001", "--salt", "none", "--sugar", "high"]],
  ])("%s", async (_name, imageId, change) => {
    const before = await sandbox.show(imageId);
    await expectOk(change);
    expect(await sandbox.show(imageId)).not.toEqual(before);
    await expectOk(["undo", "--last", "--yes"]);
    expect(await sandbox.show(imageId)).toEqual(before);
    const [undo, original] = await journalEntries(sandbox);
    expect(undo).toMatchObject({ command: "undo", undo_of: original.id, outcome: "applied" });
  });

  it("display-image remove: the same image bytes come back", async () => {
    const before = await sandbox.show(1005);
    const bytes = await imageBytes(before.intake_info.image_url!);
    await expectOk(["display-image", "remove", "1005", "--yes"]);
    expect((await sandbox.show(1005)).intake_info.has_display_image).toBe(false);
    await expectOk(["undo", "--last", "--yes"]);
    const after = await sandbox.show(1005);
    expect(withoutImageUrl(after)).toEqual(withoutImageUrl(before));
    expect(await imageBytes(after.intake_info.image_url!)).toEqual(bytes);
  });

  it("display-image attach replacing an image: the old bytes come back; attach on an intake without one: removed again", async () => {
    const replaced = await sandbox.show(1005);
    const bytes = await imageBytes(replaced.intake_info.image_url!);
    await expectOk(["display-image", "attach", "1005", sandbox.file("new.png", png(12, 12))]);
    await expectOk(["undo", "--last", "--yes"]);
    const restored = await sandbox.show(1005);
    expect(await imageBytes(restored.intake_info.image_url!)).toEqual(bytes);
    expect(withoutImageUrl(restored)).toEqual(withoutImageUrl(replaced));

    const bare = await sandbox.show(1003);
    await expectOk(["display-image", "attach", "1003", sandbox.file("first.png", png(10, 10))]);
    await expectOk(["undo", "--last", "--yes"]);
    expect(await sandbox.show(1003)).toEqual(bare);
  });

  it("a whole batch, from its results file, last line first", async () => {
    const before = [await sandbox.show(1001), await sandbox.show(1002)];
    const changes = sandbox.file(
      "fixes.jsonl",
      '{"image_id":1002,"quantity":{"1":160}}\n{"image_id":1001,"salt":"high"}\n{"image_id":1002,"quantity":{"1":140}}\n',
    );
    const applied = await sandbox.cli(["intake", "apply", changes, "--concurrency", "1"]);
    expect(applied.code).toBe(0);
    const results = sandbox.file("results.jsonl", applied.stdout);
    const undone = await sandbox.cli(["undo", "--batch", results, "--yes"]);
    expect(undone.code).toBe(0);
    expect(undone.stderr).toMatch(
      /^undid 3 · already undone 0 · refused 0 · failed 0 · 3 changes in [\d.]+ s\nbatch \d{8}-\d{6}-[0-9a-f]{6}\n$/,
    );
    expect([await sandbox.show(1001), await sandbox.show(1002)]).toEqual(before);
    const undos = (await journalEntries(sandbox)).filter((entry) => entry.command === "undo");
    expect(undos).toHaveLength(3);
  });

  it("a whole batch, from its batch id", async () => {
    const before = [await sandbox.show(1001), await sandbox.show(1002)];
    const changes = sandbox.file("fixes.jsonl", '{"image_id":1002,"quantity":{"1":160}}\n{"image_id":1001,"salt":"high"}\n');
    const applied = await sandbox.cli(["intake", "apply", changes]);
    expect(applied.code).toBe(0);
    const batchId = JSON.parse(applied.stdout.split("\n")[0]!).batch_id as string;
    expect((await journalEntries(sandbox)).map((entry) => entry.batch_id)).toEqual([batchId, batchId]);
    expect((await sandbox.cli(["undo", "--batch", batchId, "--yes"])).code).toBe(0);
    expect([await sandbox.show(1001), await sandbox.show(1002)]).toEqual(before);
  });

  it("an undo can be undone", async () => {
    await expectOk(["intake", "set-quantity", "1002", "1=150"]);
    const changed = await sandbox.show(1002);
    await expectOk(["undo", "--last", "--yes"]);
    await expectOk(["undo", "--last", "--yes"]);
    expect(await sandbox.show(1002)).toEqual(changed);
  });
});

describe("undo acts for the user the change was made for", () => {
  it("a manager's change for bob is undone for bob, whatever --user the undo is given", async () => {
    const before = await sandbox.show(2001, "bob");
    expect((await sandbox.cli(["intake", "set-quantity", "2001", "250", "--user", "102"], { as: "dave" })).code).toBe(0);
    const [entry] = await journalEntries(sandbox);
    expect(entry.user_id).toBe(102);
    const undo = await sandbox.cli(["undo", entry.id, "--yes", "--user", "101"], { as: "dave" });
    expect(undo.code).toBe(0);
    expect(await sandbox.show(2001, "bob")).toEqual(before);
  });
});

describe("undo refuses what it cannot do safely", () => {
  it("the intake changed since the entry: exit 7 naming the difference, nothing sent; --force applies", async () => {
    await expectOk(["intake", "set-quantity", "1002", "1=150"]);
    const [entry] = await journalEntries(sandbox);
    await expectOk(["intake", "set-modifiers", "1002", "2", "--salt", "high"]);
    const posts = () => sandbox.handle.stats().requests["POST /v2/nutrition/confirm/quantity"] ?? 0;
    const sent = posts();
    const refused = await sandbox.cli(["undo", entry.id, "--yes"]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(`error: intake 1002 changed since entry ${entry.id} (as it left it → now): 2 salt none→high`);
    expect(posts()).toBe(sent);
    const forced = await sandbox.cli(["undo", entry.id, "--yes", "--force"]);
    expect(forced.code).toBe(0);
    const now = (await sandbox.show(1002)).intake_info as any;
    expect(now.recipe_per_item[0].serving_size).toBe(180);
    expect(now.recipe_per_item[1].salt).toBe("high");
  });

  it("an entry sent with --no-verify has no after state: undo needs --force", async () => {
    await expectOk(
      ["intake", "set-quantity", "1002", "1=150", "--no-verify"],
      "quantity change sent for intake 1002 (not verified: --no-verify)\n",
    );
    const refused = await sandbox.cli(["undo", "--last", "--yes"]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/has no after state .* undo cannot tell/);
    await expectOk(["undo", "--last", "--yes", "--force"]);
  });

  it("not on a terminal without --yes: exit 2, nothing sent; --dry-run prints the request and sends nothing", async () => {
    await expectOk(["intake", "set-quantity", "1002", "1=150"]);
    expect((await sandbox.cli(["undo", "--last"])).code).toBe(2);
    const dry = await expectOk(["undo", "--last", "--dry-run"], "dry run: nothing was sent\n");
    expect(dry.stdout).toContain('"1": 180');
    expect(((await sandbox.show(1002)).intake_info as any).recipe_per_item[0].serving_size).toBe(150);
    expect(await journalEntries(sandbox)).toHaveLength(1);
  });

  it("names exactly one target", async () => {
    expect((await sandbox.cli(["undo", "--yes"])).code).toBe(2);
    expect((await sandbox.cli(["undo", "abc", "--last", "--yes"])).code).toBe(2);
    expect((await sandbox.cli(["undo", "--last", "--yes"])).code).toBe(6);
  });
});
