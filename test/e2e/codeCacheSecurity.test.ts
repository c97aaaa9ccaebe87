/**
 * The code cache is used only when it is the user's own (issue 28, H1): a folder that is a link,
 * another user's, or writable by others, a file another user owns or may write to, a FIFO or a
 * link at a cache file's name: each runs the command uncached, silently, with its normal output.
 * What is planted is a real hostile cache (code of the bundle's length that writes a marker file,
 * with a valid checksum): a run that used it would leave the marker. Each test runs a private copy
 * of the built CLI staged in a fresh world-readable folder, so uid 65534 can run and plant there.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  cacheFile,
  cacheParts,
  checksum,
  plantedCode,
  privateCli,
  removeCliCopies,
  runWithCodeCache,
  type PrivateCli,
} from "./codeCacheFiles.js";
import { baseEnv } from "../helpers/cli.js";

afterAll(removeCliCopies);

const COMMAND = ["config", "list", "--json"];
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
/** Runs spawn several CLIs: a busy machine takes its time. */
const SLOW = { timeout: 120_000 };

interface Setup {
  cli: PrivateCli;
  expected: ReturnType<PrivateCli["run"]>;
  /** The name the bin gives the hot bundle's cache. */
  name: string;
  /** Where the planted code writes when it runs. */
  marker: string;
  /** A cache file for that name, valid checksum and all, whose code writes the marker. */
  planted: Buffer;
}
let shared: Setup | undefined;

/** One private CLI for the file, its uncached output, its cache's name and a hostile cache for that name. */
function setUp(): Setup {
  if (shared) {
    rmSync(shared.marker, { force: true });
    return shared;
  }
  const cli = privateCli();
  const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
  expect(expected.code).toBe(0);
  // The name is predictable from the bundle: learnt here from a run with a scratch cache folder.
  const scratch = join(cli.root, "scratch");
  expect(cli.run(COMMAND, { XDG_CACHE_HOME: scratch })).toEqual(expected);
  const name = cli.cacheFiles("foodctl", join(scratch, "foodctl"))[0]!;
  const marker = join(cli.root, "planted-code-ran");
  const planted = cacheFile(["config list"], plantedCode(cli.bundle, marker));
  // Where uid 65534 can copy it from (the CLI's folder is world-readable).
  writeFileSync(join(cli.root, "planted.code"), planted, { mode: 0o644 });
  shared = { cli, expected, name, marker, planted };
  return shared;
}

let homes = 0;
/** An XDG_CACHE_HOME no run used yet, and its foodctl folder. */
function freshHome(setup: Setup) {
  const home = join(setup.cli.root, `cache-home-${homes++}`);
  return { home, folder: join(home, "foodctl") };
}

/** Runs `command` as uid 65534; what it reads must be staged where that user can reach it (the CLI's world-readable folder). */
function asNobody(...command: string[]) {
  const result = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ...command], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
}

/** A run with `XDG_CACHE_HOME=home` prints what an uncached run prints, and the planted code did not run. */
function expectUncached(setup: Setup, home: string) {
  expect(setup.cli.run(COMMAND, { XDG_CACHE_HOME: home })).toEqual(setup.expected);
  expect(existsSync(setup.marker)).toBe(false);
}

