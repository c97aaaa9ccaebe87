/**
 * Times of records: on a terminal in the user's zone when one is named, else UTC, always naming
 * it ("2026-11-21 18:00 Asia/Tokyo (3 h ago)"); piped, RFC 3339 with that zone's offset. The
 * history list's window in words.
 */
import type { SentWindow } from "../intake/dates.js";
import { formatOffset, offsetAt, wallClockAt } from "../intake/zones.js";

/** An instant on `zone`'s clock as RFC 3339 ("2026-11-21T18:00:00+09:00"); UTC ("…Z") without a zone. */
function rfc3339(time: number, zone: string | null): string {
  const instant = new Date(time);
  if (zone === null || zone === "UTC") return instant.toISOString().replace(/\.000Z$/, "Z");
  const wall = wallClockAt(instant, zone).toISOString().slice(0, 19);
  return `${wall}${formatOffset(offsetAt(instant, zone))}`;
}

/** `now` (ms) is the run's clock, for the relative time on a terminal. */
export function formatTime(iso: string | null | undefined, forTerminal: boolean, now: number, zone: string | null = null): string {
  if (!iso) return "-";
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const text = rfc3339(time, zone);
  if (!forTerminal) return text;
  return `${text.slice(0, 16).replace("T", " ")} ${zone ?? "UTC"} (${relative(now - time)})`;
}

/** A time for a pipe: RFC 3339 on `zone`'s clock ("2026-11-21T18:00:00+09:00"), UTC ("…Z") without one. */
export function formatInstant(iso: string | null | undefined, zone: string | null = null): string {
  if (!iso) return "-";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : rfc3339(time, zone);
}

/** A table's time on a terminal, where width is scarce: "2026-11-21 09:00" (its zone said in the header). */
export function formatMinute(iso: string | null | undefined, zone: string | null = null): string {
  if (!iso) return "-";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : rfc3339(time, zone).slice(0, 16).replace("T", " ");
}

/** An instant on a zone's clock, to the minute, the zone named: "2026-11-26 14:05 Asia/Tokyo". */
export function formatClock(time: number, zone: string): string {
  return `${rfc3339(time, zone).slice(0, 16).replace("T", " ")} ${zone}`;
}

function relative(ms: number): string {
  const future = ms < 0;
  const s = Math.abs(ms) / 1000;
  const [value, unit] =
    s < 60
      ? [Math.round(s), "s"]
      : s < 3600
        ? [Math.round(s / 60), "min"]
        : s < 86_400
          ? [Math.round(s / 3600), "h"]
          : [Math.round(s / 86_400), "d"];
  return future ? `in ${value} ${unit}` : `${value} ${unit} ago`;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const secondsOfDay = (date: Date) => Math.floor(date.getTime() / 1000) % 86_400;

/** One end of a window in words: "Mon 3 Nov", the year when asked, the time when it is not the day's edge ("14:05"). */
function windowEnd(date: Date, year: boolean, edge: "start" | "end"): string {
  const day = `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}${year ? ` ${date.getUTCFullYear()}` : ""}`;
  if (secondsOfDay(date) === (edge === "start" ? 0 : 86_399)) return day;
  const time = date.toISOString().slice(11, 19).replace(/:00$/, "");
  return `${day} ${time}`;
}

/**
 * The window in plain words, for the terminal's heading and messages: "Mon 3 Nov – Sat 8 Nov 2026
 * (Europe/Berlin)", "the last 7 days (Asia/Tokyo)"; without a zone, the rows' times are in UTC and
 * it says so. The window as sent is in --verbose and --json.
 */
export function describeWindow(window: SentWindow, heading = true): string {
  const unnamed = heading ? ", times in UTC (the user's zone is not known: --tz names it)" : "";
  const clock = window.zone === null ? unnamed : ` (${window.zone})`;
  if (window.lastDays !== null) return `the last ${window.lastDays === 1 ? "day" : `${window.lastDays} days`}${clock}`;
  const { from, to } = window;
  if (window.toNow) return `${windowEnd(from, true, "start")} – now${clock}`;
  const sameYear = from.getUTCFullYear() === to.getUTCFullYear();
  const wholeDays = secondsOfDay(from) === 0 && secondsOfDay(to) === 86_399;
  if (wholeDays && from.toISOString().slice(0, 10) === to.toISOString().slice(0, 10)) return `${windowEnd(from, true, "start")}${clock}`;
  return `${windowEnd(from, !sameYear, "start")} – ${windowEnd(to, true, "end")}${clock}`;
}

/** The heading over the rows; wider than the terminal, its last parenthesis goes on a line of its own. */
export function windowHeading(window: SentWindow, columns: number): string {
  const heading = `Intakes of ${describeWindow(window)}`;
  const split = heading.lastIndexOf(" (");
  return heading.length <= columns || split < 0 ? `${heading}\n` : `${heading.slice(0, split)}\n${heading.slice(split + 1)}\n`;
}
