/**
 * `undo --batch` as `intake apply` prints: a summary, piped rows with the intake and entry ids, one
 * JSON document, a results file; stopped by Ctrl-C or a closed stdout, and resumed by the same command.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClosedStdout } from "../../src/io.js";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

const POST = "POST /v2/nutrition/confirm/quantity";
const posts = () => sandbox.handle.stats().requests[POST] ?? 0;

/** Applies `lines` changes over intakes 1001-1003 (1002 several times) and returns the results file. */
async function applyBatch(lines = 6): Promise<{ results: string; batchId: string }> {
  const changes = Array.from({ length: lines }, (_, index) =>
    index % 3 === 0
      ? { image_id: 1002, quantity: { "1": 150 + index } }
      : index % 3 === 1
        ? { image_id: 1001, quantity: 200 + index }
        : { image_id: 1003, quantity: { manual1: 40 + index } },
  );
  const input = sandbox.file("changes.jsonl", changes.map((change) => JSON.stringify(change)).join("\n") + "\n");
  const applied = await sandbox.cli(["intake", "apply", input, "--concurrency", "1"]);
  expect(applied.code, applied.stderr).toBe(0);
  return { results: sandbox.file("results.jsonl", applied.stdout), batchId: JSON.parse(applied.stdout.split("\n")[0]!).batch_id };
}

const intakes = () => Promise.all([1001, 1002, 1003].map((id) => sandbox.show(id)));

/**
 * foodctl in process as alice, with hooks a real run gets from its terminal and its pipe:
 * `onWrite` sees each stdout write (and may abort the run, as Ctrl-C does, or close stdout).
 */
