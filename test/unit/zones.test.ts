import { describe, expect, it } from "vitest";
import { canonicalTimeZone, readTimeZone } from "../../src/intake/zoneNames.js";
import { formatOffset, offsetAt, wallClockAt } from "../../src/intake/zones.js";
import { describeWait } from "../../src/clock.js";
import { formatMinute, formatTime } from "../../src/output/time.js";

const at = (text: string) => new Date(text);

describe("the user's zone", () => {
  it("knows IANA names in any case, canonical, and refuses unknown names and bare offsets", () => {
    expect(canonicalTimeZone("asia/tokyo")).toBe("Asia/Tokyo");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(canonicalTimeZone("Etc/UTC")).toBe("UTC");
    for (const name of ["Mars/Base", "+09:00", "", "Europe/Berlin; rm", "EST5EDT x"]) expect(canonicalTimeZone(name)).toBeNull();
  });

  it("keeps the name as the user gave it, only its case set right", () => {
    expect(readTimeZone("europe/berlin")).toEqual({ zone: "Europe/Berlin" });
    expect(readTimeZone("Asia/Kathmandu")).toEqual({ zone: "Asia/Kathmandu" });
    expect(readTimeZone("Asia/Calcutta")).toEqual({ zone: "Asia/Calcutta" });
    expect(readTimeZone("utc")).toEqual({ zone: "UTC" });
  });

  it.each([
    ["est", "America/New_York, America/Toronto", true],
    ["EST5EDT", "America/New_York", false],
    ["CET", "Europe/Berlin, Europe/Paris", true],
    ["PST", "America/Los_Angeles", true],
    ["IST", "Asia/Kolkata, Europe/Dublin, Asia/Jerusalem", false],
    ["CEST", "Europe/Berlin", false],
  ])("refuses the abbreviation %s, naming the zones it may mean", (name, zones, noDaylightSaving) => {
    const answer = readTimeZone(name);
    if (!("problem" in answer)) throw new Error(`${name} was taken as ${answer.zone}`);
    expect(answer.problem).toBe(
      `time zone "${name}" is an abbreviation: several zones use it, and a zone changes abbreviation with the season`,
    );
    expect(answer.hint).toContain(`give the zone's IANA name: ${zones}`);
    expect(answer.hint.includes("no daylight saving")).toBe(noDaylightSaving);
  });

  it("refuses bare legacy names, pointing at the zone Intl links them to", () => {
    expect(readTimeZone("Japan")).toEqual({ problem: 'unknown time zone "Japan"', hint: "give the zone's IANA name, such as Asia/Tokyo" });
    expect(readTimeZone("Mars/Base")).toMatchObject({ problem: 'unknown time zone "Mars/Base"' });
  });

  it("reads the wall clock and offset from Intl, across a clock change", () => {
    expect(wallClockAt(at("2026-11-06T22:20:00Z"), "Asia/Tokyo")).toEqual(at("2026-11-07T07:20:00Z"));
    // New York leaves summer time on 1 November 2026 at 06:00 UTC.
    expect(offsetAt(at("2026-11-01T05:59:59Z"), "America/New_York")).toBe(-4 * 3_600_000);
    expect(offsetAt(at("2026-11-01T06:00:00Z"), "America/New_York")).toBe(-5 * 3_600_000);
    expect([9, -5, 0, 5.75].map((hours) => formatOffset(hours * 3_600_000))).toEqual(["+09:00", "-05:00", "Z", "+05:45"]);
  });
});

describe("times of records", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");

  it("name the zone they are in, on a terminal and piped", () => {
    expect(formatTime("2026-11-21T09:00:00Z", true, now, "Asia/Tokyo")).toBe("2026-11-21 18:00 Asia/Tokyo (3 h ago)");
    expect(formatTime("2026-11-21T09:00:00Z", true, now)).toBe("2026-11-21 09:00 UTC (3 h ago)");
    expect(formatTime("2026-11-21T09:00:00Z", false, now, "America/New_York")).toBe("2026-11-21T04:00:00-05:00");
    expect(formatMinute("2026-11-06T22:20:00Z", "Asia/Tokyo")).toBe("2026-11-07 07:20");
  });

  it("say when a quota resets to the minute", () => {
    expect(describeWait((6 * 60 + 40) * 60_000)).toBe("6 h 40 min");
    expect(describeWait(2 * 3_600_000)).toBe("2 h");
    expect(describeWait(20_000)).toBe("1 min");
  });
});
