import { describe, expect, it } from "vitest";
import { decideColor } from "../../src/io.js";

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe("decideColor", () => {
  it("colours a terminal", () => {
    expect(decideColor(tty, {}, false)).toBe(true);
  });

  it("does not colour a pipe or a file", () => {
    expect(decideColor(pipe, {}, false)).toBe(false);
    expect(decideColor({ write: () => true }, {}, false)).toBe(false);
  });

  it("turns colour off with --no-color, even when forced", () => {
    expect(decideColor(tty, {}, true)).toBe(false);
    expect(decideColor(tty, { FORCE_COLOR: "1" }, true)).toBe(false);
  });

  it("turns colour off with any non-empty NO_COLOR, which beats FORCE_COLOR", () => {
    expect(decideColor(tty, { NO_COLOR: "1" }, false)).toBe(false);
    expect(decideColor(tty, { NO_COLOR: "0" }, false)).toBe(false);
    expect(decideColor(tty, { NO_COLOR: "1", FORCE_COLOR: "1" }, false)).toBe(false);
  });

  it("ignores an empty NO_COLOR", () => {
    expect(decideColor(tty, { NO_COLOR: "" }, false)).toBe(true);
  });

  it("forces colour on a pipe with FORCE_COLOR", () => {
    expect(decideColor(pipe, { FORCE_COLOR: "1" }, false)).toBe(true);
    expect(decideColor(pipe, { FORCE_COLOR: "3" }, false)).toBe(true);
  });

  it("turns colour off with FORCE_COLOR=0 or false, even on a terminal", () => {
    expect(decideColor(tty, { FORCE_COLOR: "0" }, false)).toBe(false);
    expect(decideColor(tty, { FORCE_COLOR: "false" }, false)).toBe(false);
  });

  it("does not colour a dumb terminal", () => {
    expect(decideColor(tty, { TERM: "dumb" }, false)).toBe(false);
  });
});
