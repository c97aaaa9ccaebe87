/**
 * The journal file: `$XDG_STATE_HOME/foodctl/journal.jsonl` (default ~/.local/state/foodctl),
 * folder 0700, file 0600, saved display images in `images/` beside it. Every write holds the
 * lock file, so two foodctl processes append whole lines and a retention rewrite loses nothing.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { failure } from "../errors.js";
import { homeDir } from "../home.js";
import { withFileLock } from "../lock.js";
import { foldRecords, parseRecord, type ImageCopy, type JournalEntry, type JournalRecord } from "./entry.js";

export const JOURNAL_FILE = "journal.jsonl";
const IMAGES = "images";
const DAY_MS = 86_400_000;

export function journalDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : join(homeDir(env), ".local", "state");
  return join(base, "foodctl");
}

export class JournalStore {
  readonly path: string;
  private prepared = false;

  constructor(readonly dir: string) {
    this.path = join(dir, JOURNAL_FILE);
  }

  /** The folder and its images/, private: once a store (a run writes twice per change). */
  private prepare(): void {
    if (this.prepared) return;
    try {
      mkdirSync(join(this.dir, IMAGES), { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
    } catch (error) {
      throw this.unwritable(error as Error);
    }
    this.prepared = true;
  }

  private unwritable(error: Error): Error {
    return failure(`cannot write the journal in ${this.dir}: ${error.message}`, {
      hint: "nothing was sent; fix the folder's permissions, or pass --no-journal",
    });
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    const lock = `${this.path}.lock`;
    const busy = () =>
      failure(`the journal ${this.path} is locked by another foodctl`, { hint: `try again; if no foodctl is running, remove ${lock}` });
    return withFileLock(lock, { cannotCreate: (error) => this.unwritable(error), busy }, work);
  }

  /** Appends records as whole lines (one write); first drops entries older than `days` when there are any. */
  async append(records: readonly JournalRecord[], days: number | null, now: number): Promise<void> {
    this.prepare();
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join("");
    await this.locked(async () => {
      if (days !== null) this.dropOlderThan(now - days * DAY_MS);
      const fd = openSync(this.path, "a", 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      chmodSync(this.path, 0o600);
    });
  }

  /** Every record in file order; lines that are not records are skipped. */
  readRecords(): JournalRecord[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw failure(`cannot read the journal ${this.path}: ${(error as Error).message}`);
    }
    return text.split("\n").flatMap((line) => {
      const record = line.trim() === "" ? null : parseRecord(line);
      return record ? [record] : [];
    });
  }

  entries(): JournalEntry[] {
    return foldRecords(this.readRecords());
  }

  /** Under the lock: rewrites the file without the entries begun before `cutoff`, and their images. */
  private dropOlderThan(cutoff: number): void {
    if (!this.oldestBefore(cutoff)) return;
    const records = this.readRecords();
    const dropped = new Set(
      records.filter((record) => record.record === "begin" && Date.parse(record.time) < cutoff).map((record) => record.id),
    );
    const kept = records.filter((record) => !dropped.has(record.id));
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, kept.map((record) => `${JSON.stringify(record)}\n`).join(""), { mode: 0o600 });
    renameSync(temp, this.path);
    for (const record of records) {
      if (record.record === "begin" && dropped.has(record.id) && record.image_copy)
        rmSync(join(this.dir, record.image_copy.file), { force: true });
    }
  }

  /** Reads only the first line: entries are appended in time order, so the oldest is first. */
  private oldestBefore(cutoff: number): boolean {
    if (!existsSync(this.path)) return false;
    const fd = openSync(this.path, "r");
    try {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      // Only the first line is decoded: every change appends here, and the file grows.
      const newline = buffer.subarray(0, length).indexOf(0x0a);
      const first = buffer.toString("utf8", 0, newline === -1 ? length : newline);
      if (first.trim() === "") return false;
      const record = parseRecord(first);
      // A first line that is not a record (or longer than the buffer): look at the whole file.
      return record === null || (record.record === "begin" && Date.parse(record.time) < cutoff);
    } finally {
      closeSync(fd);
    }
  }

  /** Keeps a display image's bytes for undo: `images/<id>`, 0600. */
  async saveImage(id: string, bytes: Buffer): Promise<ImageCopy> {
    this.prepare();
    const file = join(IMAGES, id);
    writeFileSync(join(this.dir, file), bytes, { mode: 0o600 });
    return { file, bytes: bytes.byteLength, sha256: await sha256(bytes) };
  }

  /** A saved image's bytes, checked against the hash recorded with it; null when gone or changed. */
  async readImage(copy: ImageCopy): Promise<Buffer | null> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.dir, copy.file));
    } catch {
      return null;
    }
    return (await sha256(bytes)) === copy.sha256 ? bytes : null;
  }
}

/** The SHA-256 of a kept image copy, in hex. */
async function sha256(bytes: Buffer): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(bytes).digest("hex");
}
