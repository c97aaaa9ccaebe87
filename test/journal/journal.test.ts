import { existsSync, statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { png } from "../fixtures/images.js";
import { journalEntries, journalText, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

const item = (entryState: any, position: string | null) => entryState.items.find((row: any) => row.position === position);

describe("every change leaves one journal entry with its before and after", () => {
  it("set-quantity on an itemized intake: grams per position before and after, the request body, outcome applied", async () => {
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=150"])).code).toBe(0);
    const [entry, ...rest] = await journalEntries(sandbox);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      command: "intake set-quantity",
      image_id: 1002,
      user_id: 101,
      profile: "default",
      api_url: sandbox.handle.url,
      outcome: "applied",
    });
    expect(entry.request).toMatchObject({ method: "POST", body: { imageId: 1002, quantity: { "1": 150 } } });
    expect(item(entry.before, "1")).toEqual({ position: "1", grams: 180, salt: "medium", sugar: "none", oil: "low", measures: "metric" });
    expect(item(entry.after, "1").grams).toBe(150);
    expect(entry.id).toMatch(/^[0-9a-z]{12}$/);
  });

  it("set-quantity on a recognition-only intake and set-modifiers: one entry each, newest first", async () => {
    expect((await sandbox.cli(["intake", "set-quantity", "1001", "300"])).code).toBe(0);
    expect((await sandbox.cli(["intake", "set-modifiers", "1002", "2", "--salt", "high"])).code).toBe(0);
    const [modifiers, quantity] = await journalEntries(sandbox);
    expect(quantity.command).toBe("intake set-quantity");
    expect([item(quantity.before, null).grams, item(quantity.after, null).grams]).toEqual([320, 300]);
    expect(modifiers.command).toBe("intake set-modifiers");
    expect([item(modifiers.before, "2").salt, item(modifiers.after, "2").salt]).toEqual(["none", "high"]);
  });

  it("display-image attach and remove: whether an image was attached, its URL, and a copy of a replaced or removed image", async () => {
    const file = sandbox.file("photo.png", png(30, 20));
    expect((await sandbox.cli(["display-image", "attach", "1005", file])).code).toBe(0);
    expect((await sandbox.cli(["display-image", "remove", "1005", "--yes"])).code).toBe(0);
    const [remove, attach] = await journalEntries(sandbox);
    expect(attach.command).toBe("display-image attach");
    expect(attach.before.display_image.attached).toBe(true);
    expect(attach.after.display_image.attached).toBe(true);
    expect(attach.after.display_image.url).not.toBe(attach.before.display_image.url);
    expect(attach.image_copy).toMatchObject({ file: `images/${attach.id}` });
    expect(attach.request.body).toEqual({ image: { filename: "photo.png", size: png(30, 20).length, content_type: "image/png" } });
    expect(remove.command).toBe("display-image remove");
    expect([remove.before.display_image.attached, remove.after.display_image.attached]).toEqual([true, false]);
    expect(remove.image_copy.bytes).toBe(png(30, 20).length);
  });

  it("each line of intake apply, with its journal_id on the results line", async () => {
    const changes = sandbox.file("fixes.jsonl", '{"image_id":1002,"quantity":{"1":160}}\n{"image_id":1001,"salt":"high"}\n');
    const result = await sandbox.cli(["intake", "apply", changes]);
    expect(result.code).toBe(0);
    const results = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const entries = await journalEntries(sandbox);
    expect(entries.map((entry) => entry.command)).toEqual(["intake apply", "intake apply"]);
    expect(new Set(results.map((line) => line.journal_id))).toEqual(new Set(entries.map((entry) => entry.id)));
    const line1 = entries.find((entry) => entry.image_id === 1002);
    expect([item(line1.before, "1").grams, item(line1.after, "1").grams]).toEqual([180, 160]);
  });

  it("the folder is 0700 and the file 0600", async () => {
    await sandbox.cli(["intake", "set-quantity", "1002", "1=150"]);
    expect(statSync(`${sandbox.home}/foodctl`).mode & 0o777).toBe(0o700);
    expect(statSync(sandbox.journalPath).mode & 0o777).toBe(0o600);
  });

  it("a refused change (exit 7, nothing sent) and a dry run leave no entry", async () => {
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "9=150"])).code).toBe(7);
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=150", "--dry-run"])).code).toBe(0);
    expect(await journalEntries(sandbox)).toEqual([]);
  });

  it("a change the server refuses is journaled as failed", async () => {
    // bob (Analyse) on alice's intake: 404 after the pre-check read would also fail; a 400 from the server itself:
    const result = await sandbox.cli(["intake", "set-modifiers", "1002", "1", "--measures", "furlongs"]);
    expect(result.code).toBe(7);
    const [entry] = await journalEntries(sandbox);
    expect(entry).toMatchObject({ outcome: "failed", after: null });
    expect(entry.error).toMatch(/answered 400/);
  });
});

