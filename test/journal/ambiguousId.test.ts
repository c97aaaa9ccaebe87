/** An id start that matches many journal entries: a short list, and a hint that works when followed. */
import { afterEach, beforeEach, expect, it } from "vitest";
import { journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

it("an ambiguous id names at most five candidates and how many more; typing one of them in full works", async () => {
  const lines = Array.from({ length: 12 }, (_, index) => JSON.stringify({ image_id: 1001, quantity: 201 + index }));
  const applied = await sandbox.cli(["intake", "apply", sandbox.file("changes.jsonl", `${lines.join("\n")}\n`)]);
  expect(applied.code, applied.stderr).toBe(0);
  const ids = (await journalEntries(sandbox)).map((entry: { id: string }) => entry.id);
  expect(ids).toHaveLength(12);
  // The longest start all twelve share.
  let start = ids[0]!;
  while (!ids.every((id: string) => id.startsWith(start))) start = start.slice(0, -1);

  for (const args of [
    ["journal", "show", start],
    ["undo", start, "--yes"],
  ]) {
    const refused = await sandbox.cli(args);
    expect(refused.code).toBe(2);
    const [error, hint, ...rest] = refused.stderr.trim().split("\n");
    expect(rest).toEqual([]);
    expect(error).toMatch(
      new RegExp(`^error: journal id ${start} is ambiguous: 12 entries start with it \\((\\w{12}, ){4}\\w{12} and 7 more\\)$`),
    );
    expect(hint).toBe("hint: type more of the id (`foodctl journal` lists them)");
  }

  const named = /\((\w{12}),/.exec((await sandbox.cli(["journal", "show", start])).stderr)![1]!;
  const shown = await sandbox.cli(["journal", "show", named]);
  expect(shown.code, shown.stderr).toBe(0);
});
