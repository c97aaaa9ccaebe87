/** The journal at a terminal: the newest 20, one batch's entries, an entry whose after state is unknown. */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { READ_BACK_FAILED } from "../../src/journal/entry.js";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

/** foodctl in process as alice, its stdout a terminal 100 columns wide (or as given). */
async function onTerminal(args: string[], columns = 100) {
  const env = {
    FOODCTL_API_URL: sandbox.handle.url,
    FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
    XDG_CONFIG_HOME: sandbox.home,
    XDG_STATE_HOME: sandbox.home,
    NO_COLOR: "1",
  };
  const buffers = bufferIO({ env, tty: true, columns });
  const code = await run(args, { io: buffers.io, signal: new AbortController().signal });
  return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

async function applyLines(count: number, first: number): Promise<string> {
  const lines = Array.from({ length: count }, (_, index) => JSON.stringify({ image_id: 1001, quantity: first + index }));
  const applied = await sandbox.cli(["intake", "apply", sandbox.file(`changes-${first}.jsonl`, `${lines.join("\n")}\n`)]);
  expect(applied.code, applied.stderr).toBe(0);
  return sandbox.file(`results-${first}.jsonl`, applied.stdout);
}

const tableRows = (stdout: string) => stdout.split("\n").filter((line) => /^[0-9a-z]{12} /.test(line));

describe("foodctl journal", () => {
  it("on a terminal shows the newest 20 and says how many more; a pipe and --limit get what they ask for", async () => {
    await applyLines(25, 201);
    const shown = await onTerminal(["journal"]);
    expect(shown.code).toBe(0);
    expect(tableRows(shown.stdout)).toHaveLength(20);
    expect(shown.stdout).toContain("g 224→225");
    expect(shown.stdout).toContain("g 205→206");
    expect(shown.stdout).not.toContain("g 204→205");
    expect(shown.stderr).toBe("5 more: --limit 25\n");
    const all = await onTerminal(["journal", "--limit", "25"]);
    expect([tableRows(all.stdout).length, all.stderr]).toEqual([25, ""]);
    const piped = await sandbox.cli(["journal"]);
    expect([piped.stdout.trim().split("\n").length, piped.stderr]).toEqual([25, ""]);
  });

  it("--batch lists the entries of one intake apply run, from its results file or its batch id", async () => {
    await applyLines(2, 201);
    const results = await applyLines(3, 301);
    const batchId = JSON.parse(readFileSync(results, "utf8").split("\n")[0]!).batch_id;
    for (const batch of [results, batchId]) {
      const listed = await sandbox.cli(["journal", "--batch", batch]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.trim().split("\n")).toHaveLength(3);
      expect(listed.stdout).not.toMatch(/→20[12]\t/);
    }
    const missing = await sandbox.cli(["journal", "--batch", "nothing-here"]);
    expect(missing.code).toBe(6);
  });
});

describe("an entry whose read-back was cut short", () => {
  /** A set-quantity whose read after failed: the journal entry as the pipeline then completes it. */
  async function readBackLost(): Promise<string> {
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=150"])).code).toBe(0);
    const lines = readFileSync(sandbox.journalPath, "utf8").trim().split("\n");
    const complete = JSON.parse(lines[1]!);
    lines[1] = JSON.stringify({ ...complete, after: null, notes: [READ_BACK_FAILED], error: "interrupted after intake 1002 was changed" });
    writeFileSync(sandbox.journalPath, `${lines.join("\n")}\n`);
    return complete.id;
  }

  it("journal show still shows its before state, and says why the after state is unknown", async () => {
    const id = await readBackLost();
    const shown = await onTerminal(["journal", "show", id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("after state unknown (reading it back failed or was cut short); undo needs --force");
    expect(shown.stdout).toMatch(/^before:\nposition +grams +salt +sugar +oil +measures\n─+\n1 +180 +medium +none +low +metric$/m);
    expect(shown.stdout).toContain("display image: none");
    const piped = await sandbox.cli(["journal", "show", id]);
    expect(piped.stdout).toMatch(/^before\t1\tgrams\t180$/m);
  });

  it("undo does not blame --no-verify, and names the intake in its hint", async () => {
    await readBackLost();
    const refused = await sandbox.cli(["undo", "--last", "--yes"]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain("has no after state (reading the intake back after it failed or was cut short)");
    expect(refused.stderr).not.toContain("--no-verify");
    expect(refused.stderr).toContain("check with `foodctl intake show 1002`, then pass --force");
  });
});

describe("foodctl journal's profile and reason columns on a terminal", () => {
  const header = (stdout: string) =>
    stdout
      .split("\n")[0]!
      .trim()
      .split(/\s{2,}/);

  it("show the profile only when the entries are of several profiles, and the reason only when one has a reason", async () => {
    expect((await sandbox.cli(["intake", "set-quantity", "1001", "310"])).code).toBe(0);
    const one = await onTerminal(["journal"]);
    expect(header(one.stdout)).toEqual(["id", "time (UTC)", "intake", "user", "command", "what changed", "outcome"]);

    expect((await sandbox.cli(["config", "set", "timeout", "10", "--profile", "erin"])).code).toBe(0);
    expect((await sandbox.cli(["--profile", "erin", "intake", "set-quantity", "1001", "315", "--reason", "TICKET-9"])).code).toBe(0);
    const two = await onTerminal(["journal"]);
    expect(header(two.stdout)).toEqual(["id", "time (UTC)", "intake", "user", "command", "what changed", "outcome", "profile", "reason"]);
    expect(tableRows(two.stdout)[0]).toMatch(/ erin +TICKET-9$/);
    // One profile listed again (--reason filters to erin's entry): no profile column.
    expect(header((await onTerminal(["journal", "--reason", "ticket-9"])).stdout)).not.toContain("profile");
  });
});

describe("foodctl journal at 80 columns", () => {
  it("cuts nothing within 80 columns: the id and time whole, what changed wrapped, the reason on a line under its entry", async () => {
    const reason = "TICKET-311 the customer's breakfast portions, corrected after a call";
    expect(
      (await sandbox.cli(["intake", "set-modifiers", "1002", "1", "2", "3", "--salt", "high", "--sugar", "low", "--reason", reason])).code,
    ).toBe(0);
    const listed = await onTerminal(["journal"], 80);
    const rows = tableRows(listed.stdout);
    expect(rows).toHaveLength(1);
    const id = JSON.parse((await sandbox.cli(["journal", "--json"])).stdout)[0].id as string;
    expect(rows[0]!.startsWith(`${id}  `)).toBe(true);
    expect(rows[0]).toMatch(/^[0-9a-z]{12} {2}\d\d-\d\d \d\d:\d\d /);
    expect(listed.stdout.split("\n").every((line) => line.length <= 80)).toBe(true);
    // Nothing cut: what changed wraps between words, and the reason has the line under its entry.
    expect(listed.stdout).not.toContain("…");
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    for (const word of ["medium→high,", "none→low,", "none→high,", "low→high"]) expect(words(listed.stdout)).toContain(word);
    const under = listed.stdout.slice(listed.stdout.indexOf("\n  reason: ") + 1);
    expect(words(under).join(" ")).toBe(`reason: ${reason}`);
    const shown = await onTerminal(["journal", "show", rows[0]!.slice(0, 12)], 80);
    expect(shown.code).toBe(0);
  });
});
