/** Reading a file line by line in little memory: the journal can hold a million records. */
import { closeSync, openSync, readSync } from "node:fs";

export interface LineLimits {
  /** Bytes read at a time. */
  chunkBytes: number;
  /** A longer line is given as null (and not held), so one line cannot take the memory. */
  maxLineBytes: number;
}

/** Each line of `path` in order, decoded (the last one even without a line break); nothing when there is no file. */
export function* fileLines(path: string, limits: LineLimits, cannotRead: (error: Error) => Error): Generator<string | null> {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw cannotRead(error as Error);
  }
  try {
    const chunk = Buffer.allocUnsafe(limits.chunkBytes);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let tooLong = false;
    for (;;) {
      let length: number;
      try {
        length = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        throw cannotRead(error as Error);
      }
      if (length === 0) break;
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline !== -1 && newline < length; newline = chunk.indexOf(0x0a, start)) {
        const part = chunk.subarray(start, newline);
        yield tooLong || pendingBytes + part.length > limits.maxLineBytes ? null : Buffer.concat([...pending, part]).toString("utf8");
        pending = [];
        pendingBytes = 0;
        tooLong = false;
        start = newline + 1;
      }
      if (start < length && !tooLong) {
        pendingBytes += length - start;
        tooLong = pendingBytes > limits.maxLineBytes;
        // The bytes are copied: the chunk is read into again.
        if (tooLong) pending = [];
        else pending.push(Buffer.from(chunk.subarray(start, length)));
      }
    }
    if (tooLong) yield null;
    else if (pendingBytes > 0) yield Buffer.concat(pending).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
