/** Images the sandbox serves: PNGs drawn with node:zlib, an embedded sample JPEG, and dimension reading. */
import { randomBytes } from "node:crypto";
import { IMAGE_EXTENSIONS, readImageHeader, type ImageType } from "../intake/index.js";
import { encodePng, type Rgb } from "../png.js";
import type { SeedImage } from "./seed.js";

/** A 32×24 baseline JPEG of a plate of food: the sample "photo" of some seeded intakes. */
export const SAMPLE_JPEG_BASE64 = [
  "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgy",
  "IRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAAYACADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAAAAUEBv/EACUQAAIB",
  "AwMEAwEBAAAAAAAAAAECEQAEEgUTMQMhUYEGFRZhQf/EABYBAQEBAAAAAAAAAAAAAAAAAAAFAf/EABsRAAICAwEAAAAAAAAAAAAAAAECABESIUED/9oADAMBAAIRAxEAPwDqlVnYKqlm",
  "YwABJJq42j2On2i9bV73ZZh2RCJHkcEtyOB2rFoe391bbmOORjLiYMe5isHzDd/SdfczxxTbymMcRx/Jn3NSSwTzzq+Siql3wuuy4uj2OoWjdbSL3eZRJRyJPgHsCvB5HeobKyMVZSrK",
  "YIIgg0+H7v6PobeeOL7mMxjief5Me4rfrm391c7eOOQnHiYE+5mgIfzzquQylPTC77MCsyMGVirKZBBgg1cbWLHULRejq9lvMogOgEnyeQV4HB70pRWI1MKg7gaxY6faN0dIstlmEF3A",
  "keP9Jbk8ntUNmZ2LMxZmMkkySaUozE6gKBuf/9k=",
].join("");

export interface StoredImage {
  contentType: ImageType;
  width: number;
  height: number;
  bytes: Buffer;
}

function hexColor(hex: string): Rgb {
  const value = Number.parseInt(hex.replace(/^#/, ""), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** A plate on a table with a round portion of food on it. */
export function drawPlate(width: number, height: number, colors: { table: string; plate: string; food: string }): Buffer {
  const table = hexColor(colors.table);
  const plate = hexColor(colors.plate);
  const food = hexColor(colors.food);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const radius = Math.min(width, height) * 0.42;
  return encodePng(width, height, (x, y) => {
    const distance = Math.hypot(x - cx, y - cy);
    if (distance < radius * 0.55) return food;
    return distance < radius ? plate : table;
  });
}

/** Seed pictures drawn once per process: every sandbox started in it (tests start hundreds) gets a copy. */
const drawnSeedImages = new WeakMap<SeedImage, Buffer>();

export function renderSeedImage(image: SeedImage): StoredImage {
  if (image.format === "jpeg") {
    return { contentType: "image/jpeg", width: 32, height: 24, bytes: Buffer.from(SAMPLE_JPEG_BASE64, "base64") };
  }
  let drawn = drawnSeedImages.get(image);
  if (!drawn) {
    drawn = drawPlate(image.width, image.height, image);
    drawnSeedImages.set(image, drawn);
  }
  return { contentType: "image/png", width: image.width, height: image.height, bytes: Buffer.from(drawn) };
}

/** The type and dimensions of JPEG, PNG, GIF or WebP bytes; null when they are none of these or unreadable. */
export async function readImage(bytes: Uint8Array): Promise<{ contentType: ImageType; width: number; height: number } | null> {
  const header = await readImageHeader(bytes);
  return header && { contentType: header.contentType, width: header.width, height: header.height };
}

/** An unguessable file name under /images/. */
export function newImageName(contentType: ImageType): string {
  return `${randomBytes(16).toString("hex")}.${IMAGE_EXTENSIONS[contentType]}`;
}
