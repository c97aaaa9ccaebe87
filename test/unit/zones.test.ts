import { describe, expect, it } from "vitest";
import { lengthBefore, readDateWords } from "../../src/intake/dateWords.js";
import { toWallClock } from "../../src/intake/dates.js";
import { canonicalTimeZone, formatOffset, offsetAt, wallClockAt } from "../../src/intake/zones.js";
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

  it("reads the wall clock and offset from Intl, across a clock change", () => {
    expect(wallClockAt(at("2026-11-06T22:20:00Z"), "Asia/Tokyo")).toEqual(at("2026-11-07T07:20:00Z"));
    // New York leaves summer time on 1 November 2026 at 06:00 UTC.
    expect(offsetAt(at("2026-11-01T05:59:59Z"), "America/New_York")).toBe(-4 * 3_600_000);
    expect(offsetAt(at("2026-11-01T06:00:00Z"), "America/New_York")).toBe(-5 * 3_600_000);
    expect([9, -5, 0, 5.75].map((hours) => formatOffset(hours * 3_600_000))).toEqual(["+09:00", "-05:00", "Z", "+05:45"]);
  });
});

describe("toWallClock", () => {
  it("sends bare dates as the user's calendar day, whatever the zone", () => {
    for (const zone of ["UTC", "Asia/Tokyo", "America/New_York"]) {
      expect(toWallClock("2026-11-03", "start", zone)).toEqual(at("2026-11-03T00:00:00Z"));
      expect(toWallClock("2026-11-03", "end", zone)).toEqual(at("2026-11-03T23:59:59Z"));
    }
  });

  it("converts a time with an offset into the zone; a time without one is already the user's", () => {
    expect(toWallClock("2026-11-03T12:00:00Z", "start", "America/New_York")).toEqual(at("2026-11-03T07:00:00Z"));
    expect(toWallClock("2026-11-03T12:00:00+01:00", "start", "Asia/Tokyo")).toEqual(at("2026-11-03T20:00:00Z"));
    expect(toWallClock("2026-11-03T12:00:00", "start", "Asia/Tokyo")).toEqual(at("2026-11-03T12:00:00Z"));
    expect(toWallClock("2026-02-30", "start", "Asia/Tokyo")).toBeNull();
  });
});

describe("dates in words", () => {
  // A Thursday, 14:30 on the user's clock.
  const now = at("2026-11-26T14:30:00Z");

  it("reads lengths back from now", () => {
    expect(lengthBefore("3d", now)).toEqual(at("2026-11-23T14:30:00Z"));
    expect(lengthBefore("12h", now)).toEqual(at("2026-11-26T02:30:00Z"));
    expect(lengthBefore("2w", now)).toEqual(at("2026-11-12T14:30:00Z"));
    expect(lengthBefore("3 days", now)).toBeNull();
  });

  it.each([
    ["today", "start", "2026-11-26T00:00:00Z"],
    ["today", "end", "2026-11-26T23:59:59Z"],
    ["yesterday", "start", "2026-11-25T00:00:00Z"],
    ["Yesterday", "end", "2026-11-25T23:59:59Z"],
    ["monday", "start", "2026-11-23T00:00:00Z"],
    ["thursday", "start", "2026-11-26T00:00:00Z"],
    ["friday", "start", "2026-11-20T00:00:00Z"],
    ["last week", "start", "2026-11-19T00:00:00Z"],
    ["3 days ago", "start", "2026-11-23T14:30:00Z"],
    ["yesterday 18:00", "start", "2026-11-25T18:00:00Z"],
    ["3d", "start", "2026-11-23T14:30:00Z"],
  ] as const)("%s (%s) → %s", async (text, edge, expected) => {
    expect(await readDateWords(text, edge, now)).toEqual(at(expected));
  });

  it("refuses text that is not wholly a date", async () => {
    for (const text of ["someday", "yesterday and today", "the week after next sprint", "monday please"]) {
      expect(await readDateWords(text, "start", now)).toBeNull();
    }
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
