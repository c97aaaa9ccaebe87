/**
 * The journal file: `$XDG_STATE_HOME/foodctl/journal.jsonl` (default ~/.local/state/foodctl),
 * folder 0700, file 0600, saved display images in `images/` beside it. Every write holds the
 * lock file, so two foodctl processes append whole lines and a retention rewrite loses nothing.
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { failure } from "../errors.js";
import { diskFullHint, writeAll, writeFileAtomic } from "../files.js";
import { xdgFolder } from "../home.js";
import { withFileLock } from "../lock.js";
import { openPrivateFolder, UnsafeFolderError, type PrivateFolder } from "../privateFolder.js";
import {
  beginTime,
  completeEntry,
  entryOfBegin,
  readRecordLine,
  type ImageCopy,
  type JournalEntry,
  type JournalRecord,
  type RecordCheck,
} from "./entry.js";
import { fileLines } from "./lines.js";
import { matchesFilter, selectEntries, type EntryQuery, type JournalFilter } from "./query.js";

export const JOURNAL_FILE = "journal.jsonl";
const IMAGES = "images";
const DAY_MS = 86_400_000;

export const journalDir = (env: NodeJS.ProcessEnv): string => xdgFolder(env, "XDG_STATE_HOME", ".local", "state");

/** The journal's folder or lock cannot be written: nothing is sent, and the hint says why (a full disk by name). */
export function journalUnwritable(dir: string, error: Error): Error {
  if (error instanceof UnsafeFolderError) {
    const hint = "nothing was sent; point XDG_STATE_HOME at a folder only you can change, or pass --no-journal";
    return failure(`cannot use the journal in ${dir}: ${error.message}`, { hint });
  }
  return failure(`cannot write the journal in ${dir}: ${error.message}`, {
    hint: `nothing was sent; ${diskFullHint(error) ?? "fix the folder's permissions"}, or pass --no-journal`,
  });
}

export interface JournalStoreOptions {
  /** Bytes read at a time. */
  chunkBytes?: number;
  /** A longer line is skipped as unreadable, so no line can take the memory (records are a few KiB). */
  maxLineBytes?: number;
  /** The write appends go through (a test's full disk). */
  writeSync?: typeof writeSync;
}

/** Entries read from the file, and how many lines (or torn fragments) were skipped as unreadable. */
export interface JournalRead {
  entries: JournalEntry[];
  unreadable: number;
}

