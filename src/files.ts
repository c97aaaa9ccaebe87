/**
 * Whole-file writes that a reader never sees half done: the journal's rewrite, the sandbox's
 * state and pid files, the smoke report and the code cache all go through `writeFileAtomic`.
 */
import { randomBytes } from "node:crypto";
import { closeSync, lstatSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const TEMPORARY_SUFFIX = ".tmp";
/** What writeFileAtomic names its temporary file beside `name`: `.<name>.<12 hex digits>.tmp`. */
const isTemporaryOf = (name: string, entry: string) =>
  entry.startsWith(`.${name}.`) && entry.endsWith(TEMPORARY_SUFFIX) && /^[0-9a-f]{12}$/.test(entry.slice(name.length + 2, -4));

export interface AtomicWriteOptions {
  /** Permission bits of a file this write creates (default 0o600: private). */
  mode?: number;
}

/**
 * Writes `data` to `file` through a temporary file beside it, created exclusively under a random
 * name (a link or file planted at a guessable name is never followed or reused), then renamed
 * over the target. A link is written through to the file it names, so the link stays a link.
 * An existing target that is not a regular file (`/dev/stdout`, a FIFO) is written in place:
 * renaming over it would replace the device node.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const target = followLink(file);
  const existing = statOrUndefined(target);
  if (existing && !existing.isFile()) {
    const fd = openSync(target, "w");
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}${TEMPORARY_SUFFIX}`);
  const fd = openSync(temporary, "wx", options.mode ?? 0o600);
  try {
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Writes every byte, or throws (a short write on a full disk is an error, not half a file). */
export function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let written = 0;
  while (written < bytes.byteLength) {
    const count = writeSync(fd, bytes, written, bytes.byteLength - written);
    if (count <= 0) throw Object.assign(new Error("ENOSPC: no space left on device, write (no bytes written)"), { code: "ENOSPC" });
    written += count;
  }
}

/** Removes the temporary files a killed writer left beside `file` (kill -9 mid-write); returns their names. */
export function removeLeftoverTemporaries(file: string): string[] {
  const target = followLink(file);
  const name = basename(target);
  let entries: string[];
  try {
    entries = readdirSync(dirname(target));
  } catch {
    return [];
  }
  const left = entries.filter((entry) => isTemporaryOf(name, entry));
  for (const entry of left) rmSync(join(dirname(target), entry), { force: true });
  return left;
}

/** The hint for a write that failed because the disk is full; undefined for any other failure. */
export function diskFullHint(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOSPC" ? "the disk is full (ENOSPC): free some space" : undefined;
}

/** The file a symbolic link names (the path itself when it is not a link, or names nothing yet). */
function followLink(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

function statOrUndefined(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
