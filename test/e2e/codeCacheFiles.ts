/**
 * What the code cache's tests share: a private copy of the built CLI with a cache folder of its
 * own, the bin's checksum and file layout spelled out independently, and a cache that runs other
 * code (what a hostile user would plant).
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { crc32 } from "node:zlib";
import { baseEnv, cliBin, runTempDir } from "../helpers/cli.js";

const folders: string[] = [];

/** Removes the copies privateCli made (call it in afterEach). */
export function removeCliCopies(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

export type PrivateCli = ReturnType<typeof privateCli>;

/**
 * A copy of the built CLI in a fresh folder of the system's temp folder, readable by anyone: a test
 * may run it, or stage files there, as another user, who cannot reach a checkout under a 0700 folder.
 */
export function privateCli() {
  const root = mkdtempSync(join(tmpdir(), "foodctl-loader-"));
  folders.push(root);
  chmodSync(root, 0o755);
  const built = dirname(dirname(cliBin()));
  cpSync(join(built, "bin"), join(root, "bin"), { recursive: true });
  cpSync(join(built, "dist"), join(root, "dist"), { recursive: true });
  const cache = join(root, "cache");
  const run = (args: string[], env: Record<string, string | undefined> = {}, options: SpawnSyncOptions = {}) => {
    const result = spawnSync(process.execPath, [join(root, "bin", "foodctl.js"), ...args], {
      env: baseEnv({ XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: join(root, "config"), ...env }),
      encoding: "utf8",
      ...options,
    });
    return { code: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
  };
  /** The cache files of one file of dist/ (the hot bundle's by default; `config` for dist/cold/config.cjs). */
  const cacheFiles = (name = "foodctl", folder = join(cache, "foodctl")) =>
    existsSync(folder) ? readdirSync(folder).filter((file) => file.startsWith(`${name}-`)) : [];
  return {
    root,
    cache,
    run,
    cacheFiles,
    bundle: join(root, "dist", "foodctl.cjs"),
    cold: (name: string) => join(root, "dist", "cold", `${name}.cjs`),
  };
}

/** The bin's checksum: CRC-32 as 8 hex digits. */
export function checksum(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, "0");
}

/** A cache file's parts: the checksum in front, the commands it covers, V8's code cache (and where that starts). */
export function cacheParts(bytes: Buffer) {
  const listEnd = 6 + bytes.readUInt16BE(4);
  return {
    checksum: bytes.toString("hex", 0, 4),
    commands: bytes.toString("latin1", 6, listEnd).split("\n").filter(Boolean),
    dataStart: listEnd,
    data: bytes.subarray(listEnd),
  };
}

/** A cache file as the bin writes one: the checksum of the rest, then the list and V8's code cache. */
export function cacheFile(commands: string[], data: Buffer): Buffer {
  const list = Buffer.from(commands.join("\n"), "latin1");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(list.length);
  const body = Buffer.concat([length, list, data]);
  return Buffer.concat([Buffer.from(checksum(body), "hex"), body]);
}

// The CommonJS wrapper the build puts around each bundle: planted code must have the same length and shape.
const WRAPPER = ["(function (exports, require, module, __filename, __dirname) { ", "\n});"];

/**
 * Compiles `source` (the bundle, or code of the bundle's length) the way the bin does, in a fresh
 * Node with the CLI's flags, and returns V8's code cache; with `cachedData`, runs the bundle with
 * that cache instead and reports whether V8 took it. Runs in a child so its V8 flags are the CLI's.
 */
function compileInChild(bundle: string, mode: { plant: string } | { useCache: Buffer }) {
  const script = `
const fs = require("node:fs"), vm = require("node:vm");
const [bundle, mode, arg] = process.argv.slice(1);
const [start, end] = ${JSON.stringify(WRAPPER)};
const real = fs.readFileSync(bundle, "latin1");
if (mode === "plant") {
  const code = (start + arg).padEnd(real.length - end.length, " ") + end;
  process.stdout.write(new vm.Script(code, { filename: bundle }).createCachedData().toString("base64"));
} else {
  const script = new vm.Script(real, { filename: bundle, cachedData: fs.readFileSync(arg) });
  process.stdout.write(String(script.cachedDataRejected));
  if (!script.cachedDataRejected) script.runInThisContext()({}, require, { exports: {} }, bundle, "");
}`;
  let args = ["plant", "plant" in mode ? mode.plant : ""];
  if ("useCache" in mode) {
    const folder = runTempDir("foodctl-cache-data-");
    writeFileSync(join(folder, "data"), mode.useCache);
    args = ["use", join(folder, "data")];
  }
  // The CLI's environment (NODE_OPTIONS included): V8 takes a cache only under the flags it was made with.
  return spawnSync(process.execPath, ["-e", script, bundle, ...args], { encoding: "utf8", env: baseEnv() });
}

/**
 * V8's code cache for code of the bundle's length that writes `marker` (what a hostile user
 * would plant: V8 takes it for the bundle and runs that code).
 */
export function plantedCode(bundle: string, marker: string): Buffer {
  const result = compileInChild(bundle, { plant: `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "planted code ran\\n");` });
  if (result.status !== 0) throw new Error(`compiling the planted code failed: ${result.stderr}`);
  return Buffer.from(result.stdout, "base64");
}

/** Runs the bundle with `data` as its code cache in a plain Node (no checks of the bin's): how V8 alone treats it. */
export function runWithCodeCache(bundle: string, data: Buffer) {
  return compileInChild(bundle, { useCache: data });
}
