/**
 * The user's clock: IANA time zones through Intl, which carries the zone rules (no hand DST
 * rules here). A wall-clock time is held as a Date whose UTC fields are what the clock shows
 * ("floating"): the history list takes wall-clock times of the user (docs/api.md, the history list).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of `zone` at an instant, as a floating Date (whole seconds). */
export function wallClockAt(instant: Date, zone: string): Date {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!));
}

/** The zone's offset from UTC at an instant, in milliseconds (Tokyo: +9 h). */
export function offsetAt(instant: Date, zone: string): number {
  const whole = new Date(Math.floor(instant.getTime() / 1000) * 1000);
  return wallClockAt(whole, zone).getTime() - whole.getTime();
}

/** An offset as RFC 3339 writes it: "+09:00", "-05:00", "Z" for none. */
export function formatOffset(offsetMs: number): string {
  if (offsetMs === 0) return "Z";
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const sign = offsetMs < 0 ? "-" : "+";
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/* Wall-clock times in a zone as instants: the zone database decides every clock change; nothing here knows a rule. */

/** How far the zone's clocks are ahead of UTC at `instant`, in milliseconds (whole seconds). */
export const zoneOffsetMs = (zone: string, instant: number): number => offsetAt(new Date(instant), zone);

const DAY_MS = 86_400_000;

/**
 * The instants at which the zone's clocks show `wall` (a wall-clock time written as if it were
 * UTC milliseconds): one as a rule, two in the hour a clock change repeats, none in the hour
 * it skips. Any clock change within a day of `wall` shows in the offsets a day either side.
 */
function instantsShowing(zone: string, wall: number): number[] {
  const offsets = new Set([zoneOffsetMs(zone, wall - DAY_MS), zoneOffsetMs(zone, wall), zoneOffsetMs(zone, wall + DAY_MS)]);
  const instants = [...offsets].map((offset) => wall - offset).filter((instant) => instant + zoneOffsetMs(zone, instant) === wall);
  return [...new Set(instants)].sort((a, b) => a - b);
}

/** The first second at which the zone's offset is `after` (a clock change between `from` and `to`). */
function changeBetween(zone: string, from: number, to: number, after: number): number {
  let [low, high] = [Math.floor(from / 1000), Math.ceil(to / 1000)];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (zoneOffsetMs(zone, middle * 1000) === after) high = middle;
    else low = middle;
  }
  return high * 1000;
}

/**
 * The instant a window's end names in the zone. A time shown twice (clocks set back) is its
 * earlier instant for the start of a window and its later one for the end, so the window holds
 * every moment whose local time lies within it; a time never shown (clocks set forward) is the
 * moment of the change.
 */
export function zonedInstant(zone: string, wall: number, end: "start" | "end"): number {
  const instants = instantsShowing(zone, wall);
  if (instants.length > 0) return end === "start" ? instants[0]! : instants.at(-1)!;
  const before = zoneOffsetMs(zone, wall - DAY_MS);
  const after = zoneOffsetMs(zone, wall + DAY_MS);
  return changeBetween(zone, wall - after, wall - before, after);
}
