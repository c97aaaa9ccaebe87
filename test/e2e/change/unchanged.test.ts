/**
 * A change to the values an intake already holds, as `kubectl apply` of an unchanged object:
 * nothing is sent or journaled, the command says so (exit 0, `--json` too), `--dry-run` says
 * nothing would be sent, and `undo --last` still reaches the change before it. When only some
 * values differ, only those are sent and journaled. The same through `intake edit` and the
 * lines of `intake apply` (status "unchanged", counted apart; `--skip-applied` skips them).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTempDir } from "../../helpers/cli.js";
import { expectExit, GET_INTAKE, POST_QUANTITY, startTestSandbox, type RunOptions, type TestSandbox } from "./harness.js";

let sandbox: TestSandbox;
let home: string;
beforeEach(async () => {
  sandbox = await startTestSandbox();
  home = runTempDir("foodctl-unchanged-");
});
afterEach(() => sandbox.close());

/** foodctl with one journal for the whole test. */
const cli = (args: string[], options: RunOptions = {}) =>
  sandbox.cli(args, { ...options, env: { XDG_STATE_HOME: home, XDG_CONFIG_HOME: home, ...options.env } });

interface Entry {
  id: string;
  command: string;
  request: { body: Record<string, unknown> };
}
async function journal(): Promise<Entry[]> {
  const result = await cli(["journal", "--json"]);
  expectExit(result, 0);
  return JSON.parse(result.stdout) as Entry[];
}

const item = (imageId: number, position: number) =>
  (
    sandbox.intake(imageId) as unknown as { recipe_per_item: Array<{ food_item_position: number; serving_size: number; salt: string }> }
  ).recipe_per_item.find((recipe) => recipe.food_item_position === position)!;

