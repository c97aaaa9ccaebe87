/**
 * A picture in a terminal: kitty's graphics protocol, iTerm2's inline images (WezTerm speaks it
 * too), else Unicode half-blocks in colour, two pixels to a cell. Pure: pixels or PNG bytes in,
 * text out; which protocol a terminal speaks is read from its environment.
 */
export type ImageProtocol = "kitty" | "iterm" | "blocks";

/** Decoded pixels: width × height × 4 bytes of RGBA, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The terminal's image protocol, from what terminals set in the environment of the programs they run. */
export function imageProtocol(env: NodeJS.ProcessEnv): ImageProtocol {
  // Inside tmux or screen an image sequence reaches the terminal only if passed through: half-blocks always show.
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? "")) return "blocks";
  if (env.KITTY_WINDOW_ID || env.TERM === "xterm-kitty" || env.TERM === "xterm-ghostty" || env.TERM_PROGRAM === "ghostty") return "kitty";
  // Konsole draws kitty's protocol from 22.04 on.
  if (Number(env.KONSOLE_VERSION) >= 220400) return "kitty";
  if (env.TERM_PROGRAM === "iTerm.app" || env.TERM_PROGRAM === "WezTerm" || env.LC_TERMINAL === "iTerm2") return "iterm";
  return "blocks";
}

/** 24-bit colour where the terminal says it has it (COLORTERM), else the 256 colours every modern terminal has. */
export const hasTrueColor = (env: NodeJS.ProcessEnv): boolean => /^(truecolor|24bit)$/i.test(env.COLORTERM ?? "");

export interface Cells {
  columns: number;
  rows: number;
  /** Half-block pixels high: two to a row. */
  pixelRows: number;
}

/** The cells an image of width × height takes, keeping its shape, at most maxColumns wide and maxRows high (a cell is twice as high as wide). */
export function fitCells(width: number, height: number, maxColumns: number, maxRows: number): Cells {
  const columns = Math.max(1, Math.min(maxColumns, Math.floor((2 * maxRows * width) / height)));
  const pixelRows = Math.max(1, Math.min(2 * maxRows, Math.round((columns * height) / width)));
  return { columns, rows: Math.ceil(pixelRows / 2), pixelRows };
}

const ESC = "\u001b";
/** kitty takes the image in pieces of at most 4096 bytes of base64. */
const KITTY_CHUNK = 4096;

/** A PNG drawn over `cells` with kitty's graphics protocol: transmitted and shown at once, no reply asked for (q=2). */
export function kittyImage(png: Uint8Array, cells: Pick<Cells, "columns" | "rows">): string {
  const data = Buffer.from(png).toString("base64");
  const parts: string[] = [];
  for (let at = 0; at < data.length; at += KITTY_CHUNK) {
    const more = at + KITTY_CHUNK < data.length ? 1 : 0;
    const keys = at === 0 ? `a=T,f=100,q=2,c=${cells.columns},r=${cells.rows},m=${more}` : `m=${more}`;
    parts.push(`${ESC}_G${keys};${data.slice(at, at + KITTY_CHUNK)}${ESC}\\`);
  }
  return parts.join("");
}

/** A PNG drawn over `cells` as an iTerm2 inline image (iTerm2, WezTerm). */
export function itermImage(png: Uint8Array, cells: Pick<Cells, "columns" | "rows">): string {
  const args = `inline=1;size=${png.byteLength};width=${cells.columns};height=${cells.rows};preserveAspectRatio=1`;
  return `${ESC}]1337;File=${args}:${Buffer.from(png).toString("base64")}\u0007`;
}

/** An xterm 256-colour index for a colour: the 6×6×6 cube, or the grey ramp for greys. */
function ansi256(r: number, g: number, b: number): number {
  if (r === g && g === b) {
    if (r < 8) return 16;
    if (r > 248) return 231;
    return Math.round(((r - 8) / 247) * 24) + 232;
  }
  const level = (value: number) => Math.round((value / 255) * 5);
  return 16 + 36 * level(r) + 6 * level(g) + level(b);
}

/**
 * The image as lines of half-blocks: each cell a lower half block, its background the pixel
 * above and its foreground the one below; a transparent pixel leaves the terminal's background.
 * Every line ends with a reset. The image is already `columns` × `pixelRows` pixels.
 */
export function halfBlockImage(image: RgbaImage, trueColor: boolean): string {
  const { width, height, data } = image;
  const colour = (at: number) => {
    const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
    return trueColor ? `2;${r};${g};${b}` : `5;${ansi256(r, g, b)}`;
  };
  const opaque = (x: number, y: number) => y < height && data[(y * width + x) * 4 + 3]! >= 128;
  const lines: string[] = [];
  for (let y = 0; y < height; y += 2) {
    let line = "";
    let style = "";
    for (let x = 0; x < width; x++) {
      const top = (y * width + x) * 4;
      const bottom = ((y + 1) * width + x) * 4;
      const [showTop, showBottom] = [opaque(x, y), opaque(x, y + 1)];
      let next: string;
      let glyph = "\u2584";
      if (showTop && showBottom) next = `48;${colour(top)};38;${colour(bottom)}`;
      else if (showBottom) next = `49;38;${colour(bottom)}`;
      else if (showTop) [next, glyph] = [`49;38;${colour(top)}`, "\u2580"];
      else [next, glyph] = ["0", " "];
      if (next !== style) line += `${ESC}[${next}m`;
      style = next;
      line += glyph;
    }
    lines.push(`${line}${ESC}[0m`);
  }
  return lines.join("\n");
}
