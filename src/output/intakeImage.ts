/**
 * `intake show --image`: an image bounded by what its header says before anything is decoded,
 * then decoded to RGBA (pngjs, jpeg-js, omggif, @cwasm/webp: each loaded for its own type only),
 * turned upright, scaled to the cells it is drawn in and drawn in the terminal's protocol.
 */
import { inflateSync } from "node:zlib";
import { readImageHeader, type ImageHeader } from "../intake/imageType.js";
import { cleanForTerminal } from "../sanitize.js";
import type { Cells, RgbaImage as Pixels } from "./terminalImage.js";
import { fitCells, halfBlockImage, hasTrueColor, imageProtocol, itermImage, kittyImage } from "./terminalImage.js";

/** A download larger than this is not drawn (the transport stops reading past it). */
export const MAX_SHOWN_IMAGE_BYTES = 10_000_000;
/** The largest side drawn: at most 4096 × 4096, 16 megapixels, which decode to 64 MiB of RGBA. */
export const MAX_SHOWN_SIDE = 4096;
/** Columns the picture takes at most: enough to recognise a plate, short enough to keep the summary on screen. */
const MAX_IMAGE_COLUMNS = 40;
/** Rows it takes at most, for a tall picture. */
const MAX_IMAGE_ROWS = 20;
/** Pixels per column sent to a terminal that draws images itself: sharp on a high-density screen, small to send. */
const PIXELS_PER_COLUMN = 16;
/** What a JPEG decode may allocate (jpeg-js counts its own buffers): a 4096 × 4096 one takes about 300 MB. */
const MAX_DECODE_MEMORY_MB = 512;

/** Why an image whose header says this is not drawn, or null when it may be decoded. */
export function imageSizeProblem(header: Pick<ImageHeader, "width" | "height">): string | null {
  const { width, height } = header;
  if (width <= MAX_SHOWN_SIDE && height <= MAX_SHOWN_SIDE) return null;
  return `it is ${width} × ${height} pixels, more than foodctl draws (at most ${MAX_SHOWN_SIDE} × ${MAX_SHOWN_SIDE}, 16 megapixels)`;
}

/** The header's image decoded; throws an Error saying why when the bytes are not what it said. */
export async function decodePixels(bytes: Buffer, header: ImageHeader): Promise<Pixels> {
  const decoded = await decodeByType(bytes, header);
  if (decoded.width !== header.width || decoded.height !== header.height)
    throw new Error(`its header says ${header.width} × ${header.height}, its data ${decoded.width} × ${decoded.height}`);
  if (decoded.data.length < decoded.width * decoded.height * 4) throw new Error("its data ends early");
  return decoded;
}

async function decodeByType(bytes: Buffer, header: ImageHeader): Promise<Pixels> {
  switch (header.contentType) {
    case "image/png":
      return decodePng(bytes);
    case "image/jpeg": {
      const { decode } = await import("jpeg-js");
      const maxResolutionInMP = (MAX_SHOWN_SIDE * MAX_SHOWN_SIDE) / 1_000_000;
      return decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP, maxMemoryUsageInMB: MAX_DECODE_MEMORY_MB });
    }
    case "image/gif":
      return decodeGifFirstFrame(bytes);
    case "image/webp": {
      const { decode } = await import("@cwasm/webp");
      const image = decode(bytes);
      return {
        width: image.width,
        height: image.height,
        data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length),
      };
    }
  }
}

