/**
 * Changes to one intake are applied one after another in file order, each one's read-after
 * finished before the next is sent, while different intakes run at once: JSON Lines, CSV and
 * a resumed run, in process, through a recording proxy in front of a sandbox with latency.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../../src/main.js";
import { bufferIO } from "../../helpers/bufferIO.js";
import { withSandbox } from "../../helpers/sandbox.js";
import { startRecordingProxy, type ProxiedRequest } from "../../helpers/recordingProxy.js";
import { CSV_HEADER, fullResults, intake, item, jsonl, results, writeInput } from "./harness.js";
import { runTempDir } from "../../helpers/cli.js";

const sb = withSandbox({ latencyMs: 8 }, { perTest: true });
const home = runTempDir("foodctl-order-");
afterAll(() => rmSync(home, { recursive: true, force: true }));

type Change = { image_id: number } & Record<string, unknown>;
const LEVELS = ["none", "low", "medium", "high"];

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

/** 2–5 changes for each of alice's five intakes, no two neighbours for the same intake. */
function changes(seed: number): Change[] {
  const pick = random(seed);
  const level = () => LEVELS[pick(4)]!;
  const grams = () => 20 + pick(200);
  const make: Record<number, () => Change> = {
    1001: () => ({ image_id: 1001, quantity: 200 + pick(200), salt: level() }),
    1002: () => ({ image_id: 1002, quantity: { "1": grams() }, salt: { "2": level() }, oil: { "3": level() } }),
    1003: () => ({ image_id: 1003, quantity: { manual1: grams(), manual2: grams() }, sugar: { manual2: level() } }),
    1004: () => ({ image_id: 1004, quantity: { manual1: grams() }, salt: { manual1: level() } }),
    1005: () => ({ image_id: 1005, quantity: { manual1: grams() } }),
  };
  const ids = Object.keys(make).flatMap((id) => Array.from({ length: 2 + pick(4) }, () => Number(id)));
  for (let attempt = 0; ; attempt++) {
    for (let index = ids.length - 1; index > 0; index--) {
      const other = pick(index + 1);
      [ids[index], ids[other]] = [ids[other]!, ids[index]!];
    }
    if (ids.every((id, index) => index === 0 || ids[index - 1] !== id) || attempt > 1000) break;
  }
  // The issue's own case comes first: salt low, then high, on the same item.
  return [{ image_id: 1002, salt: { "2": "low" } }, ...ids.map((id) => make[id]!()), { image_id: 1002, salt: { "2": "high" } }];
}

function csvOf(list: Change[]): string {
  const rows = list.flatMap((change) => {
    const positions = new Set<string>();
    for (const field of ["quantity", "salt", "sugar", "oil"]) {
      const value = change[field];
      if (value !== undefined && typeof value === "object") for (const key of Object.keys(value as object)) positions.add(key);
    }
    const cell = (field: string, position: string | null) => {
      const value = change[field];
      if (value === undefined) return "";
      return String(position === null ? value : ((value as Record<string, unknown>)[position] ?? ""));
    };
    const row = (position: string | null) =>
      [change.image_id, "", position ?? "", ...["quantity", "salt", "sugar", "oil"].map((field) => cell(field, position)), ""].join(",");
    return positions.size === 0 ? [row(null)] : [...positions].map(row);
  });
  return `${[CSV_HEADER, ...rows].join("\n")}\n`;
}

/** Every intake ends in the state its last lines give it, field by field. */
function expectFinalState(list: Change[]) {
  const last = new Map<string, unknown>();
  for (const change of list) {
    for (const [field, value] of Object.entries(change)) {
      if (field === "image_id") continue;
      if (typeof value === "object" && value !== null)
        for (const [position, entry] of Object.entries(value)) last.set(`${change.image_id}|${field}|${position}`, entry);
      else last.set(`${change.image_id}|${field}|`, value);
    }
  }
  for (const [key, value] of last) {
    const [imageId, field, position] = key.split("|") as [string, string, string];
    const record =
      position === ""
        ? intake(sb.handle, Number(imageId))
        : item(sb.handle, Number(imageId), /^\d+$/.test(position) ? Number(position) : position);
    const actual = field === "quantity" ? record.serving_size : (record as unknown as Record<string, unknown>)[field];
    expect(actual, key).toBe(value);
  }
}