describe("the code cache is used only when it is the user's own", () => {
  it("would run the planted code if V8 were handed it: the hostile cache of these tests is real", SLOW, () => {
    const { cli, marker, planted } = setUp();
    const used = runWithCodeCache(cli.bundle, cacheParts(planted).data);
    expect(used.stdout).toBe("false");
    expect(readFileSync(marker, "utf8")).toBe("planted code ran\n");
    rmSync(marker);
  });

  it.skipIf(!isRoot)("never runs a cache planted by another user (uid 65534) in a folder of theirs, whatever its mode", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(home);
    chownSync(home, NOBODY, NOBODY);
    asNobody("mkdir", folder);
    asNobody("cp", join(setup.cli.root, "planted.code"), join(folder, setup.name));
    for (const mode of [0o777, 0o755, 0o700]) {
      chmodSync(folder, mode);
      expectUncached(setup, home);
      // Nothing of root's is written into another user's folder.
      expect(readdirSync(folder)).toEqual([setup.name]);
      expect(lstatSync(join(folder, setup.name)).uid).toBe(NOBODY);
    }
  });

  it.skipIf(!isRoot)("never reads a file another user owns in the user's own folder, and replaces it", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, setup.name), setup.planted, { mode: 0o600 });
    chownSync(join(folder, setup.name), NOBODY, NOBODY);
    expectUncached(setup, home);
    const rewritten = readFileSync(join(folder, setup.name));
    expect(lstatSync(join(folder, setup.name)).uid).toBe(0);
    expect(cacheParts(rewritten).checksum).toBe(checksum(rewritten.subarray(4)));
  });

  it("ignores a cache folder that is a link, and writes nothing through it", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    const real = `${home}-real`;
    mkdirSync(real, { mode: 0o700 });
    writeFileSync(join(real, setup.name), setup.planted, { mode: 0o600 });
    mkdirSync(home);
    symlinkSync(real, folder);
    expectUncached(setup, home);
    expect(readdirSync(real)).toEqual([setup.name]);
    expect(readFileSync(join(real, setup.name)).equals(setup.planted)).toBe(true);
  });

  it.each([
    ["anyone", 0o777],
    ["its group", 0o775],
  ])("uses no cache below a folder %s may rename entries in (no sticky bit), and makes nothing there", (_who, mode) => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(home);
    chmodSync(home, mode);
    expectUncached(setup, home);
    expect(existsSync(folder)).toBe(false);
    // The sticky bit (as /tmp has) keeps others from renaming what is not theirs: used.
    chmodSync(home, mode | 0o1000);
    expect(setup.cli.run(COMMAND, { XDG_CACHE_HOME: home })).toEqual(setup.expected);
    expect(readdirSync(folder)).toContain(setup.name);
  });

  it("a cache folder swapped for a link while the command runs: the cache is written into the folder that was checked, never through the link", async () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const victim = join(setup.cli.root, "victim.txt");
    writeFileSync(victim, "the victim's file\n");
    // A command that waits for its stdin: the bin has checked and opened the cache folder by then.
    const child = spawn(process.execPath, [join(setup.cli.root, "bin", "foodctl.js"), "auth", "login", "--with-token"], {
      env: baseEnv({ XDG_CACHE_HOME: home, XDG_CONFIG_HOME: join(setup.cli.root, `config-${homes}`) }),
      stdio: ["pipe", "ignore", "ignore"],
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const opened = () =>
      readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === folder;
        } catch {
          return false;
        }
      });
    for (let waited = 0; !opened() && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened()).toBe(true);
    // The swap: the folder moves away; a link to a folder where the cache's name is a link to the victim's file takes its name.
    const elsewhere = `${home}-elsewhere`;
    mkdirSync(elsewhere);
    symlinkSync(victim, join(elsewhere, setup.name));
    renameSync(folder, `${folder}-checked`);
    symlinkSync(elsewhere, folder);
    child.stdin!.end("not-a-token\n");
    await exited;
    expect(readFileSync(victim, "utf8")).toBe("the victim's file\n");
    expect(lstatSync(join(elsewhere, setup.name)).isSymbolicLink()).toBe(true);
    expect(readdirSync(`${folder}-checked`)).toContain(setup.name);
  }, 60_000);

  it("ignores a cache folder its group or others may write to, and writes nothing there", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, setup.name), setup.planted, { mode: 0o600 });
    for (const mode of [0o777, 0o770, 0o702]) {
      chmodSync(folder, mode);
      expectUncached(setup, home);
      expect(readdirSync(folder)).toEqual([setup.name]);
    }
  });

  it("ignores a cache file its group or others may write to, and replaces it", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, setup.name), setup.planted);
    chmodSync(join(folder, setup.name), 0o666);
    expectUncached(setup, home);
    expect(lstatSync(join(folder, setup.name)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(folder, setup.name)).equals(setup.planted)).toBe(false);
  });

  it(
    "reads neither a FIFO nor a link (to /dev/zero, to the planted cache) at a cache file's name, and puts a cache file there",
    SLOW,
    () => {
      const setup = setUp();
      const { home, folder } = freshHome(setup);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const file = join(folder, setup.name);
      const stand = {
        fifo: () => expect(spawnSync("mkfifo", [file]).status).toBe(0),
        "link to /dev/zero": () => symlinkSync("/dev/zero", file),
        "link to the planted cache": () => symlinkSync(join(setup.cli.root, "planted.code"), file),
      };
      for (const [what, plant] of Object.entries(stand)) {
        plant();
        // Bounded: a run that opened the FIFO for reading, or read /dev/zero, would be killed here.
        const result = setup.cli.run(COMMAND, { XDG_CACHE_HOME: home }, { timeout: 20_000 });
        expect(result, what).toEqual(setup.expected);
        expect(existsSync(setup.marker), what).toBe(false);
        expect(lstatSync(file).isFile(), what).toBe(true);
        expect(readFileSync(join(setup.cli.root, "planted.code")).equals(setup.planted), what).toBe(true);
        // The next run uses the cache the last one wrote.
        expect(setup.cli.run(COMMAND, { XDG_CACHE_HOME: home }), what).toEqual(setup.expected);
        expect(
          readdirSync(folder).filter((name) => name.startsWith("foodctl-")),
          what,
        ).toEqual([setup.name]);
        rmSync(file);
      }
    },
  );

  it("never aborts on a damaged cache behind a valid header: V8 alone would crash on it", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    expect(setup.cli.run(COMMAND, { XDG_CACHE_HOME: home })).toEqual(setup.expected);
    const file = join(folder, setup.name);
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
    expect(setup.cli.run(COMMAND, { XDG_CACHE_HOME: home })).toEqual(setup.expected);
    const rewritten = readFileSync(file);
    expect(cacheParts(rewritten).checksum).toBe(checksum(rewritten.subarray(4)));
  });

  it("records command words in a cache file, never an option or its value (issue 28, L2)", SLOW, () => {
    const setup = setUp();
    const { home, folder } = freshHome(setup);
    const runs = [
      { args: ["--profile", "work", "--api-url", "https://svc:hunter2@api.example", "config", "path"], recorded: "-" },
      { args: ["config", "--profile", "work", "path"], recorded: "config" },
      { args: ["config", "path", "--profile", "secret-profile"], recorded: "config path" },
    ];
    for (const { args } of runs) expect(setup.cli.run(args, { XDG_CACHE_HOME: home }).code).toBe(0);
    const written = cacheParts(readFileSync(join(folder, setup.name)));
    expect(written.commands).toEqual(runs.map((run) => run.recorded));
  });

  it("works the same under --jitless, cached or not (the checksum needs no WebAssembly)", SLOW, () => {
    const setup = setUp();
    const { home } = freshHome(setup);
    // Node prints its own warning about the flag, with or without a cache.
    const expected = setup.cli.run(COMMAND, { NODE_OPTIONS: "--jitless", FOODCTL_NO_CACHE: "1" });
    expect(expected.code).toBe(0);
    expect(setup.cli.run(COMMAND, { NODE_OPTIONS: "--jitless", XDG_CACHE_HOME: home })).toEqual(expected);
    expect(setup.cli.run(COMMAND, { NODE_OPTIONS: "--jitless", XDG_CACHE_HOME: home })).toEqual(expected);
  });
});
