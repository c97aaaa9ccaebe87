/** The picture in a terminal: which protocol a terminal speaks, the cells a picture takes, and each protocol's escape sequences. */
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import {
  fitCells,
  halfBlockImage,
  hasTrueColor,
  imageProtocol,
  itermImage,
  kittyImage,
  type RgbaImage,
} from "../../src/output/terminalImage.js";

const ESC = "\u001b";

/** An RGBA image from rows of [r, g, b, a] pixels. */
function rgba(rows: Array<Array<[number, number, number, number]>>): RgbaImage {
  return { width: rows[0]!.length, height: rows.length, data: Uint8Array.from(rows.flat(2)) };
}

describe("imageProtocol", () => {
  it.each([
    [{ KITTY_WINDOW_ID: "1", TERM: "xterm-kitty" }, "kitty"],
    [{ TERM: "xterm-kitty" }, "kitty"],
    [{ TERM_PROGRAM: "ghostty", TERM: "xterm-ghostty" }, "kitty"],
    [{ TERM_PROGRAM: "iTerm.app", TERM: "xterm-256color" }, "iterm"],
    [{ TERM_PROGRAM: "WezTerm", TERM: "xterm-256color" }, "iterm"],
    [{ LC_TERMINAL: "iTerm2", TERM: "xterm-256color" }, "iterm"],
    [{ KONSOLE_VERSION: "230805", TERM: "xterm-256color" }, "kitty"],
    [{ KONSOLE_VERSION: "210802", TERM: "xterm-256color" }, "blocks"],
    [{ TERM: "xterm-256color" }, "blocks"],
    [{ TERM_PROGRAM: "Apple_Terminal", TERM: "xterm-256color" }, "blocks"],
    [{}, "blocks"],
    // Inside tmux or screen the outer terminal's protocol is not reached: half-blocks.
    [{ KITTY_WINDOW_ID: "1", TERM: "tmux-256color", TMUX: "/tmp/tmux-0/default,1,0" }, "blocks"],
    [{ TERM_PROGRAM: "iTerm.app", TERM: "screen-256color", STY: "1.pts-0" }, "blocks"],
  ])("%j: %s", (env, protocol) => {
    expect(imageProtocol(env)).toBe(protocol);
  });

  it("takes 24-bit colour from COLORTERM only", () => {
    expect(hasTrueColor({ COLORTERM: "truecolor" })).toBe(true);
    expect(hasTrueColor({ COLORTERM: "24bit" })).toBe(true);
    expect(hasTrueColor({ TERM: "xterm-256color" })).toBe(false);
  });
});

describe("fitCells", () => {
  it.each([
    // width, height → columns, rows, half-block pixel rows (a cell is twice as high as wide)
    [16, 8, 40, 10, 20],
    [64, 48, 40, 15, 30],
    [4096, 4096, 40, 20, 40],
    [8, 16, 20, 20, 40],
    [1, 1, 40, 20, 40],
    [1000, 1, 40, 1, 1],
    [1, 1000, 1, 20, 40],
  ])("%i × %i takes %i columns and %i rows", (width, height, columns, rows, pixelRows) => {
    expect(fitCells(width, height, 40, 20)).toEqual({ columns, rows, pixelRows });
  });

  it("takes no more columns than it is given (a narrow terminal)", () => {
    expect(fitCells(64, 48, 12, 20)).toEqual({ columns: 12, rows: 5, pixelRows: 9 });
  });
});