describe("a change to the value already there", () => {
  it("sends and journals nothing, says so (exit 0), and undo --last undoes the change before it", async () => {
    expectExit(await cli(["intake", "set-quantity", "1002", "1=150"]), 0);
    const requests = sandbox.countRequests();
    const again = await cli(["intake", "set-quantity", "1002", "1=150"]);
    expectExit(again, 0);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe("no change: intake 1002 already has 150 g at position 1; nothing was sent\n");
    expect(requests()).toEqual({ [GET_INTAKE]: 1 });
    expect((await journal()).map((entry) => entry.command)).toEqual(["intake set-quantity"]);

    expectExit(await cli(["undo", "--last", "--yes"]), 0);
    expect(item(1002, 1).serving_size).toBe(180);
  });

  it("--json says it in its document: status unchanged, changed false, the values held", async () => {
    const result = await cli(["intake", "set-quantity", "1002", "1=180", "--json"]);
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toEqual({
      image_id: 1002,
      status: "unchanged",
      changed: false,
      unchanged: [{ position: "1", field: "quantity", value: 180 }],
    });
    expect(result.stderr).toBe("");
  });

  it("--dry-run says nothing would be sent, with or without --json or --curl", async () => {
    const requests = sandbox.countRequests();
    const text = await cli(["intake", "set-quantity", "1002", "1=180", "--dry-run"]);
    expectExit(text, 0);
    expect(text.stdout).toBe("");
    expect(text.stderr).toBe("no change: intake 1002 already has 180 g at position 1; nothing would be sent\n");
    const curl = await cli(["intake", "set-quantity", "1002", "1=180", "--dry-run", "--curl"]);
    expectExit(curl, 0);
    expect(curl.stdout).toBe("");
    expect(curl.stderr).toContain("nothing would be sent");
    const json = await cli(["intake", "set-quantity", "1002", "1=180", "--dry-run", "--json"]);
    expectExit(json, 0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dry_run: true, request: null, status: "unchanged", changed: false });
    expect(requests()).toEqual({ [GET_INTAKE]: 3 });
  });

  it("set-modifiers with every level already set sends nothing, on a recognition-only intake too", async () => {
    const requests = sandbox.countRequests();
    const itemized = await cli(["intake", "set-modifiers", "1002", "1", "3", "--oil", "low"]);
    expectExit(itemized, 0);
    expect(itemized.stderr).toBe("no change: intake 1002 already has oil low at positions 1, 3; nothing was sent\n");
    const shown = JSON.parse((await cli(["intake", "show", "1001", "--json"])).stdout) as { intake_info: { serving_size: number } };
    const total = await cli(["intake", "set-quantity", "1001", String(shown.intake_info.serving_size)]);
    expectExit(total, 0);
    expect(total.stderr).toBe(`no change: intake 1001 already has a total of ${shown.intake_info.serving_size} g; nothing was sent\n`);
    expect(requests()[POST_QUANTITY]).toBeUndefined();
    expect(await journal()).toEqual([]);
  });

  it("sends and journals only the values that differ, so undo puts back exactly what changed", async () => {
    const dryRun = await cli(["intake", "set-modifiers", "1002", "1", "2", "--salt", "medium", "--dry-run", "--json"]);
    expectExit(dryRun, 0);
    expect((JSON.parse(dryRun.stdout) as { request: { body: unknown } }).request.body).toEqual({ imageId: 1002, salt: { "2": "medium" } });
    expect(dryRun.stderr).toBe("intake 1002 already has salt medium at position 1: left out of the request\n");

    const result = await cli(["intake", "set-modifiers", "1002", "1", "2", "--salt", "medium"]);
    expectExit(result, 0);
    const [entry] = await journal();
    expect(entry!.request.body).toEqual({ imageId: 1002, salt: { "2": "medium" } });
    const undo = await cli(["undo", entry!.id, "--dry-run", "--json"]);
    expectExit(undo, 0);
    expect((JSON.parse(undo.stdout) as { request: { body: unknown } }).request.body).toEqual({ imageId: 1002, salt: { "2": "none" } });
    expectExit(await cli(["undo", entry!.id, "--yes"]), 0);
    expect([item(1002, 1).salt, item(1002, 2).salt]).toEqual(["medium", "none"]);
  });

  it("intake edit saved with the values there says so in --json too", async () => {
    const result = await cli(["intake", "edit", "1002", "--file", "-", "--json"], { stdin: "position quantity salt\n1 180 medium\n" });
    expectExit(result, 0);
    expect(JSON.parse(result.stdout)).toEqual({ image_id: 1002, status: "unchanged", changed: false, unchanged: [] });
    expect(await journal()).toEqual([]);
  });
});

describe("undo of an entry whose before values are all there", () => {
  // bob's plan (Analyse) is below Monitor: the service ignores item-level salt, so the entry changed nothing.
  it("sends nothing and says so; undo --batch counts it already undone", async () => {
    const dir = runTempDir("foodctl-unchanged-undo-");
    const input = join(dir, "fixes.jsonl");
    const results = join(dir, "results.jsonl");
    writeFileSync(input, `${JSON.stringify({ image_id: 2002, salt: { "2": "high" } })}\n`);
    expectExit(await cli(["intake", "apply", input, "--results", results], { as: "bob" }), 0);
    expectExit(await cli(["intake", "set-modifiers", "2002", "2", "--salt", "high"], { as: "bob" }), 0);
    const salt = item(2002, 2).salt;
    expect(salt).not.toBe("high");

    const requests = sandbox.countRequests();
    const undo = await cli(["undo", "--last", "--yes"], { as: "bob" });
    expectExit(undo, 0);
    expect(undo.stderr).toBe(`no change: intake 2002 already has salt ${salt} at position 2; nothing was sent\n`);
    const batch = await cli(["undo", "--batch", results, "--yes", "--json"], { as: "bob" });
    expectExit(batch, 0);
    const document = JSON.parse(batch.stdout) as { summary: Record<string, number>; results: Array<{ status: string }> };
    expect(document.summary).toMatchObject({ entries: 1, undone: 0, already_undone: 1 });
    expect(document.results.map((result) => result.status)).toEqual(["already_undone"]);
    expect(requests()[POST_QUANTITY]).toBeUndefined();
  });

  it("undo <id> of an entry undone already says so, as undo --batch does (exit 0, nothing sent), in --json too", async () => {
    expectExit(await cli(["intake", "set-quantity", "1002", "1=150"]), 0);
    const [change] = await journal();
    expectExit(await cli(["undo", "--last", "--yes"]), 0);
    const undo = (await journal()).find((entry) => entry.command.startsWith("undo"))!;
    const requests = sandbox.countRequests();
    const again = await cli(["undo", change!.id, "--yes"]);
    expectExit(again, 0);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(`entry ${change!.id} was undone already (by ${undo.id}): intake 1002 still shows it; nothing was sent\n`);
    const json = await cli(["undo", change!.id, "--yes", "--json"]);
    expectExit(json, 0);
    expect(JSON.parse(json.stdout)).toEqual({ journal_id: change!.id, image_id: 1002, status: "already_undone", undone_by: undo.id });
    expect(requests()[POST_QUANTITY]).toBeUndefined();
    expect(item(1002, 1).serving_size).toBe(180);
  });
});

