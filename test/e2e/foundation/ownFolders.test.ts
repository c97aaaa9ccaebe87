/**
 * Tests never write outside their own folders, whatever the developer's XDG_* and HOME say: with
 * every one of them pointing into a watched folder, representative runs (a detached sandbox,
 * changes that journal, a display image, config writes; spawned and in process) leave it empty.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../../src/main.js";
import { png } from "../../fixtures/images.js";
import { bufferIO, WRITABLE_FOLDERS } from "../../helpers/bufferIO.js";
import { baseEnv, cliBin, collect, expectExit, runCli, runFoodctl, runTempDir, tempConfigHome } from "../../helpers/cli.js";
import { withSandbox } from "../../helpers/sandbox.js";

const sandbox = withSandbox();
let watched = "";
const saved = new Map<string, string | undefined>();

/** Every file and folder under the watched folder, but the empty folders standing for the developer's. */
function written(): string[] {
  return readdirSync(watched, { recursive: true, encoding: "utf8" }).filter(
    (path) => !(WRITABLE_FOLDERS as readonly string[]).includes(path),
  );
}

// This worker's environment only: vitest runs a worker's files one after another.
beforeEach(() => {
  watched = runTempDir("foodctl-watched-");
  for (const name of WRITABLE_FOLDERS) {
    saved.set(name, process.env[name]);
    process.env[name] = join(watched, name);
    mkdirSync(process.env[name]!);
  }
});
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("a developer's XDG_* and HOME are never written to", () => {
  // Five processes and a detached one: slow on a busy machine.
  it("by spawned runs: sandbox --detach and stop, changes, a display image", { timeout: 90_000 }, async () => {
    const image = join(runTempDir("foodctl-image-"), "photo.png");
    writeFileSync(image, png(8, 6));
    // The test's own folder, named, so that `sandbox stop` finds the record `--detach` wrote.
    const own = { XDG_CONFIG_HOME: tempConfigHome() };
    const started = await runCli(["sandbox", "--detach", "--port", "0"], { env: own });
    expectExit(started, 0);
    const exported = Object.fromEntries([...started.stdout.matchAll(/^export (\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
    expect(Object.keys(exported)).toEqual(["FOODCTL_API_URL", "FOODCTL_TOKEN"]);
    const port = new URL(exported.FOODCTL_API_URL!).port;
    try {
      expectExit(await runCli(["intake", "set-modifiers", "1002", "3", "--salt", "high"], { env: exported }), 0);
      expectExit(await runCli(["display-image", "attach", "1003", image], { env: exported }), 0);
      // As the tests that spawn the bin themselves do, with baseEnv() naming no folder.
      const child = spawn(process.execPath, [cliBin(), "intake", "set-quantity", "1002", "3=150"], { env: baseEnv(exported) });
      expectExit(await collect(child), 0);
    } finally {
      expectExit(await runCli(["sandbox", "stop", "--port", port], { env: own }), 0);
    }
    expect(written()).toEqual([]);
  });

  it("by in-process runs: runFoodctl and a bare bufferIO, changes and config writes", async () => {
    const env = { FOODCTL_API_URL: sandbox.handle.url, FOODCTL_TOKEN: sandbox.handle.tokenFor("alice") };
    expectExit(await runFoodctl(["intake", "set-modifiers", "1002", "3", "--salt", "low"], { env }), 0);
    expectExit(await runFoodctl(["config", "set", "user", "101"]), 0);
    const buffers = bufferIO({ env });
    expect(await run(["intake", "set-quantity", "1002", "3=140"], { io: buffers.io, signal: new AbortController().signal })).toBe(0);
    expect(buffers.stderr()).toBe("");
    const bare = bufferIO();
    expect(await run(["config", "set", "user", "101"], { io: bare.io, signal: new AbortController().signal })).toBe(0);
    expect(written()).toEqual([]);
  });
});
