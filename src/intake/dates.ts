/**
 * The history list's window and the API's date form, "YYYY/MM/DD, HH:MM:SS" on the user's wall
 * clock (docs/api.md, the history list). What the user types is read by ./dateInput.ts. A
 * wall-clock time is a "floating" Date: its UTC fields are what the user's clock shows (./zones.ts).
 */
const API_DATE = /^(\d{4})\/(\d{2})\/(\d{2}), (\d{2}):(\d{2}):(\d{2})$/;

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

export function formatApiDateTime(date: Date): string {
  const day = `${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}`;
  return `${day}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** A time as people read it in messages and headings: "2026-11-30 08:15:00" (the Date's UTC fields). */
function formatDateTime(date: Date): string {
  return formatApiDateTime(date).replace(/\//g, "-").replace(", ", " ");
}

/** A valid calendar date in UTC, or null (2026-02-30 is not one). */
function utcDate(year: number, month: number, day: number, h = 0, m = 0, s = 0): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day, h, m, s));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

/** Reads the API's date form; null when malformed or not a real date. */
export function parseApiDateTime(text: string): Date | null {
  const match = API_DATE.exec(text);
  if (!match) return null;
  const [year, month, day, h, m, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (h > 23 || m > 59 || s > 59) return null;
  return utcDate(year, month, day, h, m, s);
}

/** The history window (docs/cli.md, dates): both ends are always sent. */
const DEFAULT_WINDOW_DAYS = 7;
/** Longer windows need both ends given explicitly: a year of intakes is a large answer. */
export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;
/** The latest wall clock anywhere (UTC+14, Kiribati): a window ending there misses no zone's "now". */
const EARLIEST_ZONE_AHEAD_MS = 14 * 3_600_000;

type WindowInput = { from?: Date | undefined; to?: Date | undefined; days?: number | undefined };

export interface HistoryWindow {
  /** Wall-clock times of the user (floating Dates). */
  from: Date;
  to: Date;
  /** The window ends at the user's "now" (no --to, and no --days after a --from). */
  toNow: boolean;
}

/**
 * The window `intake list` asks for, on the user's wall clock (`now` is that clock's): the last 7
 * days up to now by default; `to` alone means the `days` (7) before it; `from` alone runs `days`
 * after it, or up to now without `days`.
 * Returns a problem instead when the ends cross or the window is over a year without both ends given.
 */
export function resolveHistoryWindow(input: WindowInput, now: Date): HistoryWindow | { problem: string } {
  const { from, to, days } = input;
  if (from && to && days !== undefined) return { problem: "--days goes with --from or --to, not both" };
  const span = (days ?? DEFAULT_WINDOW_DAYS) * DAY_MS;
  const wholeNow = new Date(Math.floor(now.getTime() / 1000) * 1000);
  let window: HistoryWindow;
  // A window of whole days runs from a day's first second to a day's last: `--to 2026-11-05
  // --days 3` is 3 to 5 November, and two windows side by side share no second.
  const second = (date: Date, at: number) => (Math.floor(date.getTime() / 1000) % 86_400 === at ? 1000 : 0);
  if (from && to) window = { from, to, toNow: false };
  else if (from)
    window =
      days === undefined
        ? { from, to: wholeNow, toNow: true }
        : { from, to: new Date(from.getTime() + span - second(from, 0)), toNow: false };
  else {
    const end = to ?? wholeNow;
    window = { from: new Date(end.getTime() - span + (to ? second(to, 86_399) : 0)), to: end, toNow: to === undefined };
  }
  if (window.from.getTime() > window.to.getTime()) {
    const end = window.toNow ? `now, ${formatDateTime(window.to)}` : formatDateTime(window.to);
    return { problem: `the window starts (${formatDateTime(window.from)}) after it ends (${end})` };
  }
  const lengthDays = (window.to.getTime() - window.from.getTime()) / DAY_MS;
  if (!(from && to) && lengthDays > MAX_WINDOW_DAYS) {
    return {
      problem: `a window of ${Math.ceil(lengthDays)} days is over a year (${MAX_WINDOW_DAYS} days); give both --from and --to to ask for it`,
    };
  }
  return window;
}

/** The window as sent, and the clock it is read on: a zone's name, or null for the user's unnamed one. */
export interface SentWindow extends HistoryWindow {
  zone: string | null;
  /** What date_to says: `to`, or without a zone and up to now, the latest clock anywhere (UTC+14). */
  sentTo: Date;
  /** The days of a window that ends now and was given no --from or --to ("the last 7 days"), else null. */
  lastDays: number | null;
}

/**
 * The window `intake list` sends, on the clock of `zone` (`now` is that clock's). Without a zone, dates are sent as they are (the
 * service reads them on the user's clock) and a window up to now runs to the latest clock of any zone: it misses no newest intake.
 */
export function windowToSend(input: WindowInput, now: Date, zone: string | null): SentWindow | { problem: string } {
  const window = resolveHistoryWindow(input, now);
  if ("problem" in window) return window;
  const sentTo = window.toNow && zone === null ? new Date(window.to.getTime() + EARLIEST_ZONE_AHEAD_MS) : window.to;
  const lastDays = input.from === undefined && input.to === undefined ? (input.days ?? DEFAULT_WINDOW_DAYS) : null;
  return { ...window, zone, sentTo, lastDays };
}
