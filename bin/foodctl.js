#!/usr/bin/env node
// The foodctl command (CommonJS: bin/package.json). It answers --version itself, then loads the
// hot bundle dist/foodctl.cjs compiled with a V8 code cache, and ends the process with the code
// run() returns (exit() in src/main.ts: the only place that does). The cold files the bundle
// loads on first use (dist/cold/*.cjs) load the same way, each with a cache of its own. Only this
// file and scripts/build.mjs know about bundles and caches. The command line is commander's: the
// bin reads it for its --version shortcut, and takes the command's words to label the cache.
//
// The cache lives in $XDG_CACHE_HOME/foodctl (default ~/.cache/foodctl), one file per file of
// dist/ (as written: its length, inode and times of last change), Node version, architecture and
// Node flags. It is used only when it is this user's own: a folder (not a link) owned by the
// effective user that no one else may write to, below folders no other user may rename entries
// in, opened once and used through that descriptor, holding regular files of that user, read
// without following links and up to a size. Anything else (another user's folder, a link, a FIFO, a
// damaged or rejected cache, a read-only folder) runs the bundle uncached and silently, writing a
// fresh cache where it can; FOODCTL_NO_CACHE=1 turns it off.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dist = path.join(__dirname, "..", "dist");
const argv = process.argv.slice(2);

/** A cache file larger than this is not read. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** Whose cache folder and files are used: none where there are no user ids. */
const euid = process.geteuid?.();

// --- the cache folder -------------------------------------------------------------------------

/**
 * The cache folder when it is this user's alone (created 0700 when missing), opened once: its
 * files are then reached through that descriptor (/proc/self/fd/N/…), so a folder swapped for a
 * link later is never read or written through. None when a folder above it lets another user
 * rename what is in it (she could swap the folder between the check and the write).
 */
function privateCacheDir(env) {
  if (euid === undefined || env.FOODCTL_NO_CACHE === "1") return undefined;
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(env.HOME || require("node:os").homedir(), ".cache");
  const dir = path.join(base, "foodctl");
  try {
    // Folders still missing are made by this user, 0700: the nearest one there decides.
    let existing = base;
    while (!fs.existsSync(existing)) existing = path.dirname(existing);
    if (othersMayRename(existing) || othersMayRename(fs.realpathSync.native(existing))) return undefined;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
    const stats = fs.fstatSync(fd);
    if (stats.uid !== euid || (stats.mode & 0o022) !== 0) return void fs.closeSync(fd);
    return fs.existsSync("/proc/self/fd")
      ? { path: `/proc/self/fd/${fd}`, check: () => true }
      : { path: dir, check: () => isSameDir(dir, stats) };
  } catch {
    return undefined;
  }
}

/** Whether a folder on the way to `dir` (itself included; a link's own folder, not the link) lets another user rename its entries. */
function othersMayRename(dir) {
  for (let folder = dir; ; folder = path.dirname(folder)) {
    const stats = fs.lstatSync(folder);
    if (
      !stats.isSymbolicLink() &&
      ((stats.uid !== euid && stats.uid !== 0) || ((stats.mode & 0o022) !== 0 && (stats.mode & 0o1000) === 0))
    ) {
      return true;
    }
    if (path.dirname(folder) === folder) return false;
  }
}

/** Where /proc is missing: whether `dir` is still the folder that was opened and checked. */
function isSameDir(dir, opened) {
  try {
    const stats = fs.lstatSync(dir);
    return stats.isDirectory() && stats.dev === opened.dev && stats.ino === opened.ino;
  } catch {
    return false;
  }
}

