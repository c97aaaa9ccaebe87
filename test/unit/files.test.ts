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
const TEMPORARY = /^\.state\.json\.[0-9a-f]{12}\.tmp$/;

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

  it("writes through a temporary file of its own under a new random name each time, beside the target", async () => {
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
    const temporaries = [...seen].filter((name) => name !== "state.json");
    expect(temporaries).toHaveLength(2);
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
    writeFileAtomic(file, "new state");
    expect(readFileSync(file, "utf8")).toBe("new state");
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    for (const guess of guesses) expect(lstatSync(join(dir, guess)).isSymbolicLink()).toBe(true);
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
  it("removes only what writeFileAtomic names its temporaries beside that file", () => {
    const dir = tempDir();
    const names = [".state.json.0a1b2c3d4e5f.tmp", ".state.json.0A1B2C3D4E5F.tmp", ".state.json.0a1b.tmp", ".other.json.0a1b2c3d4e5f.tmp"];
    for (const name of [...names, "state.json"]) writeFileSync(join(dir, name), "");
    expect(removeLeftoverTemporaries(join(dir, "state.json"))).toEqual([".state.json.0a1b2c3d4e5f.tmp"]);
    expect(readdirSync(dir).sort()).toEqual([...names.slice(1), "state.json"].sort());
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
