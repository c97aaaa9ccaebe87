/** writeFileAtomic and its helpers (src/files.ts): whole files or nothing, never through a planted name. */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diskFullHint, removeLeftoverTemporaries, writeAll, writeFileAtomic } from "../../src/files.js";
import { runTempDir } from "../helpers/tempDir.js";

const tempDir = () => runTempDir("foodctl-files-");
/** The folder mkdtemp makes for each write: `.state.json.` and six random letters or digits. */
const TEMPORARY = /^\.state\.json\.[A-Za-z0-9]{6}$/;

describe("writeFileAtomic", () => {
  it("replaces the file whole, creates a new one private (0600) or with the mode asked, and leaves no temporary", () => {
    const dir = tempDir();
    const file = join(dir, "state.json");
    writeFileAtomic(file, "first\n");
    expect(readFileSync(file, "utf8")).toBe("first\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomic(file, Buffer.from("second\n"));
    expect(readFileSync(file, "utf8")).toBe("second\n");
    writeFileAtomic(join(dir, "report.xml"), "<xml/>", { mode: 0o644 });
    expect(statSync(join(dir, "report.xml")).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir).sort()).toEqual(["report.xml", "state.json"]);
  });

  it("writes through a temporary folder of its own under a new random name each time, beside the target", async () => {
    const dir = tempDir();
    const file = join(dir, "state.json");
    const seen = new Set<string>();
    const watcher = watch(dir, (_event, name) => name && seen.add(String(name)));
    try {
      writeFileAtomic(file, "one");
      writeFileAtomic(file, "two");
      for (let waited = 0; [...seen].filter((name) => TEMPORARY.test(name)).length < 2 && waited < 2000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      watcher.close();
    }
    const temporaries = [...seen].filter((name) => TEMPORARY.test(name));
    expect(new Set(temporaries).size).toBe(2);
    for (const name of temporaries) expect(name).toMatch(TEMPORARY);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("never follows a link planted at a guessable temporary name: the file it names stays as it was", () => {
    const dir = tempDir();
    const file = join(dir, "state.json");
    const victim = join(dir, "victim");
    writeFileSync(victim, "keep me");
    const guesses = ["state.json.tmp", `state.json.${process.pid}.tmp`, ".state.json.tmp", `.state.json.${process.pid}.tmp`];
    for (const guess of guesses) symlinkSync(victim, join(dir, guess));
    // And a folder named as mkdtemp's prefix is: it adds to the prefix, never uses it.
    mkdirSync(join(dir, ".state.json."));
    writeFileAtomic(file, "new state");
    expect(readFileSync(file, "utf8")).toBe("new state");
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    for (const guess of guesses) expect(lstatSync(join(dir, guess)).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([...guesses, ".state.json.", "state.json", "victim"].sort());
  });

  it("writes through a link to the file it names: the link stays a link", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "state.json"), "old");
    symlinkSync(join(dir, "real", "state.json"), join(dir, "state.json"));
    writeFileAtomic(join(dir, "state.json"), "new");
    expect(lstatSync(join(dir, "state.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real", "state.json"), "utf8")).toBe("new");
    expect(readdirSync(join(dir, "real"))).toEqual(["state.json"]);
  });

  it("writes a target that is not a regular file (a FIFO) in place instead of renaming over it", () => {
    const dir = tempDir();
    const fifo = join(dir, "report.xml");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // A reader that is already there (opened without waiting), so the write does not wait for one.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      writeFileAtomic(fifo, "<testsuites/>\n");
      const buffer = Buffer.alloc(100);
      expect(buffer.toString("utf8", 0, readSync(reader, buffer))).toBe("<testsuites/>\n");
    } finally {
      closeSync(reader);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(["report.xml"]);
  });

  it("leaves the target as it was and no temporary when the folder cannot take the file", () => {
    const dir = tempDir();
    expect(() => writeFileAtomic(join(dir, "missing", "state.json"), "x")).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("writeAll", () => {
  it("throws when the device takes no more (ENOSPC), rather than returning after part of the data", () => {
    const fd = openSync("/dev/full", "w");
    try {
      expect(() => writeAll(fd, "x".repeat(100_000))).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    } finally {
      closeSync(fd);
    }
  });
});

describe("removeLeftoverTemporaries", () => {
  it("removes the temporary folders writeFileAtomic left beside that file, with their data, and nothing else", () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".state.json.a1B2c3"));
    writeFileSync(join(dir, ".state.json.a1B2c3", "data"), "half a state");
    mkdirSync(join(dir, ".state.json.Zz9Yy8"));
    const others = [".state.json.a1B2", ".state.json.a1B2c3d4", ".other.json.a1B2c3", "state.json.a1B2c3"];
    for (const name of others) mkdirSync(join(dir, name));
    writeFileSync(join(dir, ".state.json.q1w2e3"), "a file, not a writer's folder");
    writeFileSync(join(dir, "state.json"), "{}");
    expect(removeLeftoverTemporaries(join(dir, "state.json")).sort()).toEqual([".state.json.Zz9Yy8", ".state.json.a1B2c3"]);
    expect(readdirSync(dir).sort()).toEqual([...others, ".state.json.q1w2e3", "state.json"].sort());
    expect(removeLeftoverTemporaries(join(dir, "missing", "state.json"))).toEqual([]);
  });
});

describe("diskFullHint", () => {
  it("names ENOSPC for a full disk and says nothing for other failures", () => {
    expect(diskFullHint(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }))).toBe(
      "the disk is full (ENOSPC): free some space",
    );
    expect(diskFullHint(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" }))).toBeUndefined();
    expect(diskFullHint(undefined)).toBeUndefined();
  });
});
