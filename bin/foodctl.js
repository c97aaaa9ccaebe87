#!/usr/bin/env node
// The foodctl command (CommonJS: bin/package.json). It answers --version itself, then loads the
// hot bundle dist/foodctl.cjs compiled with a V8 code cache, and ends the process with the code
// run() returns (exit() in src/main.ts: the only place that does). The cold files the bundle
// loads on first use (dist/cold/*.cjs) load the same way, each with a cache of its own.
//
// The cache lives in $XDG_CACHE_HOME/foodctl (default ~/.cache/foodctl), one file per bundle
// file, its content, Node version, architecture and Node flags (V8 itself only checks the
// source's length: a same-length edit would run old code). Each file starts with the CRC-32 of the
// code cache it holds: V8 does not check one, and a damaged cache can crash it. CRC-32 (zlib)
// rather than SHA-256: node:crypto costs ~3 ms to load at every start, and no one attacks a
// cache folder of their own. Any trouble
// (no folder, read-only, corrupt, rejected, a file where the folder should be) runs the bundle
// uncached and silently, writing a fresh cache where it can; FOODCTL_NO_CACHE=1 turns it off.
// With --verbose (or FOODCTL_DEBUG=1) the bundle is loaded plainly, so stack traces keep their
// source maps.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "..", "dist");
const argv = process.argv.slice(2);

function cacheDir(env) {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(env.HOME || require("node:os").homedir(), ".cache");
  return path.join(base, "foodctl");
}

// zlib's CRC-32 through its binding: node:zlib itself (streams and all) costs ~2.5 ms to load at
// every start, its binding 0.1 ms. node:zlib where the binding is missing or warned about.
function crc32Function() {
  const zlib = () => require("node:zlib").crc32;
  if (process.noDeprecation !== true && /--pending-deprecation/.test(`${process.execArgv} ${process.env.NODE_OPTIONS ?? ""}`))
    return zlib();
  try {
    const binding = process.binding("zlib");
    return typeof binding.crc32 === "function" ? (data) => binding.crc32(data, 0) : zlib();
  } catch {
    return zlib();
  }
}
let crc32Of;
const crc32 = (data) => (crc32Of ??= crc32Function())(data) >>> 0;

// A cache file: CRC-32 of the rest (4 bytes), the length of the list (2 bytes), the commands
// whose functions it holds (one a line: "intake show"), then V8's code cache. A run of a command
// not in the list writes the cache again after it ran, so the cache grows to hold the functions
// of every command used, each compiled once.
const MAX_COMMANDS = 40;

/** The code cache in `file` and the commands it covers; none when it is missing or not the one written. */
function readCache(file) {
  try {
    const bytes = fs.readFileSync(file);
    if (bytes.length < 7 || bytes.readUInt32BE(0) !== crc32(bytes.subarray(4))) return { data: undefined, commands: [] };
    const listEnd = 6 + bytes.readUInt16BE(4);
    const commands = bytes.toString("latin1", 6, listEnd).split("\n").filter(Boolean);
    return { data: bytes.subarray(listEnd), commands };
  } catch {
    return { data: undefined, commands: [] };
  }
}

function writeCache(script, dir, file, commands) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const list = Buffer.from(commands.join("\n"), "latin1");
    const head = Buffer.alloc(6);
    head.writeUInt16BE(list.length, 4);
    const body = Buffer.concat([head.subarray(4), list, script.createCachedData()]);
    head.writeUInt32BE(crc32(body));
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, Buffer.concat([head.subarray(0, 4), body]), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // A cache that cannot be written costs the next run some milliseconds, never an error.
  }
}

/** "intake show" of `intake show 1002 --json`: what the cache says it covers (Latin-1, a line). */
const commandOf = (words) =>
  words
    .filter((word) => !word.startsWith("-"))
    .slice(0, 2)
    .join(" ")
    .replace(/[^\x20-\x7e]/g, "?") || "-";

let runtimeKey;
/** What else a code cache depends on: the Node version, the architecture and Node's flags. */
const runtime = () => (runtimeKey ??= crc32(Buffer.from(`${process.version} ${process.arch} ${process.execArgv.join(" ")}`)).toString(16));

/** Cold files already loaded, by path: each is evaluated once, like a module Node loads. */
const coldModules = new Map();

// Node's own CommonJS wrapper (require("node:module").wrap): that module, and what it loads, cost ~0.25 ms a start.
const WRAPPER = ["(function (exports, require, module, __filename, __dirname) { ", "\n});"];

/**
 * Compiles and runs one file of dist/ as a CommonJS module, with its code cache when there is a
 * good one; `module` is what the file exports into.
 */
function loadCached(file, module = { exports: {} }) {
  const bytes = fs.readFileSync(file);
  // The build keeps its files ASCII: Latin-1 decodes them as UTF-8 would, and faster.
  const source = bytes.toString("latin1");
  const key = `${path.basename(file, ".cjs")}-${crc32(bytes).toString(16)}-${bytes.length.toString(16)}-${runtime()}`;
  const dir = cacheDir(process.env);
  const cacheFile = path.join(dir, `${key}.code`);
  const cached = readCache(cacheFile);
  const vm = require("node:vm");
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], { filename: file, cachedData: cached.data });
  const command = commandOf(argv);
  const usable = cached.data !== undefined && !script.cachedDataRejected;
  if (!usable || (!cached.commands.includes(command) && cached.commands.length < MAX_COMMANDS)) {
    // After the command ran, so the cache holds the functions it compiled too.
    const commands = usable ? [...cached.commands, command] : [command];
    process.once("exit", () => writeCache(script, dir, cacheFile, commands));
  }
  script.runInThisContext()(module.exports, requireFrom(file), module, file, path.dirname(file));
  return module.exports;
}

/**
 * The `require` of a file of dist/: a cold file (`./cold/x.cjs`, `./x.cjs` between cold files)
 * loads through loadCached, anything else as Node loads it. The bundles require only those, Node's
 * modules and packages, which this file's own `require` finds as one in dist/ would (both look in
 * the package's node_modules); a relative path is made absolute first.
 */
function requireFrom(file) {
  const cold = path.join(dist, "cold");
  const from = path.dirname(file);
  const coldRequire = (id) => {
    const target = id.startsWith("./") || id.startsWith("../") ? path.join(from, id) : undefined;
    if (target === undefined || !target.endsWith(".cjs") || path.dirname(target) !== cold) return require(target ?? id);
    let module = coldModules.get(target);
    if (!module) {
      module = { exports: {} };
      // Known before it runs, as Node does, so a file that requires back gets what is there so far.
      coldModules.set(target, module);
      try {
        loadCached(target, module);
      } catch (error) {
        coldModules.delete(target);
        throw error;
      }
    }
    return module.exports;
  };
  return Object.assign(coldRequire, { resolve: require.resolve, cache: require.cache });
}

function main() {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    process.stdout.write(fs.readFileSync(path.join(dist, "version.txt"), "utf8"));
    return;
  }
  const bundle = path.join(dist, "foodctl.cjs");
  const verbose = argv.includes("--verbose") || process.env.FOODCTL_DEBUG === "1";
  // Before the bundle loads: Node maps the stack traces of the files it loads after this.
  if (verbose) process.setSourceMapsEnabled(true);
  const hot = verbose || process.env.FOODCTL_NO_CACHE === "1" ? require(bundle) : loadCached(bundle);
  hot.run(argv).then(hot.exit);
}

main();
