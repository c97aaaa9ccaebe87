/**
 * The one grammar of dates every date option takes (`intake list --from/--to`, `journal
 * --since/--until`; docs/cli.md, Dates): YYYY-MM-DD, ISO 8601 times, words (`today`,
 * `yesterday`, weekdays, `last week`, `3 days ago`) and lengths back from now (`3d`). A day in
 * words is a whole calendar day on the user's clock. Slash dates and other forms that people
 * read differently are refused, naming their readings in YYYY-MM-DD.
 *
 * A wall-clock time is a "floating" Date: its UTC fields are what the user's clock shows (./zones.ts).
 */
import { wallClockAt, zonedInstant } from "./zones.js";

export type Edge = "start" | "end";

/** What a date option says: a time on the user's clock, or an instant (an offset was given, or a length back from now). */
export type DateReading = { wall: Date; instant?: undefined; note?: string } | { instant: number; wall?: undefined; note?: string };

export type DateAnswer = DateReading | { problem: string; hint?: string };

const DAY_MS = 86_400_000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAY_NAMES: Record<string, number> = {};
for (const [index, name] of WEEKDAYS.entries()) {
  for (const form of [name, name.slice(0, 3)]) WEEKDAY_NAMES[form] = index;
}
Object.assign(WEEKDAY_NAMES, { tues: 2, thur: 4, thurs: 4 });

export const DATE_FORMS =
  "a date (YYYY-MM-DD), an ISO 8601 time, a length back from now (30m, 12h, 3d, 2w) " +
  'or words such as "today", "yesterday", "monday", "last week" or "3 days ago"';

const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const LENGTH = /^([1-9][0-9]{0,5})\s*(m|min|h|d|w)$/;
const LENGTH_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS };
const AGO = /^([1-9][0-9]{0,4}) (minute|hour|day|week)s? ago$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
/** Day and month as digits, in either order, with or without a year: 03/11/2026, 3/11, 3.11.26, 11-03-2026. */
const NUMERIC_DAY = /^(\d{1,2})([/.-])(\d{1,2})(?:\2(\d{2}|\d{4}))?\.?$/;
const YEAR_FIRST_SLASH = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/;
const MONTH_NAME =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY_MONTH = new RegExp(`^(?:[a-z]+,? )?(\\d{1,2})(?:st|nd|rd|th)? ${MONTH_NAME},?(?: (\\d{4}))?$`);
const MONTH_DAY = new RegExp(`^(?:[a-z]+,? )?${MONTH_NAME} (\\d{1,2})(?:st|nd|rd|th)?,?(?: (\\d{4}))?$`);

const pad = (value: number) => String(value).padStart(2, "0");

