/**
 * Times of records: on a terminal in the user's zone when one is named, else UTC, always naming
 * it ("2026-11-21 18:00 Asia/Tokyo (3 h ago)"); piped, RFC 3339 with that zone's offset.
 */
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
