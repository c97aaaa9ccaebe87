import { describe, expect, it } from "vitest";
import { normalizeBasePath } from "../../src/config/settings.js";
import { resolveHistoryWindow } from "../../src/intake/dates.js";

const at = (text: string) => new Date(text);
const NOW = at("2026-11-23T10:00:00.400Z");

describe("resolveHistoryWindow", () => {
  it("defaults to the 7 days up to now, in whole seconds", () => {
    expect(resolveHistoryWindow({}, NOW)).toEqual({ from: at("2026-11-16T10:00:00Z"), to: at("2026-11-23T10:00:00Z"), toNow: true });
  });

  it("reads --to alone as the days before it, --from alone as up to now, --from with --days as that many days after", () => {
    expect(resolveHistoryWindow({ to: at("2026-11-07T00:00:00Z") }, NOW)).toEqual({
      from: at("2026-10-31T00:00:00Z"),
      to: at("2026-11-07T00:00:00Z"),
      toNow: false,
    });
    expect(resolveHistoryWindow({ from: at("2026-11-20T00:00:00Z") }, NOW)).toEqual({
      from: at("2026-11-20T00:00:00Z"),
      to: at("2026-11-23T10:00:00Z"),
      toNow: true,
    });
    const twoDays = { from: at("2026-11-01T00:00:00Z"), to: at("2026-11-02T23:59:59Z"), toNow: false };
    expect(resolveHistoryWindow({ from: at("2026-11-01T00:00:00Z"), days: 2 }, NOW)).toEqual(twoDays);
  });

  it("with --days, a window of whole days runs from a day's first second to a day's last: side by side, two share no second", () => {
    // --to 2026-11-05 --days 3: 3, 4 and 5 November (the end is the day's last second).
    expect(resolveHistoryWindow({ to: at("2026-11-05T23:59:59Z"), days: 3 }, NOW)).toEqual({
      from: at("2026-11-03T00:00:00Z"),
      to: at("2026-11-05T23:59:59Z"),
      toNow: false,
    });
    // --from 2026-11-06 --days 3: 6, 7 and 8 November, right after.
    expect(resolveHistoryWindow({ from: at("2026-11-06T00:00:00Z"), days: 3 }, NOW)).toMatchObject({ to: at("2026-11-08T23:59:59Z") });
    // An end that is not a day's last second (a time) keeps its exact length.
    expect(resolveHistoryWindow({ to: at("2026-11-05T12:00:00Z"), days: 1 }, NOW)).toMatchObject({ from: at("2026-11-04T12:00:00Z") });
  });

  it("allows a year (366 days) with one end, more only with both ends", () => {
    expect(resolveHistoryWindow({ days: 366 }, NOW)).not.toHaveProperty("problem");
    expect(resolveHistoryWindow({ days: 367 }, NOW)).toHaveProperty("problem");
    expect(resolveHistoryWindow({ from: at("2020-01-01T00:00:00Z"), to: at("2026-01-01T00:00:00Z") }, NOW)).not.toHaveProperty("problem");
  });

  it("refuses crossed ends and --days with both ends", () => {
    expect(resolveHistoryWindow({ from: at("2026-11-02T00:00:00Z"), to: at("2026-11-01T00:00:00Z") }, NOW)).toHaveProperty("problem");
    expect(resolveHistoryWindow({ from: at("2026-12-01T00:00:00Z") }, NOW)).toHaveProperty("problem");
    expect(resolveHistoryWindow({ from: at("2026-11-01T00:00:00Z"), to: at("2026-11-02T00:00:00Z"), days: 1 }, NOW)).toHaveProperty(
      "problem",
    );
  });
});

describe("normalizeBasePath", () => {
  it.each([
    ["", ""],
    ["/", ""],
    ["/v2", ""],
    ["/v2/", ""],
    ["/v2//", ""],
    ["/food", "/food"],
    ["/food/v2/", "/food"],
    ["/v2x", "/v2x"],
    ["/v3", "/v3"],
  ])("%j → %j", (path, expected) => {
    expect(normalizeBasePath(path)).toBe(expected);
  });
});

describe("the window in plain words", () => {
  // Saturday 28 November 2026, 10:30 UTC.
  const NOW = Date.parse("2026-11-28T10:30:00Z");
  const words = async (options: { from?: string; to?: string; days?: number }, zone: string | null) => {
    const { historyWindowFrom } = await import("../../src/commands/intake/list.js");
    const { describeWindow } = await import("../../src/output/time.js");
    return describeWindow(await historyWindowFrom(options, NOW, zone));
  };

  it.each([
    [{}, "Asia/Tokyo", "the last 7 days (Asia/Tokyo)"],
    [{ days: 1 }, "Europe/Berlin", "the last day (Europe/Berlin)"],
    [{ from: "2026-11-03", to: "2026-11-08" }, "Europe/Berlin", "Tue 3 Nov – Sun 8 Nov 2026 (Europe/Berlin)"],
    [{ from: "yesterday", to: "yesterday" }, "Asia/Kathmandu", "Fri 27 Nov 2026 (Asia/Kathmandu)"],
    [{ from: "2025-12-30", to: "2026-01-02" }, "UTC", "Tue 30 Dec 2025 – Fri 2 Jan 2026 (UTC)"],
    [{ from: "monday" }, "America/New_York", "Mon 23 Nov 2026 – now (America/New_York)"],
    [{ days: 30 }, null, "the last 30 days, times in UTC (the user's zone is not known: --tz names it)"],
  ])("%j in %s: %s", async (options, zone, expected) => {
    expect(await words(options, zone)).toBe(expected);
  });
});