/** pngjs inflates an interlaced PNG without a bound: its data is measured here first, against what its size allows. */
async function decodePng(bytes: Buffer): Promise<Pixels> {
  if (bytes.length > 28 && bytes[28] === 1) {
    try {
      inflateSync(idatOf(bytes), { maxOutputLength: interlacedBytes(bytes) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ERR_BUFFER_TOO_LARGE" ? "its data inflates to more than its size allows" : "its data is not deflate";
      throw new Error(why, { cause: error });
    }
  }
  const { PNG } = await import("pngjs");
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/** The compressed image data of a PNG: its IDAT chunks' data, in order. */
function idatOf(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (type === "IDAT") parts.push(bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length)));
    if (type === "IEND") break;
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** The Adam7 passes: first column and row, and the steps between. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** How many bytes an interlaced PNG's data inflates to: each pass's rows, each with its filter byte. */
function interlacedBytes(bytes: Buffer): number {
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitsPerPixel = bytes[24]! * (CHANNELS[bytes[25]!] ?? 4);
  let total = 0;
  for (const [x0, y0, xStep, yStep] of ADAM7) {
    const columns = Math.ceil(Math.max(0, width - x0) / xStep);
    const rows = Math.ceil(Math.max(0, height - y0) / yStep);
    if (columns > 0) total += rows * (1 + Math.ceil((columns * bitsPerPixel) / 8));
  }
  return Math.max(1, total);
}

/** A GIF's first frame on its logical screen; a frame larger than the screen is refused before its pixels are decoded. */
async function decodeGifFirstFrame(bytes: Buffer): Promise<Pixels> {
  const { GifReader } = await import("omggif");
  const reader = new GifReader(bytes);
  if (reader.numFrames() === 0) throw new Error("it has no frame");
  const frame = reader.frameInfo(0);
  if (frame.x + frame.width > reader.width || frame.y + frame.height > reader.height)
    throw new Error(
      `its first frame (${frame.width} × ${frame.height} at ${frame.x},${frame.y}) lies outside its ${reader.width} × ${reader.height} screen`,
    );
  const data = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data);
  return { width: reader.width, height: reader.height, data };
}

/** Orientations 5 to 8 (EXIF) turn the image a quarter: its upright width is its height. */
export const uprightSize = (header: Pick<ImageHeader, "width" | "height" | "orientation">) =>
  header.orientation >= 5 ? { width: header.height, height: header.width } : { width: header.width, height: header.height };

/** The source pixel (x, y) shown at upright (u, v), for each EXIF orientation. */
function sourceOf(orientation: number, u: number, v: number, width: number, height: number): [number, number] {
  switch (orientation) {
    case 2:
      return [width - 1 - u, v];
    case 3:
      return [width - 1 - u, height - 1 - v];
    case 4:
      return [u, height - 1 - v];
    case 5:
      return [v, u];
    case 6:
      return [v, height - 1 - u];
    case 7:
      return [width - 1 - v, height - 1 - u];
    case 8:
      return [width - 1 - v, u];
    default:
      return [u, v];
  }
}

/**
 * The image upright and resampled to `width` × `height`: each pixel the average of the source
 * pixels it covers (weighted by their opacity), or the nearest one when enlarging.
 */
export function resample(pixels: Pixels, orientation: number, width: number, height: number): Pixels {
  const upright = uprightSize({ width: pixels.width, height: pixels.height, orientation });
  const out = new Uint8Array(width * height * 4);
  const source = pixels.data;
  for (let y = 0; y < height; y++) {
    const v0 = Math.floor((y * upright.height) / height);
    const v1 = Math.max(v0 + 1, Math.floor(((y + 1) * upright.height) / height));
    for (let x = 0; x < width; x++) {
      const u0 = Math.floor((x * upright.width) / width);
      const u1 = Math.max(u0 + 1, Math.floor(((x + 1) * upright.width) / width));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let v = v0; v < v1; v++) {
        for (let u = u0; u < u1; u++) {
          const [sx, sy] = sourceOf(orientation, u, v, pixels.width, pixels.height);
          const at = (sy * pixels.width + sx) * 4;
          const alpha = source[at + 3]!;
          r += source[at]! * alpha;
          g += source[at + 1]! * alpha;
          b += source[at + 2]! * alpha;
          a += alpha;
        }
      }
      const count = (v1 - v0) * (u1 - u0);
      const at = (y * width + x) * 4;
      if (a > 0) {
        out[at] = Math.round(r / a);
        out[at + 1] = Math.round(g / a);
        out[at + 2] = Math.round(b / a);
      }
      out[at + 3] = Math.round(a / count);
    }
  }
  return { width, height, data: out };
}

/** The image drawn for the terminal, or why it is not drawn (too large, not an image foodctl draws, unreadable). */
export type Drawing = { drawn: string } | { notDrawn: string };

/** The downloaded image (null: larger than MAX_SHOWN_IMAGE_BYTES) drawn for a terminal `columns` wide. */
export async function drawImage(bytes: Buffer | null, env: NodeJS.ProcessEnv, columns = 80): Promise<Drawing> {
  if (bytes === null) return { notDrawn: `the image is larger than ${MAX_SHOWN_IMAGE_BYTES / 1_000_000} MB: not drawn` };
  const header = await readImageHeader(bytes);
  if (!header) return { notDrawn: "the image is not a JPEG, PNG, GIF or WebP foodctl can read: not drawn" };
  const tooLarge = imageSizeProblem(header);
  if (tooLarge) return { notDrawn: `the image is not drawn: ${tooLarge}` };
  let pixels: Pixels;
  try {
    pixels = await decodePixels(bytes, header);
  } catch (error) {
    return { notDrawn: `the image cannot be drawn (${cleanForTerminal((error as Error).message)})` };
  }
  const upright = uprightSize(header);
  const cells = fitCells(upright.width, upright.height, Math.min(columns, MAX_IMAGE_COLUMNS), MAX_IMAGE_ROWS);
  return { drawn: `${await renderImage(env, pixels, header.orientation, cells)}\n` };
}

/** The picture in the terminal's own protocol, a PNG of at most PIXELS_PER_COLUMN a column; else in half-blocks. */
async function renderImage(env: NodeJS.ProcessEnv, pixels: Pixels, orientation: number, cells: Cells): Promise<string> {
  const protocol = imageProtocol(env);
  if (protocol === "blocks") return halfBlockImage(resample(pixels, orientation, cells.columns, cells.pixelRows), hasTrueColor(env));
  const upright = uprightSize({ ...pixels, orientation });
  const width = Math.min(upright.width, cells.columns * PIXELS_PER_COLUMN);
  const height = Math.max(1, Math.round((width * upright.height) / upright.width));
  const shown = resample(pixels, orientation, width, height);
  const { PNG } = await import("pngjs");
  const image = new PNG({ width, height });
  image.data = Buffer.from(shown.data.buffer, shown.data.byteOffset, shown.data.length);
  const png = PNG.sync.write(image);
  return protocol === "kitty" ? kittyImage(png, cells) : itermImage(png, cells);
}