/** The bytes of `file` when it is a regular file of this user's that no one else may write to; opened without following a link. */
function readOwnFile(file) {
  let fd;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.uid !== euid || (stats.mode & 0o022) !== 0 || stats.size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const count = fs.readSync(fd, bytes, read, bytes.length - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// --- the checksum -------------------------------------------------------------------------------

// V8 checks a code cache's header (version, flags, source length, payload length) but not its
// payload: a damaged one can crash the process (SIGTRAP, SIGSEGV). So each cache file carries a
// CRC-32 of what follows it. Whose cache it is, not the checksum, keeps other people's code out
// (the folder and file checks above).
let crc32;
/** The CRC-32 of `bytes` as 8 hex digits (node:zlib's, native). */
function checksum(bytes) {
  crc32 ??= require("node:zlib").crc32;
  return crc32(bytes).toString(16).padStart(8, "0");
}

// --- cache files --------------------------------------------------------------------------------

// A cache file: the checksum of the rest (4 bytes), the length of the list (2 bytes), the commands
// whose functions it holds (one a line: "intake show"), then V8's code cache. A run of a command
// not in the list writes the cache again after it ran, so the cache grows to hold the functions
// of every command used, each compiled once.
const MAX_COMMANDS = 40;
const NO_CACHE = { data: undefined, commands: [] };

/** The code cache in `file` and the commands it covers; none when it is not this user's, or not the one written. */
function readCache(file) {
  const bytes = readOwnFile(file);
  if (bytes === undefined || bytes.length < 6 || bytes.toString("hex", 0, 4) !== checksum(bytes.subarray(4))) return NO_CACHE;
  const listEnd = 6 + bytes.readUInt16BE(4);
  if (listEnd > bytes.length) return NO_CACHE;
  const commands = bytes.toString("latin1", 6, listEnd).split("\n").filter(Boolean);
  return { data: bytes.subarray(listEnd), commands };
}

/** Writes a cache file through a fresh temporary file renamed over it (dist/files.cjs, src/files.ts); never an error. */
function writeCache(script, dir, file, commands) {
  try {
    // Without /proc, checked again: the folder may have been replaced while the command ran.
    if (!dir.check()) return;
    // Whatever stands at the name (a link, a FIFO) is replaced, never written through.
    const existing = fs.lstatSync(file, { throwIfNoEntry: false });
    if (existing !== undefined && !existing.isFile()) fs.unlinkSync(file);
    const list = Buffer.from(commands.join("\n"), "latin1");
    const length = Buffer.alloc(2);
    length.writeUInt16BE(list.length);
    const body = Buffer.concat([length, list, script.createCachedData()]);
    const { writeFileAtomic } = require(path.join(dist, "files.cjs"));
    writeFileAtomic(file, Buffer.concat([Buffer.from(checksum(body), "hex"), body]));
  } catch {
    // A cache that cannot be written costs the next run some milliseconds, never an error.
  }
}

/**
 * What the cache says it covers: the leading words that look like command names ("intake show" of
 * `intake show 1002 --json`), at most two; never an option or its value (`--api-url https://u:p@h`).
 */
function commandOf(words) {
  const names = [];
  for (const word of words) {
    if (names.length === 2 || !/^[a-z]+(-[a-z]+)*$/.test(word)) break;
    names.push(word);
  }
  return names.join(" ") || "-";
}

/**
 * Which file of dist/ a cache was made for: its length, inode, and times of last change, so a file
 * written again (a rebuild, an update, an edit to the same length) gets a cache of its own. V8
 * itself checks only the source's length, and would run a cache made for other source of that length.
 */
const fileKey = (stats, length) =>
  [length, stats.ino, Math.trunc(stats.mtimeMs * 1000), Math.trunc(stats.ctimeMs * 1000)].map((n) => n.toString(36)).join("-");

let runtimeKey;
/** What else a code cache depends on: the Node version, the architecture and Node's flags. */
const runtime = () =>
  (runtimeKey ??= checksum(Buffer.from(`${process.version} ${process.arch} ${process.execArgv.join(" ")}`)).slice(0, 8));

// --- loading dist/ ------------------------------------------------------------------------------

/** The cache folder, looked for once a run. */
let cacheDir;
/** A module of the hot file by source path, for the cold files (`require("foodctl-hot:src/errors.ts")`, scripts/build.mjs). */
let hotModule;
/** Cold files already loaded, by path: each is evaluated once, like a module Node loads. */
const coldModules = new Map();

// Node's own CommonJS wrapper (require("node:module").wrap), which the build puts around each file this
// compiles (scripts/build.mjs): its length is taken off the first line of a stack trace.
const WRAPPER_START = "(function (exports, require, module, __filename, __dirname) { ";

/**
 * Compiles and runs one file of dist/ (a CommonJS module in Node's wrapper, as the build writes it),
 * with its code cache when there is a good one; `module` is what the file exports into.
 */
function loadCached(file, module = { exports: {} }) {
  const fd = fs.openSync(file, "r");
  let bytes;
  let stats;
  try {
    stats = fs.fstatSync(fd);
    bytes = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // The build keeps its files ASCII: Latin-1 decodes them as UTF-8 would, and faster.
  const source = bytes.toString("latin1");
  const dir = (cacheDir ??= { dir: privateCacheDir(process.env) }).dir;
  let cacheFile;
  let cached = NO_CACHE;
  try {
    if (dir !== undefined && dir.check()) {
      cacheFile = path.join(dir.path, `${path.basename(file, ".cjs")}-${fileKey(stats, bytes.length)}-${runtime()}.code`);
      cached = readCache(cacheFile);
    }
  } catch {
    cacheFile = undefined;
  }
  const vm = require("node:vm");
  const script = new vm.Script(source, { filename: file, cachedData: cached.data });
  compiledFiles.add(file);
  const command = commandOf(argv);
  const usable = cached.data !== undefined && !script.cachedDataRejected;
  if (cacheFile !== undefined && (!usable || (!cached.commands.includes(command) && cached.commands.length < MAX_COMMANDS))) {
    // After the command ran, so the cache holds the functions it compiled too.
    const commands = usable ? [...cached.commands, command] : [command];
    process.once("exit", () => writeCache(script, dir, cacheFile, commands));
  }
  script.runInThisContext()(module.exports, requireFrom(file), module, file, path.dirname(file));
  return module.exports;
}

/**
 * The `require` of a file of dist/: a module of the hot file comes from its lookup, a cold file
 * (`./cold/x.cjs`, `./x.cjs` between cold files) loads through loadCached, anything else as Node
 * loads it. The bundles require only those, Node's modules and packages, which this file's own
 * `require` finds as one in dist/ would (both look in the package's node_modules); a relative path
 * is made absolute first.
 */
function requireFrom(file) {
  const cold = path.join(dist, "cold");
  const from = path.dirname(file);
  const coldRequire = (id) => {
    if (id.startsWith("foodctl-hot:")) return hotModule(id.slice("foodctl-hot:".length));
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

// --- stack traces -------------------------------------------------------------------------------

/** The files of dist/ compiled above: Node maps the stack frames of the files it loads itself only. */
const compiledFiles = new Set();
const sourceMaps = new Map();

/**
 * Once source maps are on (--verbose and FOODCTL_DEBUG=1 turn them on, as does Node's
 * --enable-source-maps), a stack trace through the files compiled above names the sources, as
 * Node does for the files it loads; their maps are read when a trace first needs them.
 */
function mapStackTraces() {
  const nodeStackTrace = Error.prepareStackTrace;
  if (typeof nodeStackTrace !== "function") return;
  Error.prepareStackTrace = (error, frames) => {
    if (!process.sourceMapsEnabled || !frames.some((frame) => compiledFiles.has(frame.getFileName()))) return nodeStackTrace(error, frames);
    let heading;
    try {
      heading = Error.prototype.toString.call(error);
    } catch {
      heading = "<error>";
    }
    return heading + frames.map((frame) => `\n    at ${mappedFrame(frame)}`).join("");
  };
}

/** V8's text of a frame, its place in dist/ replaced by the place in the sources when the map has one. */
function mappedFrame(frame) {
  const text = String(frame);
  const file = frame.getFileName();
  if (!compiledFiles.has(file)) return text;
  try {
    if (!sourceMaps.has(file)) {
      const { SourceMap } = require("node:module");
      sourceMaps.set(file, new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8"))));
    }
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    // The first line starts with the wrapper's text, which the map does not know.
    const entry = sourceMaps.get(file).findEntry(line - 1, column - 1 - (line === 1 ? WRAPPER_START.length : 0));
    if (entry.originalSource === undefined) return text;
    const source = path.resolve(path.dirname(file), entry.originalSource);
    return text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  } catch {
    sourceMaps.set(file, { findEntry: () => ({}) });
    return text;
  }
}

function main() {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    process.stdout.write(fs.readFileSync(path.join(dist, "version.txt"), "utf8"));
    return;
  }
  const bundle = path.join(dist, "foodctl.cjs");
  mapStackTraces();
  const hot = loadCached(bundle);
  hotModule = hot.hotModule;
  hot.run(argv).then(hot.exit);
}

main();
