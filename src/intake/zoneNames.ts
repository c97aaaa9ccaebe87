/**
 * The names a user gives a zone (`--tz`, FOODCTL_TZ, the profile's timezone), read: IANA names and
 * UTC, abbreviations refused with the zones they may mean. Loaded only when a zone is named (a cold
 * file of its own: start-up); the clock arithmetic is ./zones.ts.
 */

/** What a refused zone name is told. */
export const TIME_ZONE_HINT = "give an IANA zone name such as Europe/Berlin, America/New_York or UTC";

/**
 * Abbreviations people type for a zone, and the IANA zones they stand for (the commonest first);
 * `fixed` when the abbreviation is a standard time all year, while the zones named change clocks.
 */
const ABBREVIATIONS: Record<string, { zones: string[]; fixed?: string }> = {
  EST: { zones: ["America/New_York", "America/Toronto", "America/Panama"], fixed: "UTC-05:00" },
  EDT: { zones: ["America/New_York", "America/Toronto"] },
  CST: {
    zones: ["America/Chicago", "America/Mexico_City", "Asia/Shanghai", "America/Havana"],
    fixed: "UTC-06:00 (US) or UTC+08:00 (China)",
  },
  CDT: { zones: ["America/Chicago", "America/Havana"] },
  MST: { zones: ["America/Denver", "America/Phoenix", "America/Edmonton"], fixed: "UTC-07:00" },
  MDT: { zones: ["America/Denver", "America/Edmonton"] },
  PST: { zones: ["America/Los_Angeles", "America/Vancouver"], fixed: "UTC-08:00" },
  PDT: { zones: ["America/Los_Angeles", "America/Vancouver"] },
  AKST: { zones: ["America/Anchorage"], fixed: "UTC-09:00" },
  HST: { zones: ["Pacific/Honolulu"] },
  GMT: { zones: ["UTC", "Europe/London", "Europe/Dublin"] },
  BST: { zones: ["Europe/London"] },
  WET: { zones: ["Europe/Lisbon", "Atlantic/Canary"], fixed: "UTC+00:00" },
  CET: { zones: ["Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Warsaw"], fixed: "UTC+01:00" },
  CEST: { zones: ["Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Warsaw"] },
  MET: { zones: ["Europe/Berlin", "Europe/Paris"], fixed: "UTC+01:00" },
  EET: { zones: ["Europe/Athens", "Europe/Helsinki", "Europe/Kyiv", "Africa/Cairo"], fixed: "UTC+02:00" },
  EEST: { zones: ["Europe/Athens", "Europe/Helsinki", "Europe/Kyiv"] },
  MSK: { zones: ["Europe/Moscow"] },
  IST: { zones: ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"] },
  PKT: { zones: ["Asia/Karachi"] },
  NPT: { zones: ["Asia/Kathmandu"] },
  ICT: { zones: ["Asia/Bangkok", "Asia/Ho_Chi_Minh"] },
  WIB: { zones: ["Asia/Jakarta"] },
  SGT: { zones: ["Asia/Singapore"] },
  HKT: { zones: ["Asia/Hong_Kong"] },
  PHT: { zones: ["Asia/Manila"] },
  JST: { zones: ["Asia/Tokyo"] },
  KST: { zones: ["Asia/Seoul"] },
  AWST: { zones: ["Australia/Perth"] },
  ACST: { zones: ["Australia/Adelaide", "Australia/Darwin"], fixed: "UTC+09:30" },
  AEST: { zones: ["Australia/Sydney", "Australia/Melbourne", "Australia/Brisbane"], fixed: "UTC+10:00" },
  AEDT: { zones: ["Australia/Sydney", "Australia/Melbourne"] },
  NZST: { zones: ["Pacific/Auckland"], fixed: "UTC+12:00" },
  NZDT: { zones: ["Pacific/Auckland"] },
  BRT: { zones: ["America/Sao_Paulo"] },
  ART: { zones: ["America/Argentina/Buenos_Aires"] },
  SAST: { zones: ["Africa/Johannesburg"] },
  WAT: { zones: ["Africa/Lagos"] },
  EAT: { zones: ["Africa/Nairobi"] },
};

/** The zone an option names, as the user gave it (case set right), or why it is refused (exit 2). */
export type ZoneAnswer = { zone: string } | { problem: string; hint: string };

/**
 * Reads a zone name (`--tz`, FOODCTL_TZ, the profile's timezone): an IANA name with its area
 * (`Europe/Berlin`) or `UTC`. Abbreviations and bare legacy names (`EST`, `CET`, `EST5EDT`,
 * `Japan`) are refused, with the zones they may stand for: Intl would guess them into one city.
 */
export function readTimeZone(name: string): ZoneAnswer {
  const text = name.trim();
  const upper = text.toUpperCase();
  if (upper === "UTC" || upper === "ETC/UTC" || upper === "Z") return { zone: "UTC" };
  // POSIX-style names (EST5EDT) start with the abbreviation, and carry their own clock changes.
  const abbreviation = ABBREVIATIONS[upper.replace(/\d.*$/, "")];
  if (abbreviation) {
    const { zones, fixed } = abbreviation;
    const note =
      fixed && /^[A-Z]+$/.test(upper)
        ? `; ${upper} itself is ${fixed} all year, with no daylight saving, while these zones change clocks`
        : "";
    return {
      problem: `time zone "${text}" is an abbreviation: several zones use it, and a zone changes abbreviation with the season`,
      hint: `give the zone's IANA name: ${zones.join(", ")}${note}`,
    };
  }
  const resolved = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+$/.test(text) ? resolvedZone(text) : null;
  if (resolved === null) {
    const legacy = /^[A-Za-z][A-Za-z0-9_+-]*$/.test(text) ? resolvedZone(text) : null;
    const hint = legacy && legacy.includes("/") ? `give the zone's IANA name, such as ${legacy}` : TIME_ZONE_HINT;
    return { problem: `unknown time zone "${text}"`, hint };
  }
  if (resolved === "UTC") return { zone: "UTC" };
  // Shown as given, only its case set right: Intl may name a linked zone otherwise (Asia/Calcutta).
  return { zone: resolved.toLowerCase() === text.toLowerCase() ? resolved : text };
}

/** Intl's name for a zone ("Etc/UTC" and "Etc/GMT" as UTC), or null when it knows none. */
function resolvedZone(name: string): string | null {
  try {
    const zone = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    return zone === "Etc/UTC" || zone === "Etc/GMT" || zone === "UTC" ? "UTC" : zone;
  } catch {
    return null;
  }
}

/** A zone's name, or null when it is not one foodctl takes (see readTimeZone). */
export function canonicalTimeZone(name: string): string | null {
  const answer = readTimeZone(name);
  return "zone" in answer ? answer.zone : null;
}
