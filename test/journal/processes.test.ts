/** What only real processes show: two foodctl processes appending at once, and a crash mid-change. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";
import { cliBin, baseEnv, collect } from "../helpers/cli.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "foodctl-journal-processes-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("two processes appending at once", () => {
  it("200 entries each: 400 whole, valid lines, every id once", async () => {
    // The journal's own store, bundled into a script each process runs.
    const script = join(dir, "append.mjs");
    const source = `import { JournalRecorder } from ${JSON.stringify(resolve("src/journal/recorder.ts"))};
import { JournalStore } from ${JSON.stringify(resolve("src/journal/store.ts"))};
const store = new JournalStore(process.argv[2]);
const recorder = new JournalRecorder({ store, days: 90, profile: "p" + process.pid, apiUrl: "http://127.0.0.1:1", userId: 101, command: "test", secrets: [] });
const request = { method: "POST", url: "http://127.0.0.1:1/v2/nutrition/confirm/quantity", headers: {}, body: { imageId: 1002, note: "x".repeat(3000) } };
for (let i = 0; i < 200; i++) await recorder.begin({ imageId: 1002, request, before: null });
`;
    writeFileSync(join(dir, "entry.ts"), source);
    await build({
      entryPoints: [join(dir, "entry.ts")],
      outfile: script,
      bundle: true,
      format: "esm",
      platform: "node",
      logLevel: "silent",
    });
    const journal = join(dir, "state");
    const runs = [0, 1].map(() => collect(spawn(process.execPath, [script, journal], { stdio: ["pipe", "pipe", "pipe"] })));
    const results = await Promise.all(runs);
    expect(results.map((result) => [result.code, result.stderr])).toEqual([
      [0, ""],
      [0, ""],
    ]);
    const lines = readFileSync(join(journal, "journal.jsonl"), "utf8").split("\n").filter(Boolean);
    expect(lines).toHaveLength(400);
    const records = lines.map((line) => JSON.parse(line) as { id: string; profile: string });
    expect(new Set(records.map((record) => record.id)).size).toBe(400);
    expect(new Set(records.map((record) => record.profile)).size).toBe(2);
  });
});

describe("a crash between sending and the answer", () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, latencyMs: 300 });
  });
  afterAll(() => sandbox.close());

  it("leaves the entry with outcome unknown", async () => {
    const home = join(dir, "crash");
    const env = baseEnv({
      FOODCTL_API_URL: sandbox.url,
      FOODCTL_TOKEN: sandbox.tokenFor("alice"),
      XDG_CONFIG_HOME: home,
      XDG_STATE_HOME: home,
    });
    const child = spawn(process.execPath, [cliBin(), "intake", "set-quantity", "1003", "manual1=99"], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const done = collect(child);
    const serving = () => (sandbox.intake(1003) as { recipe_per_item: Array<{ serving_size: number }> }).recipe_per_item[0]!.serving_size;
    // The sandbox has applied the update; its answer is held back by the latency: kill the CLI now.
    for (let waited = 0; serving() !== 99 && waited < 15_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    const show = await collect(spawn(process.execPath, [cliBin(), "journal", "--json"], { env, stdio: ["pipe", "pipe", "pipe"] }));
    const [entry] = JSON.parse(show.stdout);
    expect(entry).toMatchObject({ image_id: 1003, command: "intake set-quantity", outcome: "unknown", after: null });
    expect(entry.before.items[0].grams).not.toBe(99);
  });
});
