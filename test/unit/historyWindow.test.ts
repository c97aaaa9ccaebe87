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
    const twoDays = { from: at("2026-11-01T00:00:00Z"), to: at("2026-11-03T00:00:00Z"), toNow: false };
    expect(resolveHistoryWindow({ from: at("2026-11-01T00:00:00Z"), days: 2 }, NOW)).toEqual(twoDays);
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
