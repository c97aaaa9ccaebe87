/**
 * Writes that fail part way, as on a full disk: only a process shows them, started under a file
 * size limit (`ulimit -f`), where a write past the limit comes back short and the next one fails.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect } from "../helpers/cli.js";
import { runTempDir } from "../helpers/tempDir.js";

/** Runs `argv` under `ulimit -f <blocks>` (a block: 512 or 1024 bytes, by shell). */
function underLimit(blocks: number, argv: string[], env: Record<string, string> = baseEnv()) {
  const child = spawn("sh", ["-c", `ulimit -f ${blocks} && exec "$0" "$@"`, ...argv], { env, stdio: ["pipe", "pipe", "pipe"] });
  return collect(child);
}

let script: string;
beforeAll(async () => {
  // writeFileAtomic and takeLock themselves, bundled into a script the limited process runs.
  const dir = runTempDir("foodctl-size-limit-script-");
  const entry = join(dir, "entry.ts");
  writeFileSync(
    entry,
    `import { writeFileAtomic } from ${JSON.stringify(join(process.cwd(), "src/files.ts"))};
import { takeLock } from ${JSON.stringify(join(process.cwd(), "src/lock.ts"))};
const [what, path] = process.argv.slice(2);
try {
  if (what === "write") writeFileAtomic(path, "x".repeat(100_000));
  else await takeLock(path, { cannotCreate: (error) => error, busy: () => new Error("busy") }, 0);
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
`,
  );
  script = join(dir, "limited.mjs");
  await build({ entryPoints: [entry], outfile: script, bundle: true, format: "esm", platform: "node", logLevel: "silent" });
});

describe("under a file size limit", () => {
  it("writeFileAtomic: a write that comes back short throws, the target keeps its content and no temporary is left", async () => {
    const dir = runTempDir("foodctl-size-limit-");
    const file = join(dir, "state.json");
    writeFileSync(file, "the state before\n");
    const result = await underLimit(4, [process.execPath, script, "write", file]);
    expect(JSON.parse(result.stdout)).toMatchObject({ code: "EFBIG" });
    expect(readFileSync(file, "utf8")).toBe("the state before\n");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("takeLock: when the pid cannot be written the lock is removed, so the next writer takes it at once", async () => {
    const dir = runTempDir("foodctl-size-limit-");
    const lock = join(dir, "journal.jsonl.lock");
    const result = await underLimit(0, [process.execPath, script, "lock", lock]);
    expect(JSON.parse(result.stdout)).toMatchObject({ code: "EFBIG" });
    expect(existsSync(lock)).toBe(false);
  });

  it("config set: exit 2 naming the failure, no lock left behind, and the next config set works at once", async () => {
    const home = runTempDir("foodctl-size-limit-home-");
    const env = baseEnv({ XDG_CONFIG_HOME: home });
    const failed = await underLimit(0, [process.execPath, cliBin(), "config", "set", "user", "101"], env);
    expect(failed.code, failed.stderr).toBe(2);
    expect(failed.stderr).toMatch(/^error: cannot write in .*: EFBIG/m);
    expect(readdirSync(join(home, "foodctl"))).toEqual([]);
    const started = Date.now();
    const next = await underLimit(1000, [process.execPath, cliBin(), "config", "set", "user", "101"], env);
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
