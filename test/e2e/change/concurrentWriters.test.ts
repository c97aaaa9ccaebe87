/**
 * Two real foodctl processes change one item of one intake at once (docs/journal.md, concurrent
 * writers). The sandbox holds every answer back (--latency), so the second process's update lands
 * between the first one's update and its read-back: the first run is overwritten. It must say so
 * and exit 7, its journal entry must never claim the other value as its result, and undoing it
 * must refuse and send nothing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../../src/sandbox/server.js";
import { baseEnv, cliBin, collect, type CliResult } from "../../helpers/cli.js";

/** Long enough that the second process starts (and sends its read) while the first one's update waits for its answer. */
const LATENCY_MS = 2000;
const GET_INTAKE = "GET /v2/intake/:image_id";
const POST_QUANTITY = "POST /v2/nutrition/confirm/quantity";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "foodctl-writers-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let sandbox: SandboxHandle;
let env: Record<string, string>;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS });
  const home = mkdtempSync(join(dir, "home-"));
  // Two terminals of one support person: one journal.
  env = baseEnv({
    FOODCTL_API_URL: sandbox.url,
    FOODCTL_TOKEN: sandbox.tokenFor("alice"),
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: home,
  });
});
afterEach(() => sandbox.close());

function foodctl(args: string[]): Promise<CliResult> {
  return collect(spawn(process.execPath, [cliBin(), ...args], { env, stdio: ["pipe", "pipe", "pipe"] }));
}

const requests = (key: string) => sandbox.stats().requests[key] ?? 0;
const grams = (imageId: number, position: string) =>
  (sandbox.intake(imageId) as { recipe_per_item: Array<{ food_item_position: string; serving_size: number }> }).recipe_per_item.find(
    (item) => item.food_item_position === position,
  )!.serving_size;

/** Starts `first`; once the sandbox has seen its read of the intake, starts `second`: its update lands before the first one's read-back. */
async function race(first: string[], second: string[]): Promise<[CliResult, CliResult]> {
  const reads = requests(GET_INTAKE);
  const one = foodctl(first);
  for (let waited = 0; requests(GET_INTAKE) === reads && waited < 20_000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const two = foodctl(second);
  return Promise.all([one, two]);
}

async function journal(): Promise<any[]> {
  const result = await foodctl(["journal", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** The overwritten run's entry never claims the other writer's value; undo refuses it and sends no update. */
async function expectOverwrittenEntry(entry: any): Promise<void> {
  expect(entry.after).toBeNull();
  expect(entry.overwritten).toEqual([{ position: "manual1", field: "grams", sent: "60", now: "90" }]);
  expect(entry.found.items.find((item: any) => item.position === "manual1").grams).toBe(90);
  expect(entry.before.items.find((item: any) => item.position === "manual1").grams).toBe(350);

  const updates = requests(POST_QUANTITY);
  const undo = await foodctl(["undo", entry.id, "--yes"]);
  expect(undo.code, undo.stderr).toBe(7);
  expect(undo.stderr).toContain(`entry ${entry.id} was overwritten by another writer: intake 1003 manual1 grams is 90 now`);
  expect(undo.stderr).toContain("nothing was sent");
  expect(requests(POST_QUANTITY)).toBe(updates);
  expect(grams(1003, "manual1")).toBe(90);
}

describe("two processes on one item", () => {
  it("intake set-quantity: the overwritten run exits 7 and says so; its entry keeps the other value as found; undo refuses", async () => {
    const [first, second] = await race(
      ["intake", "set-quantity", "1003", "manual1=60", "--reason", "TICKET-1"],
      ["intake", "set-quantity", "1003", "manual1=90", "--reason", "TICKET-2"],
    );
    expect(second.code, second.stderr).toBe(0);
    expect(first.code, first.stderr).toBe(7);
    expect(first.stderr).toContain(
      "error: intake 1003: another writer changed what this change set meanwhile: manual1 grams sent 60, now 90",
    );
    expect(grams(1003, "manual1")).toBe(90);
    // The printed before → after does not pass the other writer's value off as this change's result.
    expect(first.stdout).toMatch(/^overwritten\t1003\tmanual1\t[^\t]+\tgrams\t60\t90\tg$/m);

    const entries = await journal();
    const mine = entries.find((entry) => entry.reason === "TICKET-1");
    const theirs = entries.find((entry) => entry.reason === "TICKET-2");
    expect(theirs).toMatchObject({ overwritten: [], found: null });
    expect(theirs.after.items.find((item: any) => item.position === "manual1").grams).toBe(90);
    await expectOverwrittenEntry(mine);
  }, 60_000);

  it("intake apply: the line is counted overwritten in the summary and results, exit 7; undo refuses its entry", async () => {
    const changes = join(dir, "changes.jsonl");
    writeFileSync(changes, `${JSON.stringify({ image_id: 1003, quantity: { manual1: 60 } })}\n`);
    const results = join(mkdtempSync(join(dir, "results-")), "results.jsonl");
    const [first, second] = await race(
      ["intake", "apply", changes, "--results", results, "--force"],
      ["intake", "set-quantity", "1003", "manual1=90"],
    );
    expect(second.code, second.stderr).toBe(0);
    expect(first.code, first.stderr).toBe(7);
    expect(first.stderr).toMatch(/applied 0 · failed 0 · overwritten 1 · skipped 0/);
    const [line] = readFileSync(results, "utf8")
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(line).toMatchObject({ line: 1, image_id: 1003, status: "overwritten", error: { exit_code: 7 } });
    expect(line.error.message).toContain("manual1 grams sent 60, now 90");

    const entry = (await journal()).find((candidate) => candidate.id === line.journal_id);
    expect(entry.command).toBe("intake apply");
    await expectOverwrittenEntry(entry);

    // undo --batch counts it apart, sends nothing, and exits 7.
    const updates = requests(POST_QUANTITY);
    const undoBatch = await foodctl(["undo", "--batch", results, "--yes", "--json"]);
    expect(undoBatch.code, undoBatch.stderr).toBe(7);
    const document = JSON.parse(undoBatch.stdout);
    expect(document.summary).toMatchObject({ entries: 1, undone: 0, overwritten: 1, refused: 0, failed: 0 });
    expect(document.results[0]).toMatchObject({ journal_id: entry.id, status: "overwritten", error: { exit_code: 7 } });
    expect(requests(POST_QUANTITY)).toBe(updates);
  }, 60_000);
});
