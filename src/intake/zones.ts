/**
 * The user's clock: IANA time zones through Intl, which carries the zone rules (no hand DST
 * rules here). A wall-clock time is held as a Date whose UTC fields are what the clock shows
 * ("floating"): the history list takes wall-clock times of the user (docs/api.md, the history list).
 */

/** The latest wall clock anywhere (UTC+14, Kiribati): a window ending there misses no zone's "now". */
export const EARLIEST_ZONE_AHEAD_MS = 14 * 3_600_000;

/** What a refused zone name is told. */
export const TIME_ZONE_HINT = "give an IANA zone name such as Europe/Berlin, America/New_York or UTC";

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

/** The zone's canonical IANA name (`asia/tokyo` → `Asia/Tokyo`), or null when Intl knows no such zone. */
export function canonicalTimeZone(name: string): string | null {
  // Intl also takes offsets such as "+09:00"; the user's zone is a name, with its clock changes.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null;
  try {
    const zone = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    return zone === "Etc/UTC" || zone === "Etc/GMT" ? "UTC" : zone;
  } catch {
    return null;
  }
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

/** This machine's zone (TZ, else the system's), for times the operator reads when no user zone is named. */
export function machineTimeZone(): string {
  return canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
}
