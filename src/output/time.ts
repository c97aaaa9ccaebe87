/** Times: UTC and relative on a terminal ("2026-11-21 09:00 UTC (3 h ago)"), RFC 3339 when piped. */
export function formatTime(iso: string | null | undefined, forTerminal: boolean, now: number = Date.now()): string {
  if (!iso) return "-";
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const rfc3339 = new Date(time).toISOString().replace(/\.000Z$/, "Z");
  if (!forTerminal) return rfc3339;
  const utc = rfc3339.slice(0, 16).replace("T", " ");
  return `${utc} UTC (${relative(now - time)})`;
}

/** A table's time on a terminal, where width is scarce: "2026-11-21 09:00" (UTC, said in the header). */
export function formatUtcMinute(iso: string | null | undefined): string {
  if (!iso) return "-";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toISOString().slice(0, 16).replace("T", " ");
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
