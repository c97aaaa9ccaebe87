/**
 * The code cache is used only when it is the user's own (issue 28, H1): a folder that is a link,
 * another user's, or writable by others, a file another user owns or may write to, a FIFO or a
 * link at a cache file's name: each runs the command uncached, silently, with its normal output.
 * What is planted is a real hostile cache (code of the bundle's length that writes a marker file,
 * with a valid checksum): a run that used it would leave the marker. Each test runs a private copy
 * of the built CLI staged in a fresh world-readable folder, so uid 65534 can run and plant there.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  cacheFile,
  cacheParts,
  fnv64,
  plantedCode,
  privateCli,
  removeCliCopies,
  runWithCodeCache,
  type PrivateCli,
} from "./codeCacheFiles.js";

afterEach(removeCliCopies);

const COMMAND = ["config", "list", "--json"];
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** A private CLI, its uncached output, the name its hot bundle's cache takes, and a hostile cache for that name. */
function setUp() {
  const cli = privateCli();
  const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
  expect(expected.code).toBe(0);
  // The name is predictable from the bundle: learnt here from a run with a scratch cache folder.
  const scratch = join(cli.root, "scratch");
  expect(cli.run(COMMAND, { XDG_CACHE_HOME: scratch })).toEqual(expected);
  const name = cli.cacheFiles("foodctl", join(scratch, "foodctl"))[0]!;
  const marker = join(cli.root, "planted-code-ran");
  const planted = cacheFile(["config list"], plantedCode(cli.bundle, marker));
  return { cli, expected, name, marker, planted };
}

/** Runs `command` as uid 65534; what it reads must be staged where that user can reach it (the CLI's world-readable folder). */
function asNobody(...command: string[]) {
  const result = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ...command], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
}

/** A run with `XDG_CACHE_HOME=xdg` prints what an uncached run prints, and the planted code did not run. */
function expectUncached(setup: ReturnType<typeof setUp>, xdg: string, cli: PrivateCli = setup.cli) {
  expect(cli.run(COMMAND, { XDG_CACHE_HOME: xdg })).toEqual(setup.expected);
  expect(existsSync(setup.marker)).toBe(false);
}

