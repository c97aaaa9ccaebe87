/** Argument checks every command shares, each a usage error (exit 2) before anything is sent; and the quoting of a command it prints. */
import { usageError } from "../errors.js";
import { looksLikeDate, parseApiDateTime, toApiDateTime } from "../intake/dates.js";
import { parsePositiveId } from "../intake/ids.js";

export function parseImageIdArg(text: string): number {
  const id = parsePositiveId(text);
  if (id === null) throw usageError(`image_id must be a positive integer, got "${text}"`, { hint: "find ids with `foodctl intake list`" });
  return id;
}

/**
 * A date option (`--from`, `--to`, `--since`): YYYY-MM-DD (its first or last second, by `edge`)
 * or an ISO 8601 time, UTC.
 */
export function parseDateOption(flag: string, text: string, edge: "start" | "end"): Date {
  const api = toApiDateTime(text, edge);
  const date = api === null ? null : parseApiDateTime(api);
  if (date === null && looksLikeDate(text)) throw usageError(`${flag}: "${text}" is not a date in the calendar`);
  if (date === null) throw usageError(`${flag} must be a date (YYYY-MM-DD) or an ISO 8601 time, got "${text}"`);
  return date;
}

/** A word as a shell reads it back: as it is when it holds nothing the shell treats specially, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** How many intakes a batch (`intake apply`, `undo --batch`) changes at once, unless --concurrency says. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

/** --concurrency: a whole number from 1 to 64 (exit 2 otherwise); the default when not given. */
export function parseConcurrency(text: string | undefined): number {
  const given = text ?? String(DEFAULT_CONCURRENCY);
  const concurrency = /^[0-9]{1,3}$/.test(given) ? Number(given) : NaN;
  if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY))
    throw usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${given}"`);
  return concurrency;
}
