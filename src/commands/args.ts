/** Argument checks every command shares, each a usage error (exit 2) before anything is sent; and the quoting of a command it prints. */
import { usageError } from "../errors.js";
import { parsePositiveId } from "../intake/ids.js";

export function parseImageIdArg(text: string): number {
  const id = parsePositiveId(text);
  if (id === null) throw usageError(`image_id must be a positive integer, got "${text}"`, { hint: "find ids with `foodctl intake list`" });
  return id;
}

/** A word as a shell reads it back: as it is when it holds nothing the shell treats specially, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** How many intakes a batch (`intake apply`, `undo --batch`) changes at once, unless --concurrency says. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

/** --concurrency, read where the option is declared: a whole number from 1 to 64 (exit 2 otherwise). */
export function parseConcurrency(text: string): number {
  const concurrency = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY))
    throw usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${text}"`);
  return concurrency;
}
