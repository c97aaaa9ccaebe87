/**
 * Dates for the history list. The CLI takes YYYY-MM-DD or ISO 8601; the API takes
 * "YYYY/MM/DD, HH:MM:SS" in UTC (docs/api.md, the history list).
 */
const API_DATE = /^(\d{4})\/(\d{2})\/(\d{2}), (\d{2}):(\d{2}):(\d{2})$/;
const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

export function formatApiDateTime(date: Date): string {
  return `${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** A valid calendar date in UTC, or null (2026-02-30 is not one). */
function utcDate(year: number, month: number, day: number, h = 0, m = 0, s = 0): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day, h, m, s));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

/**
 * Converts a command-line date to the API's form. A bare date means the start of that day
 * for --from and its last second for --to; an ISO time without a zone is read as UTC.
 */
export function toApiDateTime(text: string, edge: "start" | "end"): string | null {
  const bare = BARE_DATE.exec(text);
  if (bare) {
    const [year, month, day] = [Number(bare[1]), Number(bare[2]), Number(bare[3])];
    const date = edge === "start" ? utcDate(year, month, day) : utcDate(year, month, day, 23, 59, 59);
    return date ? formatApiDateTime(date) : null;
  }
  if (!ISO_DATE_TIME.test(text)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const time = Date.parse(zoned);
  if (Number.isNaN(time)) return null;
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  if (!utcDate(year, month, day)) return null;
  return formatApiDateTime(new Date(time));
}

/** Reads the API's date form; null when malformed or not a real date. */
export function parseApiDateTime(text: string): Date | null {
  const match = API_DATE.exec(text);
  if (!match) return null;
  const [year, month, day, h, m, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (h > 23 || m > 59 || s > 59) return null;
  return utcDate(year, month, day, h, m, s);
}