describe("the code cache is used only when it is the user's own", () => {
  it("would run the planted code if V8 were handed it: the hostile cache of these tests is real", () => {
    const { cli, marker, planted } = setUp();
    const used = runWithCodeCache(cli.bundle, cacheParts(planted).data);
    expect(used.stdout).toBe("false");
    expect(readFileSync(marker, "utf8")).toBe("planted code ran\n");
  });

  it.skipIf(!isRoot)("never runs a cache planted by another user (uid 65534) in a folder of theirs, whatever its mode", () => {
    const setup = setUp();
    const xdg = join(setup.cli.root, "xdg-of-nobody");
    mkdirSync(xdg);
    chownSync(xdg, NOBODY, NOBODY);
    const folder = join(xdg, "foodctl");
    const staged = join(setup.cli.root, "planted.code");
    writeFileSync(staged, setup.planted, { mode: 0o644 });
    asNobody("mkdir", folder);
    asNobody("cp", staged, join(folder, setup.name));
    for (const mode of [0o777, 0o755, 0o700]) {
      chmodSync(folder, mode);
      expectUncached(setup, xdg);
      // Nothing of root's is written into another user's folder.
      expect(readdirSync(folder)).toEqual([setup.name]);
      expect(lstatSync(join(folder, setup.name)).uid).toBe(NOBODY);
    }
  });

  it.skipIf(!isRoot)("never reads a file another user owns in the user's own folder, and replaces it", () => {
    const setup = setUp();
    const folder = join(setup.cli.cache, "foodctl");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, setup.name), setup.planted, { mode: 0o600 });
    chownSync(join(folder, setup.name), NOBODY, NOBODY);
    expectUncached(setup, setup.cli.cache);
    const rewritten = readFileSync(join(folder, setup.name));
    expect(lstatSync(join(folder, setup.name)).uid).toBe(0);
    expect(cacheParts(rewritten).checksum).toBe(fnv64(rewritten.subarray(8)));
  });

  it("ignores a cache folder that is a link, and writes nothing through it", () => {
    const setup = setUp();
    const real = join(setup.cli.root, "real-cache");
    mkdirSync(real, { mode: 0o700 });
    writeFileSync(join(real, setup.name), setup.planted, { mode: 0o600 });
    const xdg = join(setup.cli.root, "xdg");
    mkdirSync(xdg);
    symlinkSync(real, join(xdg, "foodctl"));
    expectUncached(setup, xdg);
    expect(readdirSync(real)).toEqual([setup.name]);
    expect(readFileSync(join(real, setup.name)).equals(setup.planted)).toBe(true);
  });

  it("ignores a cache folder its group or others may write to, and writes nothing there", () => {
    const setup = setUp();
    const folder = join(setup.cli.cache, "foodctl");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, setup.name), setup.planted, { mode: 0o600 });
    for (const mode of [0o777, 0o770, 0o702]) {
      chmodSync(folder, mode);
      expectUncached(setup, setup.cli.cache);
      expect(readdirSync(folder)).toEqual([setup.name]);
    }
  });

  it("ignores a cache file its group or others may write to, and replaces it", () => {
    const setup = setUp();
    const folder = join(setup.cli.cache, "foodctl");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, setup.name), setup.planted);
    chmodSync(join(folder, setup.name), 0o666);
    expectUncached(setup, setup.cli.cache);
    expect(lstatSync(join(folder, setup.name)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(folder, setup.name)).equals(setup.planted)).toBe(false);
  });

  it("reads neither a FIFO nor a link (to /dev/zero, to the planted cache) at a cache file's name, and puts a cache file there", () => {
    const setup = setUp();
    const folder = join(setup.cli.cache, "foodctl");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, setup.name);
    writeFileSync(join(setup.cli.root, "planted.code"), setup.planted, { mode: 0o600 });
    const stand = {
      fifo: () => expect(spawnSync("mkfifo", [file]).status).toBe(0),
      "link to /dev/zero": () => symlinkSync("/dev/zero", file),
      "link to the planted cache": () => symlinkSync(join(setup.cli.root, "planted.code"), file),
    };
    for (const [what, plant] of Object.entries(stand)) {
      plant();
      // Bounded: a run that opened the FIFO for reading, or read /dev/zero, would be killed here.
      const result = setup.cli.run(COMMAND, {}, { timeout: 20_000 });
      expect(result, what).toEqual(setup.expected);
      expect(existsSync(setup.marker), what).toBe(false);
      expect(lstatSync(file).isFile(), what).toBe(true);
      expect(readFileSync(join(setup.cli.root, "planted.code")).equals(setup.planted), what).toBe(true);
      // The next run uses the cache the last one wrote.
      expect(setup.cli.run(COMMAND), what).toEqual(setup.expected);
      expect(
        readdirSync(folder).filter((name) => name.startsWith("foodctl-")),
        what,
      ).toEqual([setup.name]);
      rmSync(file);
    }
  });

  it("never aborts on a damaged cache behind a valid header: V8 alone would crash on it", () => {
    const setup = setUp();
    expect(setup.cli.run(COMMAND)).toEqual(setup.expected);
    const file = join(setup.cli.cache, "foodctl", setup.name);
    const good = readFileSync(file);
    const { dataStart, data } = cacheParts(good);
    // A byte of V8's payload (past its header) that V8 itself does not check and crashes on.
    let crashing: number | undefined;
    for (let step = 0; step < 60 && crashing === undefined; step++) {
      const at = 64 + ((step * 7919) % (data.length - 64));
      const damaged = Buffer.from(data);
      damaged[at]! ^= 0xff;
      const alone = runWithCodeCache(setup.cli.bundle, damaged);
      if (alone.signal !== null) crashing = at;
    }
    expect(crashing, "no damage found that V8 crashes on").toBeDefined();
    const damaged = Buffer.from(good);
    damaged[dataStart + crashing!]! ^= 0xff;
    writeFileSync(file, damaged);
    const result = setup.cli.run(COMMAND);
    expect(result).toEqual(setup.expected);
    const rewritten = readFileSync(file);
    expect(cacheParts(rewritten).checksum).toBe(fnv64(rewritten.subarray(8)));
  });

  it("records command words in a cache file, never an option or its value (issue 28, L2)", () => {
    const cli = privateCli();
    const runs = [
      { args: ["--profile", "work", "--api-url", "https://svc:hunter2@api.example", "config", "path"], recorded: "-" },
      { args: ["config", "--profile", "work", "path"], recorded: "config" },
      { args: ["config", "path", "--profile", "secret-profile"], recorded: "config path" },
    ];
    for (const { args } of runs) expect(cli.run(args).code).toBe(0);
    const written = cacheParts(readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!)));
    expect(written.commands).toEqual(runs.map((run) => run.recorded));
  });

  it("runs uncached and writes nothing where WebAssembly is off (--jitless)", () => {
    const cli = privateCli();
    // Node prints its own warning about the flag, with or without a cache.
    const expected = cli.run(COMMAND, { NODE_OPTIONS: "--jitless", FOODCTL_NO_CACHE: "1" });
    expect(expected.code).toBe(0);
    expect(cli.run(COMMAND, { NODE_OPTIONS: "--jitless" })).toEqual(expected);
    expect(cli.cacheFiles()).toEqual([]);
  });
});
