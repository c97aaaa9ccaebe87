/** Reading a display image from a file or stdin, refused (exit 2) before anything is sent. */
import { open, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { ImageUpload } from "../../api/imageUpload.js";
import { usageError } from "../../errors.js";
import { notRegularFile } from "../../files.js";
import { readAtMost } from "../../io.js";
import { thousands } from "../../intake/amounts.js";
import { IMAGE_EXTENSIONS, sniffImageType, type ImageType } from "../../intake/imageType.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../../records/fields.js";

export type ImageFile = ImageUpload & { contentType: ImageType };

const LIMIT_TEXT = `display images are limited to 1 MiB (${thousands(MAX_DISPLAY_IMAGE_BYTES)} bytes)`;

function fileProblem(path: string, error: NodeJS.ErrnoException): Error {
  if (error.code === "ENOENT") return usageError(`no such file: ${path}`);
  if (error.code === "EACCES" || error.code === "EPERM") return usageError(`cannot read ${path}: permission denied`);
  if (error.code === "EISDIR") return usageError(`${path} is a directory, not an image file`);
  return usageError(`cannot read ${path}: ${error.message}`);
}

export async function readImageFile(path: string, stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<ImageFile> {
  const fromStdin = path === "-";
  const source = fromStdin ? "stdin" : path;
  let bytes: Buffer;
  if (fromStdin) {
    if (stdin.isTTY) throw usageError("stdin is a terminal: pipe an image into it, or give a file path");
    bytes = await readAtMost(stdin as AsyncIterable<Buffer>, MAX_DISPLAY_IMAGE_BYTES);
    if (bytes.byteLength > MAX_DISPLAY_IMAGE_BYTES)
      throw usageError(`stdin holds more than ${thousands(MAX_DISPLAY_IMAGE_BYTES)} bytes; ${LIMIT_TEXT}`);
  } else {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw fileProblem(path, error as NodeJS.ErrnoException);
    }
    const kind = notRegularFile(info);
    if (kind) throw usageError(`${path} is ${kind}, not an image file`);
    if (info.size > MAX_DISPLAY_IMAGE_BYTES) throw usageError(`${path} is ${thousands(info.size)} bytes; ${LIMIT_TEXT}`);
    try {
      const handle = await open(path, "r");
      try {
        bytes = await readAtMost(handle.createReadStream({ autoClose: false }), MAX_DISPLAY_IMAGE_BYTES);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw fileProblem(path, error as NodeJS.ErrnoException);
    }
    if (bytes.byteLength > MAX_DISPLAY_IMAGE_BYTES) throw usageError(`${path} grew past the limit while being read; ${LIMIT_TEXT}`);
  }
  if (bytes.byteLength === 0) throw usageError(`${source} is empty: no image to attach`);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw usageError(`${source} is not a JPEG, PNG, GIF or WebP image (judged by its bytes, not its name)`);
  const filename = fromStdin ? `display-image.${IMAGE_EXTENSIONS[contentType]}` : basename(path);
  return { bytes, filename, contentType };
}
