/**
 * Whole-file writes that a reader never sees half done: the journal's rewrite, the sandbox's
 * state and pid files, the smoke report and the code cache all go through `writeFileAtomic`.
 */
import {
  closeSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** The file inside the temporary folder that is renamed over the target. */
const TEMPORARY_FILE = "data";
/** The temporary folder mkdtemp makes beside `name`: `.<name>.` and six random letters or digits. */
const isTemporaryOf = (name: string, entry: string) =>
  entry.startsWith(`.${name}.`) && /^[A-Za-z0-9]{6}$/.test(entry.slice(name.length + 2));

export interface AtomicWriteOptions {
  /** Permission bits of a file this write creates (default 0o600: private). */
  mode?: number;
}

/**
 * Writes `data` to `file` through a temporary file beside it, in a folder the system creates
 * exclusively under a random name (mkdtemp: a link or file planted at a guessable name is never
 * followed or reused), then renamed over the target. A link is written through to the file it
 * names, so the link stays a link. An existing target that is not a regular file (`/dev/stdout`,
 * a FIFO) is written in place: renaming over it would replace the device node.
 */
export function writeFileAtomic(
  file: string,
  data: string | Uint8Array | Iterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): void {
  const target = followLink(file);
  const existing = statOrUndefined(target);
  if (existing && !existing.isFile()) return writeEach(openSync(target, "w"), data);
  const folder = mkdtempSync(join(dirname(target), `.${basename(target)}.`));
  const temporary = join(folder, TEMPORARY_FILE);
  try {
    writeEach(openSync(temporary, "wx", options.mode ?? 0o600), data);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    rmdirSync(folder);
  }
}

/** The data whole, or piece by piece as an iterable gives it (a rewrite that streams a large file); closes `fd`. */
function writeEach(fd: number, data: string | Uint8Array | Iterable<string | Uint8Array>): void {
  try {
    if (typeof data === "string" || data instanceof Uint8Array) writeAll(fd, data);
    else for (const piece of data) writeAll(fd, piece);
  } finally {
    closeSync(fd);
  }
}

/** Writes every byte, or throws (a short write on a full disk is an error, not half a file). */
export function writeAll(fd: number, data: string | Uint8Array, write: typeof writeSync = writeSync): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let written = 0;
  while (written < bytes.byteLength) {
    const count = write(fd, bytes, written, bytes.byteLength - written);
    if (count <= 0) throw Object.assign(new Error("ENOSPC: no space left on device, write (no bytes written)"), { code: "ENOSPC" });
    written += count;
  }
}

/** Removes the temporary folders a killed writer left beside `file` (kill -9 mid-write); returns their names. */
export function removeLeftoverTemporaries(file: string): string[] {
  const target = followLink(file);
  const name = basename(target);
  let entries: string[];
  try {
    entries = readdirSync(dirname(target));
  } catch {
    return [];
  }
  return entries.filter((entry) => isTemporaryOf(name, entry) && removeTemporaryFolder(join(dirname(target), entry)));
}

/** Removes a temporary folder holding at most its one file; false (left alone) when it is anything else. */
function removeTemporaryFolder(folder: string): boolean {
  try {
    if (!lstatSync(folder).isDirectory()) return false;
    rmSync(join(folder, TEMPORARY_FILE), { force: true });
    rmdirSync(folder);
    return true;
  } catch {
    return false;
  }
}

/** The hint for a write that failed because the disk is full; undefined for any other failure. */
export function diskFullHint(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOSPC" ? "the disk is full (ENOSPC): free some space" : undefined;
}

/** What a path is when it is not a regular file ("a directory", "a FIFO", "a device", "a socket"); null for a regular file. */
export function notRegularFile(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return info.isSocket() ? "a socket" : "not a regular file";
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

/** Why a file could not be opened, in words. */
export function fileErrorReason(error: unknown, missing: string): string {
  const reasons: Record<string, string> = { ENOENT: missing, EACCES: "permission denied", EISDIR: "it is a folder" };
  return reasons[String((error as NodeJS.ErrnoException).code)] ?? (error as Error).message;
}
