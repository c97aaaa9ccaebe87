/**
 * Dates in words for the history window, on the user's wall clock (floating Dates, ./zones.ts):
 * `today`, `yesterday`, a weekday (the latest one, today included), `last week`, `3 days ago`
 * (chrono-node, loaded only when a word needs it), and lengths back from now (`3d`, `12h`, `2w`).
 */
const LENGTH = /^([1-9][0-9]{0,5})\s*(m|min|h|d|w)$/;
const LENGTH_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DAY_MS = 86_400_000;

const dayOf = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());

/** A length back from now (`3d`), or null when `text` is not one. */
export function lengthBefore(text: string, now: Date): Date | null {
  const match = LENGTH.exec(text.trim().toLowerCase());
  if (!match) return null;
  return new Date(Math.floor(now.getTime() / 1000) * 1000 - Number(match[1]) * LENGTH_MS[match[2]!]!);
}

/**
 * A date in words on the clock whose "now" is `now`, or null when chrono-node reads none in the
 * whole text. A day without a time is that day's start for --from and its last second for --to.
 */
export async function readDateWords(text: string, edge: "start" | "end", now: Date): Promise<Date | null> {
  const length = lengthBefore(text, now);
  if (length) return length;
  const chrono = await import("chrono-node/en");
  // The floating clock is read as UTC, so chrono does no zone arithmetic of its own.
  const [result, ...more] = chrono.parse(text.trim(), { instant: now, timezone: 0 });
  if (!result || more.length > 0 || result.index !== 0 || result.text.length !== text.trim().length || result.end) return null;
  const start = result.start;
  let date = start.date();
  // A weekday alone is the latest one (today counts), never the coming one.
  if (start.isCertain("weekday") && !start.isCertain("day") && dayOf(date) > dayOf(now)) {
    date = new Date(date.getTime() - 7 * DAY_MS);
  }
  const exact = start.isCertain("hour") || /\bago\b/i.test(text);
  if (exact) return new Date(Math.floor(date.getTime() / 1000) * 1000);
  const day = dayOf(date);
  return new Date(edge === "start" ? day : day + DAY_MS - 1000);
}
