/** writeFileAtomic: the whole file or the old one, written through a temporary that leaves nothing behind. */
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/files.js";
import { runTempDir } from "../helpers/cli.js";

describe("writeFileAtomic", () => {
  it("creates a private file, replaces it whole, and leaves nothing else in the folder", () => {
    const dir = runTempDir("foodctl-atomic-");
    const file = join(dir, "state.json");
    writeFileAtomic(file, "first");
    expect(readFileSync(file, "utf8")).toBe("first");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomic(file, Buffer.from("second"), { mode: 0o644 });
    expect(readFileSync(file, "utf8")).toBe("second");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("never uses what stands at a temporary name someone could guess", () => {
    const dir = runTempDir("foodctl-atomic-");
    const victim = join(dir, "victim");
    writeFileSync(victim, "untouched");
    // Names a writer could guess: the old spelling of the temporary name, and one of the temporary prefix.
    symlinkSync(victim, join(dir, ".state.json.tmp"));
    mkdirSync(join(dir, ".state.json."));
    writeFileAtomic(join(dir, "state.json"), "written");
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe("written");
    expect(readFileSync(victim, "utf8")).toBe("untouched");
    expect(readdirSync(dir).sort()).toEqual([".state.json.", ".state.json.tmp", "state.json", "victim"]);
  });

  it("writes through a link to the file it names, and the link stays", () => {
    const dir = runTempDir("foodctl-atomic-");
    writeFileSync(join(dir, "real"), "old");
    symlinkSync(join(dir, "real"), join(dir, "link"));
    writeFileAtomic(join(dir, "link"), "new");
    expect(lstatSync(join(dir, "link")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real"), "utf8")).toBe("new");
    expect(readdirSync(dir).sort()).toEqual(["link", "real"]);
  });
});
