/**
 * Wall-clock times in a user's IANA zone as instants (docs/api.md, the history list). Offsets
 * come from Intl (through the CLI's own zone module), so the zone database decides every clock
 * change; nothing here knows a rule.
 */
import { offsetAt } from "../intake/zones.js";

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