describe("intake apply: lines whose values are there already", () => {
  it("are 'unchanged', counted apart, sent and journaled nothing, and skipped by --skip-applied", async () => {
    const dir = runTempDir("foodctl-unchanged-apply-");
    const input = join(dir, "fixes.jsonl");
    const results = join(dir, "results.jsonl");
    writeFileSync(
      input,
      [
        { image_id: 1002, quantity: { "1": 180 } },
        { image_id: 1002, quantity: { "1": 160 } },
        { image_id: 1002, quantity: { "1": 160 }, salt: { "1": "high" } },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n") + "\n",
    );
    const requests = sandbox.countRequests();
    const run = await cli(["intake", "apply", input, "--results", results, "--json"]);
    expectExit(run, 0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.slice(0, 3).map((line) => line.status)).toEqual(["unchanged", "applied", "applied"]);
    expect(lines[0]).toMatchObject({ unchanged: [{ position: "1", field: "quantity", value: 180 }] });
    expect(lines[0]!.journal_id).toBeUndefined();
    expect(lines[2]).toMatchObject({ unchanged: [{ position: "1", field: "quantity", value: 160 }] });
    expect(JSON.parse(run.stderr.trim().split("\n").at(-1)!)).toMatchObject({ summary: { applied: 2, unchanged: 1, failed: 0 } });
    expect(requests()[POST_QUANTITY]).toBe(2);
    const entries = await journal();
    expect(entries.map((entry) => entry.request.body)).toEqual([
      { imageId: 1002, salt: { "1": "high" } },
      { imageId: 1002, quantity: { "1": 160 } },
    ]);

    const resumed = await cli(["intake", "apply", input, "--skip-applied", results, "--json"]);
    expectExit(resumed, 0);
    expect(
      resumed.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { status: string }).status),
    ).toEqual(["skipped", "skipped", "skipped"]);
    expect(readFileSync(results, "utf8")).toContain('"status":"unchanged"');
  });

  it("a terminal line says unchanged and what was there, and the summary counts it", async () => {
    const input = join(runTempDir("foodctl-unchanged-apply-"), "fixes.jsonl");
    writeFileSync(input, `${JSON.stringify({ image_id: 1002, salt: { "1": "medium", "3": "low" } })}\n`);
    const run = await cli(["intake", "apply", input], { tty: true, columns: 80, env: { NO_COLOR: "1" } });
    expectExit(run, 0);
    expect(run.stdout.replace(/\s+/g, " ")).toContain(
      "line 1 intake 1002 unchanged (already salt medium at position 1 and salt low at position 3: nothing sent)",
    );
    expect(run.stderr.replace(/\s+/g, " ")).toContain("applied 0 · failed 0 · unchanged 1 · skipped 0");
  });
});