describe("halfBlockImage", () => {
  const red: [number, number, number, number] = [255, 0, 0, 255];
  const blue: [number, number, number, number] = [0, 0, 255, 255];
  const clear: [number, number, number, number] = [0, 0, 0, 0];

  it("draws two pixel rows a line: the upper as background, the lower as foreground of a lower half block, in 24-bit colour", () => {
    const image = rgba([
      [red, blue],
      [blue, blue],
    ]);
    expect(halfBlockImage(image, true)).toBe(`${ESC}[48;2;255;0;0;38;2;0;0;255m\u2584${ESC}[48;2;0;0;255;38;2;0;0;255m\u2584${ESC}[0m`);
  });

  it("writes a colour once for a run of equal cells, and ends every line with a reset", () => {
    const image = rgba([
      [red, red, red],
      [red, red, red],
      [blue, blue, blue],
      [blue, blue, blue],
    ]);
    expect(halfBlockImage(image, true).split("\n")).toEqual([
      `${ESC}[48;2;255;0;0;38;2;255;0;0m\u2584\u2584\u2584${ESC}[0m`,
      `${ESC}[48;2;0;0;255;38;2;0;0;255m\u2584\u2584\u2584${ESC}[0m`,
    ]);
  });

  it("uses the 256-colour palette without 24-bit colour: the colour cube, and the grey ramp for greys", () => {
    const grey: [number, number, number, number] = [128, 128, 128, 255];
    expect(halfBlockImage(rgba([[red], [grey]]), false)).toBe(`${ESC}[48;5;196;38;5;244m\u2584${ESC}[0m`);
  });

  it("leaves transparent pixels to the terminal's background, and draws an odd last row as upper halves", () => {
    const image = rgba([
      [red, clear, clear],
      [clear, blue, clear],
      [red, clear, blue],
    ]);
    expect(halfBlockImage(image, true).split("\n")).toEqual([
      `${ESC}[49;38;2;255;0;0m\u2580${ESC}[49;38;2;0;0;255m\u2584${ESC}[0m ${ESC}[0m`,
      `${ESC}[49;38;2;255;0;0m\u2580${ESC}[0m ${ESC}[49;38;2;0;0;255m\u2580${ESC}[0m`,
    ]);
  });
});

/** A small PNG whose base64 is longer than one kitty chunk (4096), from noise that does not compress. */
function noisyPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  let seed = 7;
  for (let i = 0; i < png.data.length; i++) png.data[i] = i % 4 === 3 ? 255 : (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  return PNG.sync.write(png);
}

describe("kittyImage", () => {
  it("sends the PNG (f=100) to be shown at once (a=T) over the given cells, asking no reply (q=2), in one piece when small", () => {
    const png = noisyPng(4, 4);
    expect(kittyImage(png, { columns: 40, rows: 20 })).toBe(`${ESC}_Ga=T,f=100,q=2,c=40,r=20,m=0;${png.toString("base64")}${ESC}\\`);
  });

  it("splits a larger PNG into pieces of at most 4096 base64 bytes, m=1 on every piece but the last", () => {
    const png = noisyPng(48, 48);
    const sequence = kittyImage(png, { columns: 30, rows: 15 });
    const pieces = [...sequence.matchAll(new RegExp(`${ESC}_G([^;]*);([^${ESC}]*)${ESC}\\\\`, "g"))];
    expect(pieces.map((piece) => piece[0]).join("")).toBe(sequence);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]![1]).toBe("a=T,f=100,q=2,c=30,r=15,m=1");
    expect(pieces.slice(1, -1).every((piece) => piece[1] === "m=1")).toBe(true);
    expect(pieces.at(-1)![1]).toBe("m=0");
    expect(pieces.every((piece) => piece[2]!.length <= 4096 && piece[2]!.length % 4 === 0)).toBe(true);
    expect(Buffer.from(pieces.map((piece) => piece[2]).join(""), "base64").equals(png)).toBe(true);
  });
});

describe("itermImage", () => {
  it("sends the PNG as an inline file with its size, the cells it takes and its shape kept (OSC 1337, ended by BEL)", () => {
    const png = noisyPng(4, 4);
    expect(itermImage(png, { columns: 40, rows: 10 })).toBe(
      `${ESC}]1337;File=inline=1;size=${png.length};width=40;height=10;preserveAspectRatio=1:${png.toString("base64")}\u0007`,
    );
  });
});
