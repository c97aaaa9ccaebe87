/** The `--junit <file>` report's place, checked before anything is sent (smoke.ts writes it atomically at the end). */
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { usageError } from "../../errors.js";

/** A usage error (exit 2, nothing sent) when the report could not be written there (a name at all: smoke/index.ts). */
export async function checkReportPath(path: string): Promise<void> {
  const folder = dirname(resolve(path));
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw usageError(`--junit ${path}: no such folder ${folder}`);
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw usageError(`--junit ${path} is a folder, not a file`);
}
