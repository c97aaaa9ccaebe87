/** The `--junit <file>` report: its place checked before anything is sent, then written atomically. */
import { randomBytes } from "node:crypto";
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { usageError } from "../../errors.js";

/** A usage error (exit 2, nothing sent) when the report could not be written there. */
export async function checkReportPath(path: string): Promise<void> {
  if (path === "" || path === "-") throw usageError(`--junit needs a file name, got "${path}"`);
  const folder = dirname(resolve(path));
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw usageError(`--junit ${path}: no such folder ${folder}`);
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw usageError(`--junit ${path} is a folder, not a file`);
}

/** Written beside the target and renamed over it: a reader never sees half a report. */
export async function writeReportFile(path: string, text: string): Promise<void> {
  const target = resolve(path);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, text, { mode: 0o644 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