describe("the token never reaches the journal", () => {
  it("neither the JWT nor its signature appears in the file, after every kind of change", async () => {
    const token = sandbox.handle.tokenFor("alice");
    const signature = token.split(".")[2]!;
    await sandbox.cli(["intake", "set-quantity", "1002", "1=150"]);
    await sandbox.cli(["intake", "set-modifiers", "1002", "1", "--salt", "high"]);
    await sandbox.cli(["display-image", "remove", "1005", "--yes"]);
    await sandbox.cli(["undo", "--last", "--yes"]);
    const text = journalText(sandbox);
    expect(text.split("\n").filter(Boolean)).toHaveLength(8);
    expect(text).not.toContain(token);
    expect(text).not.toContain(signature);
    expect(text).not.toMatch(/Bearer (?!\*\*\*\*)/);
  });
});

describe("turning the journal off, and retention", () => {
  it("--no-journal writes nothing; `config set journal off` too; `journal on` again records", async () => {
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=150", "--no-journal"])).code).toBe(0);
    expect((await sandbox.cli(["config", "set", "journal", "off"])).code).toBe(0);
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=140"])).code).toBe(0);
    expect(await journalEntries(sandbox)).toEqual([]);
    expect((await sandbox.cli(["config", "set", "journal", "on"])).code).toBe(0);
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=130"])).code).toBe(0);
    expect(await journalEntries(sandbox)).toHaveLength(1);
  });

  it("entries older than journal-days are dropped on the next write, with their image copies; newer ones stay", async () => {
    const day = 86_400_000;
    const begin = (id: string, ageDays: number) =>
      JSON.stringify({
        image_copy: { file: `images/${id}`, bytes: 1, sha256: "" },
        record: "begin",
        id,
        time: new Date(Date.now() - ageDays * day).toISOString(),
        profile: "default",
        api_url: sandbox.handle.url,
        user_id: 101,
        image_id: 1002,
        command: "intake set-quantity",
        request: { method: "POST", url: `${sandbox.handle.url}/v2/nutrition/confirm/quantity`, body: {} },
        before: null,
      });
    const complete = (id: string) =>
      JSON.stringify({ record: "complete", id, time: new Date().toISOString(), outcome: "applied", after: null });
    await sandbox.cli(["intake", "set-quantity", "1002", "1=150"]); // creates the folder
    const kept = journalText(sandbox);
    sandbox.file("foodctl/images/old0000000001", "x");
    sandbox.file("foodctl/images/mid0000000001", "x");
    sandbox.file(
      "foodctl/journal.jsonl",
      [begin("old0000000001", 100), complete("old0000000001"), begin("mid0000000001", 10)].join("\n") + "\n" + kept,
    );
    await sandbox.cli(["intake", "set-quantity", "1002", "1=140"]);
    const ids = (await journalEntries(sandbox)).map((entry) => entry.id);
    expect(ids).not.toContain("old0000000001");
    expect(ids).toContain("mid0000000001");
    expect(ids).toHaveLength(3);
    expect(existsSync(`${sandbox.home}/foodctl/images/old0000000001`)).toBe(false);
    expect(existsSync(`${sandbox.home}/foodctl/images/mid0000000001`)).toBe(true);
    expect((await sandbox.cli(["config", "set", "journal-days", "5"])).code).toBe(0);
    await sandbox.cli(["intake", "set-quantity", "1002", "1=130"]);
    expect((await journalEntries(sandbox)).map((entry) => entry.id)).not.toContain("mid0000000001");
    expect(await journalEntries(sandbox)).toHaveLength(3);
  });
});

describe("foodctl journal", () => {
  it("filters by intake, user, since and limit; show prints one entry's before → after", async () => {
    await sandbox.cli(["intake", "set-quantity", "1002", "1=150"]);
    await sandbox.cli(["intake", "set-quantity", "1001", "300"]);
    await sandbox.cli(["intake", "set-quantity", "1002", "1=140"]);
    const list = await sandbox.cli(["journal", "--intake", "1002", "--limit", "1"]);
    expect(list.stdout.trim().split("\n")).toHaveLength(1);
    // Piped, the profile and the reason always end the row.
    expect(list.stdout).toMatch(/\t1002\t101\tset-quantity\t1 g 150→140\tapplied\tdefault\t-$/m);
    expect((await sandbox.cli(["journal", "--user", "102"])).stdout).toBe("");
    expect((await sandbox.cli(["journal", "--since", "2000-01-01", "--json"])).stdout).toContain('"image_id": 1001');
    expect(JSON.parse((await sandbox.cli(["journal", "--since", "2999-01-01", "--json"])).stdout)).toEqual([]);
    const [newest] = await journalEntries(sandbox);
    const show = await sandbox.cli(["journal", "show", newest.id.slice(0, 10)]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`id:         ${newest.id}`);
    expect(show.stdout).toMatch(/^change\t1\tgrams\t150\t140$/m);
    expect((await sandbox.cli(["journal", "--limit", "x"])).code).toBe(2);
    const badSince = await sandbox.cli(["journal", "--since", "03/11/2026"]);
    expect(badSince).toMatchObject({ code: 2, stdout: "" });
    expect(badSince.stderr).toContain('error: --since: "03/11/2026" could be 2026-11-03 or 2026-03-11?');
    expect(badSince.stderr).toContain("hint: write the one you mean as YYYY-MM-DD");
    expect((await sandbox.cli(["journal", "show", "zzzz"])).code).toBe(6);
  });
});