/** The seeded value of `image_id|field|position` (position "" for a whole intake), read before the run. */
function seededValues(): (key: string) => unknown {
  const records = new Map([1001, 1002, 1003, 1004, 1005].map((id) => [id, structuredClone(intake(sb.handle, id))]));
  return (key) => {
    const [imageId, field, position] = key.split("|") as [string, string, string];
    const record = records.get(Number(imageId))!;
    const found = position === "" ? record : record.recipe_per_item?.find((entry) => String(entry.food_item_position) === position);
    return field === "quantity" ? found?.serving_size : (found as unknown as Record<string, unknown> | undefined)?.[field];
  };
}

/**
 * The update each change sends, lines given by `sending` only (the others applied by an earlier
 * run): the values that differ from the intake as the lines before left it; null when none does.
 */
function updatesOf(list: Change[], seeded: (key: string) => unknown, sending: (index: number) => boolean = () => true) {
  const state = new Map<string, unknown>();
  const differs = (key: string, value: unknown) => {
    const now = state.has(key) ? state.get(key) : seeded(key);
    state.set(key, value);
    return now !== value;
  };
  return list.flatMap(({ image_id, ...fields }, index) => {
    const body: Record<string, unknown> = { imageId: image_id };
    for (const [field, value] of Object.entries(fields)) {
      if (typeof value !== "object" || value === null) {
        if (differs(`${image_id}|${field}|`, value)) body[field] = value;
        continue;
      }
      const kept = Object.entries(value).filter(([position, entry]) => differs(`${image_id}|${field}|${position}`, entry));
      if (kept.length) body[field] = Object.fromEntries(kept);
    }
    return sending(index) ? [{ image_id, line: index + 1, body: Object.keys(body).length > 1 ? body : null }] : [];
  });
}
type Update = ReturnType<typeof updatesOf>[number];

/** Per intake: updates in file order, and each request sent only after the one before it was answered. */
function expectFileOrderPerIntake(requests: ProxiedRequest[], sent: Update[]) {
  const ids = [...new Set(sent.map((change) => change.image_id))];
  for (const id of ids) {
    const own = requests.filter((request) => request.imageId === id);
    const posted = own.filter((request) => request.method === "POST").map(({ body }) => body);
    expect(posted, `updates of intake ${id}`).toEqual(
      sent.filter((change) => change.image_id === id && change.body).map(({ body }) => body),
    );
    for (let index = 1; index < own.length; index++) {
      expect(own[index]!.arrived, `request ${index} of intake ${id} waits for the one before`).toBeGreaterThanOrEqual(
        own[index - 1]!.answered,
      );
    }
    expect(own.at(-1)!.method, `the last change of ${id} is read after it`).toBe("GET");
  }
  // Different intakes were in flight at once.
  const overlapping = requests.some((request, index) =>
    requests.slice(index + 1).some((other) => other.arrived < request.answered && other.imageId !== request.imageId),
  );
  expect(overlapping).toBe(true);
}

async function runThroughProxy(args: string[]) {
  const target = await startRecordingProxy(sb.handle.url);
  try {
    const env = { FOODCTL_API_URL: target.url, FOODCTL_TOKEN: sb.handle.tokenFor("alice"), XDG_CONFIG_HOME: join(home, "config") };
    const io = bufferIO({ env });
    const code = await run(["intake", "apply", ...args, "--concurrency", "8"], { io: io.io });
    return { run: { code, stdout: io.stdout(), stderr: io.stderr() }, requests: [...target.requests] };
  } finally {
    await target.close();
  }
}

