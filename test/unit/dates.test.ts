import { describe, expect, it } from "vitest";
import { formatApiDateTime, parseApiDateTime, toApiDateTime } from "../../src/intake/dates.js";

describe("toApiDateTime", () => {
  it("reads a bare date as the start of the day for --from", () => {
    expect(toApiDateTime("2026-11-01", "start")).toBe("2026/11/01, 00:00:00");
  });

  it("reads a bare date as the last second of the day for --to", () => {
    expect(toApiDateTime("2026-11-07", "end")).toBe("2026/11/07, 23:59:59");
  });

  it("reads an ISO time without a zone as UTC", () => {
    expect(toApiDateTime("2026-11-01T10:20:30", "start")).toBe("2026/11/01, 10:20:30");
    expect(toApiDateTime("2026-11-01T10:20", "end")).toBe("2026/11/01, 10:20:00");
  });

  it("converts an ISO time with a zone to UTC, across midnight too", () => {
    expect(toApiDateTime("2026-11-01T10:20:30Z", "start")).toBe("2026/11/01, 10:20:30");
    expect(toApiDateTime("2026-11-01T10:20:30+02:00", "start")).toBe("2026/11/01, 08:20:30");
    expect(toApiDateTime("2026-11-01T00:30:00+0200", "start")).toBe("2026/10/31, 22:30:00");
    expect(toApiDateTime("2026-11-01T23:30:00-01:00", "end")).toBe("2026/11/02, 00:30:00");
  });

  it("drops fractions of a second", () => {
    expect(toApiDateTime("2026-11-01T10:20:30.999Z", "end")).toBe("2026/11/01, 10:20:30");
  });

  it("accepts 29 February only in a leap year", () => {
    expect(toApiDateTime("2028-02-29", "start")).toBe("2028/02/29, 00:00:00");
    expect(toApiDateTime("2026-02-29", "start")).toBeNull();
  });

  it.each([
    "2026-02-30",
    "2026-02-30T10:00:00Z",
    "2026-13-01",
    "2026-00-10",
    "2026-04-31",
    "2026-11-01T25:00:00Z",
    "2026-11-01T10:61:00Z",
    "2026-11-01 10:00:00",
    "2026/11/01",
    "01-11-2026",
    "2026-1-1",
    "yesterday",
    "",
    "1762000000",
  ])("refuses %j", (text) => {
    expect(toApiDateTime(text, "start")).toBeNull();
    expect(toApiDateTime(text, "end")).toBeNull();
  });
});

describe("parseApiDateTime", () => {
  it("reads the API's form as UTC", () => {
    expect(parseApiDateTime("2026/11/01, 08:20:30")?.toISOString()).toBe("2026-11-01T08:20:30.000Z");
  });

  it("round-trips with formatApiDateTime", () => {
    const date = new Date("2026-12-31T23:59:59Z");
    expect(parseApiDateTime(formatApiDateTime(date))?.getTime()).toBe(date.getTime());
  });

  it.each([
    "2026/02/30, 00:00:00",
    "2026/11/01, 24:00:00",
    "2026/11/01, 10:60:00",
    "2026/11/01, 10:00:60",
    "2026/11/01 10:00:00",
    "2026-11-01, 10:00:00",
    "2026/11/01",
  ])("refuses %j", (text) => {
    expect(parseApiDateTime(text)).toBeNull();
  });
});