/** A floating Date as YYYY-MM-DD. */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A valid calendar day (floating, its first second), or null (2026-02-30 is not one). */
export function calendarDay(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
/** A whole day as one end of a window: its first second as a start, its last as an end. */
const dayEdge = (day: Date, edge: Edge) => ({ wall: edge === "start" ? day : new Date(day.getTime() + DAY_MS - 1000) });
/** Monday of the (ISO) week holding `day`. */
const mondayOf = (day: Date) => addDays(day, -((day.getUTCDay() + 6) % 7));
const weekdayName = (index: number) => WEEKDAYS[index]![0]!.toUpperCase() + WEEKDAYS[index]!.slice(1);

function fullYear(text: string | undefined, today: Date): number {
  if (text === undefined) return today.getUTCFullYear();
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

/** A refused form with the days it could mean, each in YYYY-MM-DD. */
function readingsProblem(text: string, readings: Date[]): { problem: string; hint: string } {
  const days = [...new Set(readings.map(isoDay))];
  if (days.length === 0) return { problem: `"${text}" is not a date in the calendar`, hint: "write dates as YYYY-MM-DD" };
  if (days.length === 1) return { problem: `"${text}" is not a form foodctl reads: write ${days[0]}`, hint: "write dates as YYYY-MM-DD" };
  return { problem: `"${text}" could be ${days.join(" or ")}?`, hint: "write the one you mean as YYYY-MM-DD" };
}

/** Forms people write but read differently (day or month first), or that only look like a date: refused, with their readings. */
function refusedForm(text: string, input: string, today: Date): { problem: string; hint: string } | null {
  const numeric = NUMERIC_DAY.exec(text);
  if (numeric) {
    const [a, b, year] = [Number(numeric[1]), Number(numeric[3]), fullYear(numeric[4], today)];
    return readingsProblem(
      text,
      [calendarDay(year, b, a), calendarDay(year, a, b)].filter((day) => day !== null),
    );
  }
  const yearFirst = YEAR_FIRST_SLASH.exec(text);
  if (yearFirst) {
    const day = calendarDay(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
    return readingsProblem(input, day ? [day] : []);
  }
  const dayFirst = DAY_MONTH.exec(text);
  const monthFirst = MONTH_DAY.exec(text);
  const named = dayFirst ?? monthFirst;
  if (named) {
    const [day, month] = dayFirst ? [named[1], named[2]] : [named[2], named[1]];
    const date = calendarDay(fullYear(named[3], today), MONTHS.indexOf(month!.slice(0, 3)) + 1, Number(day));
    return readingsProblem(input, date ? [date] : []);
  }
  return null;
}

/** A day named in words (`today`, `yesterday`, `monday`, `3 days ago`, `last week`), or a problem; undefined when `text` names none. */
function dayInWords(text: string, edge: Edge, today: Date): DateReading | { problem: string; hint?: string } | undefined {
  if (text === "today") return dayEdge(today, edge);
  if (text === "yesterday") return dayEdge(addDays(today, -1), edge);
  const weekday = WEEKDAY_NAMES[text];
  if (weekday !== undefined) {
    // The latest one, today included: history looks back.
    const back = (today.getUTCDay() - weekday + 7) % 7;
    const reading = dayEdge(addDays(today, -back), edge);
    if (back > 0) return reading;
    return {
      ...reading,
      note: `"${text}" read as today, ${isoDay(today)}; the ${weekdayName(weekday)} before is ${isoDay(addDays(today, -7))}`,
    };
  }
  const last = /^last (\S+)$/.exec(text);
  if (last?.[1] === "week") {
    // The calendar week before this one, Monday to Sunday.
    const monday = addDays(mondayOf(today), -7);
    return dayEdge(edge === "start" ? monday : addDays(monday, 6), edge);
  }
  if (last?.[1] === "month") {
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
    return dayEdge(edge === "start" ? first : addDays(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)), -1), edge);
  }
  if (text === "this week") return dayEdge(edge === "start" ? mondayOf(today) : addDays(mondayOf(today), 6), edge);
  if (last?.[1] !== undefined && WEEKDAY_NAMES[last[1]] !== undefined) {
    const index = WEEKDAY_NAMES[last[1]]!;
    const latest = addDays(today, -(((today.getUTCDay() - index + 6) % 7) + 1));
    const ofLastWeek = addDays(addDays(mondayOf(today), -7), (index + 6) % 7);
    if (latest.getTime() === ofLastWeek.getTime()) return dayEdge(latest, edge);
    const name = weekdayName(index);
    return {
      problem: `"${text}" could be ${isoDay(latest)} (the latest ${name}) or ${isoDay(ofLastWeek)} (${name} of last week)?`,
      hint: `write the one you mean as YYYY-MM-DD, or "${last[1]}" for the latest`,
    };
  }
  const ago = AGO.exec(text);
  if (ago && (ago[2] === "day" || ago[2] === "week")) {
    return dayEdge(addDays(today, -Number(ago[1]) * (ago[2] === "week" ? 7 : 1)), edge);
  }
  return undefined;
}

/**
 * Reads one date option on the clock of `zone` at the instant `now` (ms). A day in words or a
 * YYYY-MM-DD is that whole day on the user's clock (its first second as a start, its last as an
 * end); a time without an offset is on the user's clock; a time with one, `now`, a length
 * (`3d`) and `3 hours ago` are instants. Returns a problem for anything else.
 */
export function readDate(input: string, edge: Edge, zone: string, now: number): DateAnswer {
  const text = input.trim().toLowerCase().replace(/\s+/g, " ");
  const wholeNow = Math.floor(now / 1000) * 1000;
  const today = startOfDay(wallOf({ instant: wholeNow }, zone));
  if (text === "") return { problem: `must be ${DATE_FORMS}, got ""` };
  if (text === "now") return { instant: wholeNow };

  const bare = BARE_DATE.exec(text);
  if (bare) {
    const day = calendarDay(Number(bare[1]), Number(bare[2]), Number(bare[3]));
    return day ? dayEdge(day, edge) : { problem: `"${input}" is not a date in the calendar` };
  }
  const iso = ISO_TIME.exec(text);
  if (iso) {
    const [year, month, day, hour, minute, second] = iso.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
    if (!calendarDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59) {
      return { problem: `"${input}" is not a time in the calendar` };
    }
    const wall = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
    const offset = iso[7];
    if (offset === undefined) return { wall };
    const sign = offset.startsWith("-") ? -1 : 1;
    const digits = offset.toUpperCase() === "Z" ? "0000" : offset.slice(1).replace(":", "").padEnd(4, "0");
    const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return { instant: wall.getTime() - offsetMs };
  }
  const length = LENGTH.exec(text);
  if (length) return { instant: wholeNow - Number(length[1]) * LENGTH_MS[length[2]!]! };
  const ago = AGO.exec(text);
  if (ago && (ago[2] === "minute" || ago[2] === "hour")) {
    return { instant: wholeNow - Number(ago[1]) * LENGTH_MS[ago[2] === "hour" ? "h" : "m"]! };
  }

  // A day in words, alone or with a time of day ("yesterday 18:00").
  const [, words = text, clock] = /^(.*?)(?: (?:at )?(\d{1,2}:\d{2}(?::\d{2})?))?$/.exec(text) ?? [];
  const day = dayInWords(words, "start", today);
  if (day && "problem" in day) return day;
  if (day?.wall) {
    if (clock === undefined) return dayInWords(words, edge, today) as DateReading;
    const [, h, m, s] = CLOCK.exec(clock)!;
    if (Number(h) > 23 || Number(m) > 59 || Number(s ?? 0) > 59) return { problem: `"${clock}" is not a time of day` };
    const wall = new Date(day.wall.getTime() + ((Number(h) * 60 + Number(m)) * 60 + Number(s ?? 0)) * 1000);
    return { wall, ...(day.note && { note: day.note }) };
  }

  const refused = refusedForm(text, input.trim(), today);
  if (refused) return refused;
  return { problem: `must be ${DATE_FORMS}, got "${input}"` };
}

/** A floating Date as the user reads it in a note: "2026-11-03 00:00:00". */
export const formatWall = (date: Date) =>
  `${isoDay(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;

/** A reading on the user's clock (the history list's form). */
export function wallOf(reading: DateReading, zone: string): Date {
  if (reading.wall) return reading.wall;
  return zone === "UTC" ? new Date(reading.instant) : wallClockAt(new Date(reading.instant), zone);
}

/** A reading as an instant (ms): a time the clocks of `zone` show twice is its earlier instant as a start, its later as an end. */
export function instantOf(reading: DateReading, zone: string, edge: Edge): number {
  if (reading.wall === undefined) return reading.instant;
  return zone === "UTC" ? reading.wall.getTime() : zonedInstant(zone, reading.wall.getTime(), edge);
}
