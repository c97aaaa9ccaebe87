/**
 * Runs that are not the user's own keep their journal out of ~/.local/state: the demo and the
 * benchmarks (scripts/lib.mjs cleanEnv) and in-process command tests (bufferIO). Otherwise
 * `foodctl journal` and `undo --last` would show changes sent to sandboxes long gone.
 */
import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import { journalDir } from "../../src/journal/store.js";
import { bufferIO } from "../helpers/bufferIO.js";
// @ts-expect-error: a plain .mjs module of the repository's scripts, without types
import { cleanEnv } from "../../scripts/lib.mjs";

describe("a private journal", () => {
  it("the demo's and benchmarks' environment puts the journal beside their private config", () => {
    const env = cleanEnv({ XDG_CONFIG_HOME: "/tmp/demo-config" }) as NodeJS.ProcessEnv;
    expect(env.XDG_STATE_HOME).toBe("/tmp/demo-config");
    expect(journalDir(env)).toBe("/tmp/demo-config/foodctl");
    expect((cleanEnv({ XDG_CONFIG_HOME: "/a", XDG_STATE_HOME: "/b" }) as NodeJS.ProcessEnv).XDG_STATE_HOME).toBe("/b");
  });

  it("an in-process test's IO never points the journal into the home folder", () => {
    for (const env of [{}, { HOME: homedir() }, { XDG_CONFIG_HOME: "/tmp/some-config" }]) {
      const dir = journalDir(bufferIO({ env }).io.env);
      expect(dir.startsWith(homedir())).toBe(false);
    }
    expect(journalDir(bufferIO({ env: { XDG_STATE_HOME: "/tmp/chosen" } }).io.env)).toBe("/tmp/chosen/foodctl");
  });
});