async function cli(
  args: string[],
  hooks: { tty?: boolean; onWrite?: (text: string, controls: { abort(): void; closeStdout(): void }) => void } = {},
) {
  const env = {
    FOODCTL_API_URL: sandbox.handle.url,
    FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
    XDG_CONFIG_HOME: sandbox.home,
    XDG_STATE_HOME: sandbox.home,
  };
  const buffers = bufferIO({ env, tty: hooks.tty ?? false, columns: 80 });
  const controller = new AbortController();
  let closed: ((error: Error) => void) | undefined;
  const closedStdout: ClosedStdout = { takeOver: (handler) => (closed = handler) };
  buffers.io.closedStdout = closedStdout;
  const write = buffers.io.stdout.write.bind(buffers.io.stdout);
  const controls = {
    abort: () => controller.abort(),
    closeStdout: () => closed?.(Object.assign(new Error("write EPIPE"), { code: "EPIPE" })),
  };
  buffers.io.stdout.write = (text: string) => {
    const flowing = write(text);
    hooks.onWrite?.(text, controls);
    return flowing;
  };
  const code = await run(args, { io: buffers.io, signal: controller.signal });
  return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

describe("undo --batch prints as intake apply does", () => {
  it("piped: no header (as every piped table and intake apply), one row per entry with its intake and entry ids; the summary on stderr", async () => {
    const { results } = await applyBatch(3);
    const applied = readFileSync(results, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const undone = await cli(["undo", "--batch", results, "--yes"]);
    expect(undone.code, undone.stderr).toBe(0);
    const rows = undone.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(3);
    // Last line first.
    expect(rows.map((row) => row.split("\t").slice(0, 3))).toEqual(
      applied.reverse().map((result) => [result.journal_id, String(result.image_id), "undone"]),
    );
    expect(rows.map((row) => row.split("\t")).find((row) => row[1] === "1001")![4]).toBe("201 → 320 g");
    expect(undone.stderr).toMatch(/^undid 3 · already undone 0 · refused 0 · failed 0 · 3 changes in [\d.]+ s\nbatch /);
  });

  it("on a terminal: a line per entry naming the entry, the intake and what moved", async () => {
    const { results } = await applyBatch(2);
    const undone = await cli(["undo", "--batch", results, "--yes"], { tty: true });
    expect(undone.code, undone.stderr).toBe(0);
    const lines = undone.stdout.replace(/\u001b\[[0-9;]*m/g, "");
    expect(lines).toMatch(
      /^entry [0-9a-z]{12} {2}intake 1001 {2}201 → 320 g {2}undone\nentry [0-9a-z]{12} {2}intake 1002 {2}1: 150 → 180 g {2}undone\n$/,
    );
  });

  it("--json: one document, the summary and one result per entry; --results: the same results as JSON Lines", async () => {
    const { results, batchId } = await applyBatch(3);
    const file = join(sandbox.home, "undo.jsonl");
    const undone = await cli(["undo", "--batch", batchId, "--yes", "--json", "--results", file]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toBe("");
    const document = JSON.parse(undone.stdout);
    expect(document.summary).toMatchObject({ batch_id: batchId, entries: 3, undone: 3, already_undone: 0, refused: 0, failed: 0 });
    expect(document.results).toHaveLength(3);
    // Different intakes are undone at once: the results come as they finish.
    expect(document.results.map((result: { image_id: number }) => result.image_id).sort()).toEqual([1001, 1002, 1003]);
    const onThird = document.results.find((result: { image_id: number }) => result.image_id === 1003);
    expect(onThird).toMatchObject({ status: "undone", batch_id: batchId });
    expect(onThird.undo_journal_id).toMatch(/^[0-9a-z]{12}$/);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(document.results);
    expect(readFileSync(results, "utf8")).toContain(document.results[2].journal_id);
  });
});

describe("undo --batch --dry-run", () => {
  it("shows every undo, later lines of an intake checked as the earlier undos would leave it, and sends nothing", async () => {
    const { results } = await applyBatch(6);
    const sent = posts();
    const dry = await cli(["undo", "--batch", results, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    const rows = dry.stdout.trimEnd().split("\n");
    expect(rows.map((row) => row.split("\t")[2])).toEqual(Array(6).fill("dry_run"));
    expect(rows[0]).toContain('"quantity":{"manual1":');
    expect(dry.stderr).toMatch(
      /^dry run 6 · undid 0 · already undone 0 · refused 0 · failed 0 · 6 changes in .*\nbatch .*\ndry run: nothing was sent\n$/,
    );
    expect(posts()).toBe(sent);
  });
});

describe("undo --batch stops early and resumes", () => {
  it("Ctrl-C: exit 130 after the entry in flight; the same command finishes the rest, the first ones already undone", async () => {
    const before = await intakes();
    const { results } = await applyBatch(6);
    // One at a time: the test stops between two entries.
    const interrupted = await cli(["undo", "--batch", results, "--yes", "--concurrency", "1"], {
      // Two rows: Ctrl-C.
      onWrite: (text, controls) => void (text.split("\t")[2] === "undone" && undoneRows++ === 1 && controls.abort()),
    });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(interrupted.stderr).toContain("undid 2 · already undone 0 · refused 0 · failed 0 · not done 4");
    expect(interrupted.stderr).toContain("error: interrupted: 4 entries not undone; the undos in flight were finished and reported");
    const hinted = /^hint: run it again to finish the rest: foodctl (.*)$/m.exec(interrupted.stderr)?.[1];
    // The run's own options go with it.
    expect(hinted).toBe(`undo --batch ${results} --yes --concurrency 1`);

    const resumed = await cli(hinted!.split(" "));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^undid 4 · already undone 2 · refused 0 · failed 0 · 6 changes/);
    expect(await intakes()).toEqual(before);

    const sent = posts();
    const again = await cli(["undo", "--batch", results, "--yes"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      /^undid 0 · already undone 6 · refused 0 · failed 0 · 6 changes in .*\nbatch .*\nevery entry was undone already: nothing was sent\n$/,
    );
    expect(posts()).toBe(sent);
    expect((await journalEntries(sandbox)).filter((entry) => entry.command === "undo")).toHaveLength(6);
  });

  it("an entry undone by hand meanwhile is already undone; one changed since is refused (exit 9 with the rest undone)", async () => {
    const { results } = await applyBatch(3);
    const [third, , first] = (await journalEntries(sandbox)).filter((entry) => entry.batch_id);
    expect((await sandbox.cli(["undo", third.id, "--yes"])).code).toBe(0);
    expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=99"])).code).toBe(0);
    // One at a time, so the rows come in the order undone: last line first.
    const undone = await cli(["undo", "--batch", results, "--yes", "--concurrency", "1"]);
    expect(undone.code).toBe(9);
    const rows = undone.stdout
      .trimEnd()
      .split("\n")
      .map((row) => row.split("\t"));
    expect(rows.map((row) => [row[0], row[2]])).toEqual([
      [third.id, "already_undone"],
      [expect.any(String), "undone"],
      [first.id, "refused"],
    ]);
    expect(rows[2]![4]).toContain(`intake 1002 changed since entry ${first.id}`);
    expect(undone.stderr).toContain("undid 1 · already undone 1 · refused 1 · failed 0");
    expect(undone.stderr).toContain("error: 1 of 3 entries not undone (refused, failed or overwritten)");
  });

  it("a closed stdout stops it: exit 1 and a hint, as intake apply", async () => {
    const { results } = await applyBatch(6);
    const sent = posts();
    const stopped = await cli(["undo", "--batch", results, "--yes", "--concurrency", "1"], {
      onWrite: (text, controls) => void (text.includes("\tundone\t") && controls.closeStdout()),
    });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain("error: stdout was closed: stopped undoing, 5 entries not undone");
    expect(stopped.stderr).toContain(
      `hint: keep the results in a file (--results undo.jsonl); run it again to finish the rest: foodctl undo --batch ${results} --yes`,
    );
    expect(posts() - sent).toBe(1);
  });
});

let undoneRows = 0;
beforeEach(() => {
  undoneRows = 0;
});