/** Every line applied, or unchanged where it gave only values the intake held already. */
function expectAllApplied(stdout: string, updates: Update[]) {
  const list = results(stdout);
  expect(list).toHaveLength(updates.length);
  const unchanged = new Set(updates.filter((update) => !update.body).map((update) => update.line));
  for (const result of list) {
    expect(result.status, `line ${result.line}`).toBe(unchanged.has(result.line) ? "unchanged" : "applied");
    expect(result.ignored, `line ${result.line}`).toBeUndefined();
  }
}

describe("intake apply: one intake's changes in file order", () => {
  it("JSON Lines with 2–5 lines per intake: every intake ends in its last line's state, none failed or ignored", async () => {
    const list = changes(11);
    const updates = updatesOf(list, seededValues());
    const { run, requests } = await runThroughProxy([writeInput("fixes.jsonl", jsonl(...list))]);
    expect(run.code, run.stderr).toBe(0);
    expectAllApplied(run.stdout, updates);
    expectFinalState(list);
    expectFileOrderPerIntake(requests, updates);
    // Each line's before/after is its own: the line after it starts where it ended.
    const byLine = new Map(fullResults(run.stdout).map((result) => [result.line, result]));
    expect(byLine.get(1)!.changed).toEqual([{ position: "2", field: "salt", before: "none", after: "low" }]);
    expect(byLine.get(list.length)!.changed).toEqual([{ position: "2", field: "salt", before: expect.any(String), after: "high" }]);
  });

  it("CSV, one group per run of rows: the same", async () => {
    const list = changes(23);
    const updates = updatesOf(list, seededValues());
    const { run, requests } = await runThroughProxy([writeInput("fixes.csv", csvOf(list))]);
    expect(run.code, run.stderr).toBe(0);
    expectAllApplied(run.stdout, updates);
    expectFinalState(list);
    expectFileOrderPerIntake(requests, updates);
  });

  it("a resumed run (--skip-applied, --results) sends what is left in file order", async () => {
    const list = changes(37);
    // The line the first run fails on is some intake's last change: the resumed run sends it after
    // that intake's other changes, whichever of them the first run got through. (Standing in for
    // an earlier change, it could land after a later one that the first run had in flight.)
    const lastOfIntake = new Map(list.map((change, index) => [change.image_id, index]));
    const brokenIndex = Math.min(...[...lastOfIntake.values()].filter((index) => index > 0));
    const broken = list.map((change, index) => (index === brokenIndex ? { image_id: 9999, quantity: 100 } : change));
    const resultsFile = writeInput("results.jsonl", "");
    const seeded = seededValues();
    const first = await runThroughProxy([writeInput("fixes.jsonl", jsonl(...broken)), "--results", resultsFile]);
    // Intake 9999 is not alice's: the batch stops there, after some changes were applied (exit 9).
    expect(first.run.code).toBe(9);
    const appliedFirst = new Set(
      results(readFileSync(resultsFile, "utf8"))
        // An unchanged line needed nothing: it is done too.
        .filter((result) => result.status === "applied" || result.status === "unchanged")
        .map((result) => result.line),
    );
    expect(appliedFirst.size).toBeGreaterThan(0);
    expect(appliedFirst.size).toBeLessThan(list.length);

    const second = await runThroughProxy([
      writeInput("fixes.jsonl", jsonl(...list)),
      "--skip-applied",
      resultsFile,
      "--results",
      resultsFile,
    ]);
    expect(second.run.code, second.run.stderr).toBe(0);
    expectFinalState(list);
    expectFileOrderPerIntake(
      second.requests,
      updatesOf(list, seeded, (index) => !appliedFirst.has(index + 1)),
    );
  });
});

describe("intake apply --dry-run: file order", () => {
  it("prints every request in file order, whatever --concurrency says, and sends nothing", async () => {
    const list = changes(5);
    const { run, requests } = await runThroughProxy([writeInput("fixes.jsonl", jsonl(...list)), "--dry-run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(requests).toEqual([]);
    const printed = results(run.stdout);
    expect(printed.map((result) => result.line)).toEqual(list.map((_change, index) => index + 1));
    expect(printed.every((result) => result.status === "dry_run")).toBe(true);
  });
});
