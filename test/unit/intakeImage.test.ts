/** `intake show --image`'s pixels: bounds read from the header, each format decoded, EXIF orientation, and decodes that would cost too much refused. */
import { describe, expect, it } from "vitest";
import { decodePixels, imageSizeProblem, resample, uprightSize } from "../../src/output/intakeImage.js";
import { readImageHeader } from "../../src/intake/imageType.js";
import type { RgbaImage } from "../../src/output/terminalImage.js";
import { blackPng, gif, inflatingPng, LEFT_RED, RIGHT_BLUE, twoTone } from "../fixtures/images.js";

const pixelAt = (image: RgbaImage, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];
/** Within `tolerance` of a colour in each channel, opaque: lossy formats come close. */
const near = (actual: number[], [r, g, b]: number[], tolerance: number) =>
  Math.abs(actual[0]! - r!) <= tolerance &&
  Math.abs(actual[1]! - g!) <= tolerance &&
  Math.abs(actual[2]! - b!) <= tolerance &&
  actual[3] === 255;

async function decode(bytes: Buffer): Promise<RgbaImage> {
  const header = await readImageHeader(bytes);
  if (!header) throw new Error("no header");
  return decodePixels(bytes, header);
}

describe("the header, read before anything is decoded", () => {
  it.each([
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["gif", "image/gif"],
    ["webp", "image/webp"],
    ["webp-lossy", "image/webp"],
  ] as const)("%s: its type and size", async (format, contentType) => {
    expect(await readImageHeader(twoTone(format))).toEqual({ contentType, width: 16, height: 8, orientation: 1 });
  });

  it("a JPEG's EXIF orientation, and the size it is shown at", async () => {
    const header = await readImageHeader(twoTone("jpeg", { orientation: 6 }));
    expect(header).toEqual({ contentType: "image/jpeg", width: 16, height: 8, orientation: 6 });
    expect(uprightSize(header!)).toEqual({ width: 8, height: 16 });
  });

  it.each([
    ["text", Buffer.from("not a picture")],
    ["a TIFF", Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00])],
    ["a PNG signature alone", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ])("none for %s", async (_what, bytes) => {
    expect(await readImageHeader(bytes)).toBeNull();
  });

  it("refuses more than 4096 on a side, whatever the pixel count", () => {
    expect(imageSizeProblem({ width: 4096, height: 4096 })).toBeNull();
    expect(imageSizeProblem({ width: 10_000, height: 10_000 })).toBe(
      "it is 10000 × 10000 pixels, more than foodctl draws (at most 4096 × 4096, 16 megapixels)",
    );
    expect(imageSizeProblem({ width: 4097, height: 1 })).toMatch(/^it is 4097 × 1 pixels/);
    expect(imageSizeProblem({ width: 1, height: 65_535 })).toMatch(/^it is 1 × 65535 pixels/);
  });
});

describe("decodePixels", () => {
  it.each([
    ["png", 0],
    ["gif", 0],
    ["webp", 0],
    ["jpeg", 12],
    ["webp-lossy", 40],
  ] as const)("%s: 16 × 8 RGBA, red on the left and blue on the right", async (format, tolerance) => {
    const image = await decode(twoTone(format));
    expect([image.width, image.height, image.data.length]).toEqual([16, 8, 16 * 8 * 4]);
    for (const y of [0, 7]) {
      expect(near(pixelAt(image, 1, y), LEFT_RED, tolerance), `${format} left`).toBe(true);
      expect(near(pixelAt(image, 14, y), RIGHT_BLUE, tolerance), `${format} right`).toBe(true);
    }
  });

  it("a GIF: its first frame only (the second is green)", async () => {
    const image = await decode(twoTone("gif"));
    expect(pixelAt(image, 1, 1)).toEqual([...LEFT_RED, 255]);
  });

  it("a 1 × 1 GIF", async () => {
    const image = await decode(gif());
    expect([image.width, image.height]).toEqual([1, 1]);
  });

  it("refuses a GIF whose first frame lies outside its screen, before decoding the frame", async () => {
    const bytes = Buffer.from(twoTone("gif"));
    // The first image descriptor (0x2c) follows the header, the 4-colour palette and the loop extension.
    const descriptor = bytes.indexOf(0x2c, 13 + 12);
    bytes.writeUInt16LE(60_000, descriptor + 5);
    bytes.writeUInt16LE(60_000, descriptor + 7);
    await expect(decode(bytes)).rejects.toThrow("its first frame (60000 × 60000 at 0,0) lies outside its 16 × 8 screen");
  });

  it("refuses an interlaced PNG whose data inflates beyond what its size allows (pngjs would inflate it all)", async () => {
    const bomb = inflatingPng();
    await expect(decode(bomb)).rejects.toThrow("its data inflates to more than its size allows");
  });

  it("decodes an interlaced PNG whose data fits its size", async () => {
    const image = await decode(blackPng(37, 23, { interlaced: true }));
    expect([image.width, image.height]).toEqual([37, 23]);
    expect(pixelAt(image, 36, 22)).toEqual([0, 0, 0, 255]);
  });

  it("refuses bytes whose data is not what the header says", async () => {
    const png = twoTone("png");
    await expect(decode(Buffer.concat([png.subarray(0, 40), Buffer.alloc(20)]))).rejects.toThrow();
  });
});

describe("resample", () => {
  it("turns an image upright by its EXIF orientation: 6 is a quarter turn clockwise, the left side on top", async () => {
    const image = await decode(twoTone("png"));
    const upright = resample(image, 6, 8, 16);
    expect(pixelAt(upright, 4, 1)).toEqual([...LEFT_RED, 255]);
    expect(pixelAt(upright, 4, 14)).toEqual([...RIGHT_BLUE, 255]);
    expect(pixelAt(resample(image, 8, 8, 16), 4, 1)).toEqual([...RIGHT_BLUE, 255]);
    expect(pixelAt(resample(image, 3, 16, 8), 1, 1)).toEqual([...RIGHT_BLUE, 255]);
    expect(pixelAt(resample(image, 2, 16, 8), 1, 1)).toEqual([...RIGHT_BLUE, 255]);
  });

  it("averages the pixels each output pixel covers, weighted by their opacity", () => {
    const image: RgbaImage = { width: 2, height: 1, data: Uint8Array.from([200, 0, 0, 255, 0, 0, 200, 0]) };
    expect([...resample(image, 1, 1, 1).data]).toEqual([200, 0, 0, 128]);
    const halves: RgbaImage = { width: 2, height: 1, data: Uint8Array.from([200, 0, 0, 255, 0, 0, 200, 255]) };
    expect([...resample(halves, 1, 1, 1).data]).toEqual([100, 0, 100, 255]);
  });

  it("enlarges by repeating the nearest pixel", () => {
    const image: RgbaImage = { width: 2, height: 1, data: Uint8Array.from([255, 0, 0, 255, 0, 0, 255, 255]) };
    const wide = resample(image, 1, 4, 2);
    expect([pixelAt(wide, 0, 0), pixelAt(wide, 1, 1), pixelAt(wide, 2, 0), pixelAt(wide, 3, 1)]).toEqual([
      [255, 0, 0, 255],
      [255, 0, 0, 255],
      [0, 0, 255, 255],
      [0, 0, 255, 255],
    ]);
  });
});
