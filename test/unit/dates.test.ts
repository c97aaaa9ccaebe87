import { describe, expect, it } from "vitest";
import { formatApiDateTime, parseApiDateTime } from "../../src/intake/dates.js";

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