const CHUNK_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class JournalStore {
  readonly path: string;
  private folder: PrivateFolder | undefined;
  private readonly chunkBytes: number;
  private readonly maxLineBytes: number;
  private readonly write: typeof writeSync;
  private check: RecordCheck | undefined;

  constructor(
    readonly dir: string,
    options: JournalStoreOptions = {},
  ) {
    this.path = join(dir, JOURNAL_FILE);
    this.chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.write = options.writeSync ?? writeSync;
  }

  /**
   * The folder, opened and checked once a store (a run writes twice per change), and its images/:
   * every file of the journal is then reached through it, never through a folder swapped in since.
   */
  private prepare(): PrivateFolder {
    try {
      this.folder ??= openPrivateFolder(this.dir);
      mkdirSync(this.folder.at(IMAGES), { recursive: true, mode: 0o700 });
      return this.folder;
    } catch (error) {
      throw this.unwritable(error as Error);
    }
  }

  /** A file of the journal's folder; undefined when there is no folder yet (nothing journaled). */
  private existing(name: string): string | undefined {
    return this.folder || existsSync(this.dir) ? this.prepare().at(name) : undefined;
  }

  private readonly unwritable = (error: Error): Error => journalUnwritable(this.dir, error);

  private locked<T>(work: () => Promise<T>): Promise<T> {
    const lock = `${this.path}.lock`;
    const busy = () =>
      failure(`the journal ${this.path} is locked by another foodctl`, { hint: `try again; if no foodctl is running, remove ${lock}` });
    return withFileLock(this.prepare().at(`${JOURNAL_FILE}.lock`), { cannotCreate: (error) => this.unwritable(error), busy }, work);
  }

  /** The journal's record check, loaded by the first read: appending a change needs none. */
  private async recordCheck(): Promise<RecordCheck> {
    return (this.check ??= (await import("../records/validators/journal.js")).JournalRecord);
  }

  /**
   * Appends a record as a whole line; first drops entries older than `days` when there are any. A
   * write cut short (a full disk) is taken back, so no half record stays to glue onto the next.
   */
  async append(record: JournalRecord, days: number | null, now: number): Promise<void> {
    const file = this.prepare().at(JOURNAL_FILE);
    const text = `${JSON.stringify(record)}\n`;
    await this.locked(async () => {
      try {
        if (days !== null) await this.dropOlderThan(now - days * DAY_MS);
        this.appendText(file, text);
        chmodSync(file, 0o600);
      } catch (error) {
        throw this.unwritable(error as Error);
      }
    });
  }

  private appendText(file: string, text: string): void {
    const fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      const size = fstatSync(fd).size;
      // A tail left by a crash mid-write becomes a line of its own instead of the start of this record.
      const separator = size > 0 && !endsWithNewline(fd, size) ? "\n" : "";
      try {
        writeAll(fd, separator + text, this.write);
      } catch (error) {
        try {
          ftruncateSync(fd, size);
        } catch {
          // The reader recovers the next record after a torn one.
        }
        throw error;
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Each line of the file in order (null for one over the line limit); none when there is no file. */
  private *lines(): Generator<string | null> {
    const file = this.existing(JOURNAL_FILE);
    if (file === undefined) return;
    yield* fileLines(file, { chunkBytes: this.chunkBytes, maxLineBytes: this.maxLineBytes }, (error) =>
      failure(`cannot read the journal ${this.path}: ${error.message}`),
    );
  }

  /** Every record in file order, one at a time, with its line; returns how many lines (or torn fragments) were unreadable. */
  private async eachRecord(visit: (record: JournalRecord) => void): Promise<number> {
    const check = await this.recordCheck();
    let unreadable = 0;
    for (const line of this.lines()) {
      if (line === null) {
        unreadable++;
        continue;
      }
      if (line.trim() === "") continue;
      const read = readRecordLine(line, check);
      if (read.unreadable) unreadable++;
      if (read.record) visit(read.record);
    }
    return unreadable;
  }

  /**
   * Entries in file order, folded as the file is read: only those `keep` accepts, and with
   * `newest` never more than twice that many held at once, so a large journal is read in little memory.
   */
  async query({ keep, newest }: EntryQuery = {}): Promise<JournalRead> {
    const held = new Map<string, JournalEntry>();
    const keepNewest = () => {
      if (newest === undefined || held.size <= newest) return;
      const ids = [...held.keys()].sort();
      for (const id of ids.slice(0, ids.length - newest)) held.delete(id);
    };
    const unreadable = await this.eachRecord((record) => {
      if (record.record === "complete") {
        const entry = held.get(record.id);
        if (entry) completeEntry(entry, record);
        return;
      }
      if (keep && !keep(record)) return;
      held.set(record.id, entryOfBegin(record));
      if (newest !== undefined && held.size >= 2 * newest + 64) keepNewest();
    });
    keepNewest();
    return { entries: [...held.values()], unreadable };
  }

  /** `foodctl journal`'s entries: filtered and cut to the limit while reading, newest first. */
  async select(filter: JournalFilter): Promise<JournalRead> {
    const read = await this.query({ keep: (record) => matchesFilter(record, filter), newest: filter.limit });
    return { entries: selectEntries(read.entries, filter), unreadable: read.unreadable };
  }

  /** Under the lock: rewrites the file without the entries begun before `cutoff`, and their images, reading it line by line. */
  private async dropOlderThan(cutoff: number): Promise<void> {
    if (!this.oldestBefore(cutoff)) return;
    const dropped = new Set<string>();
    const images: string[] = [];
    const unreadable = await this.eachRecord((record) => {
      if (record.record !== "begin" || !(Date.parse(record.time) < cutoff)) return;
      dropped.add(record.id);
      if (record.image_copy) images.push(record.image_copy.file);
    });
    if (dropped.size === 0 && unreadable === 0) return;
    const folder = this.prepare();
    writeFileAtomic(folder.at(JOURNAL_FILE), this.linesKept(dropped, await this.recordCheck()), { mode: 0o600 });
    // Only images/<id>: the record's schema refuses any other file (docs/journal.md, retention).
    for (const file of images) rmSync(folder.at(file), { force: true });
  }

  /** The file's records as lines, without the dropped entries' and without unreadable lines. */
  private *linesKept(dropped: ReadonlySet<string>, check: RecordCheck): Generator<string> {
    let batch = "";
    for (const line of this.lines()) {
      if (line === null || line.trim() === "") continue;
      const { record, unreadable } = readRecordLine(line, check);
      if (!record || dropped.has(record.id)) continue;
      batch += unreadable ? `${JSON.stringify(record)}\n` : `${line}\n`;
      if (batch.length >= this.chunkBytes) {
        yield batch;
        batch = "";
      }
    }
    if (batch !== "") yield batch;
  }

  /**
   * Reads only the first line: entries are appended in time order, so the oldest is first. A first
   * line that is not plainly a begin record (torn, edited by hand) sends the rewrite through the
   * whole file, which checks every record and drops what is unreadable.
   */
  private oldestBefore(cutoff: number): boolean {
    for (const line of this.lines()) {
      if (line !== null && line.trim() === "") continue;
      const time = line === null ? undefined : beginTime(line);
      return time === undefined || time < cutoff;
    }
    return false;
  }

  /** Keeps a display image's bytes for undo: `images/<id>`, 0600. */
  async saveImage(id: string, bytes: Buffer): Promise<ImageCopy> {
    const file = join(IMAGES, id);
    writeFileAtomic(this.prepare().at(file), bytes, { mode: 0o600 });
    return { file, bytes: bytes.byteLength, sha256: await sha256(bytes) };
  }

  /** Where a saved copy is on disk. */
  readonly imagePath = (copy: ImageCopy): string => join(this.dir, copy.file);

  /** A saved image's bytes, checked against the hash recorded with it; null when gone or changed. */
  async readImage(copy: ImageCopy): Promise<Buffer | null> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.existing(copy.file) ?? "");
    } catch {
      return null;
    }
    return (await sha256(bytes)) === copy.sha256 ? bytes : null;
  }
}

/** Whether the file's last byte is a line break. */
function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/** The SHA-256 of a kept image copy, in hex. */
async function sha256(bytes: Buffer): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(bytes).digest("hex");
}
