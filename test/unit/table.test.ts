import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitColumnWidths, renderTable, renderTsv } from "../../src/output/table.js";
import { formatTime } from "../../src/output/time.js";

describe("renderTsv", () => {
  it("writes one line per row, cells separated by tabs", () => {
    expect(renderTsv([["1002", "lunch", 600], ["1003", null, undefined]])).toBe("1002\tlunch\t600\n1003\t\t\n");
  });

  it("writes nothing for no rows", () => {
    expect(renderTsv([])).toBe("");
  });

  it("keeps tabs and newlines inside a cell from splitting fields or rows", () => {
    expect(renderTsv([["a\tb", "line one\nline two", "crlf\r\nend"]])).toBe("a b\tline one line two\tcrlf end\n");
  });

  it("always gives every row its number of fields on one line", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const lines = renderTsv(rows).split("\n");
        expect(lines.pop()).toBe("");
        expect(lines).toHaveLength(rows.length);
        lines.forEach((line, index) => expect(line.split("\t")).toHaveLength(rows[index]!.length));
      }),
    );
  });
});

describe("renderTable", () => {
  const options = { head: ["id", "food"], rows: [[1, "Rice"]], color: true };

  it("writes tab-separated rows without header, border or colour when not on a terminal", () => {
    expect(renderTable({ write: () => true, isTTY: false }, options)).toBe("1\tRice\n");
  });

  it("draws a table with a header on a terminal", () => {
    const text = renderTable({ write: () => true, isTTY: true }, { ...options, color: false });
    expect(text).toContain("id");
    expect(text).toContain("Rice");
    expect(text).toContain("┌");
    expect(text).not.toContain("\u001b[");
  });
});

describe("fitColumnWidths", () => {
  const head = ["id", "foods", "kcal"];
  const rows = [[1002, "Scrambled eggs on toast, Fresh fruit salad, Pancakes with maple syrup", 1033.2]];

  it("leaves a table that fits alone", () => {
    expect(fitColumnWidths(head, rows, 200)).toBeUndefined();
    expect(fitColumnWidths(head, rows, undefined)).toBeUndefined();
  });

  it("narrows the widest column first, to the terminal's width", () => {
    const widths = fitColumnWidths(head, rows, 40)!;
    expect(widths[0]).toBe(6);
    expect(widths[2]).toBe(8);
    expect(widths.reduce((sum, width) => sum + width, 0) + head.length + 1).toBe(40);
  });

  it("never narrows a column below its longest word", () => {
    const widths = fitColumnWidths(head, rows, 10)!;
    expect(widths[1]).toBe("Scrambled".length + 2);
    expect(widths[2]).toBe("1033.2".length + 2);
  });

  it("keeps every line of a terminal table within the terminal", () => {
    const text = renderTable({ write: () => true, isTTY: true, columns: 50 }, { head, rows, color: false });
    for (const line of text.trimEnd().split("\n")) expect([...line].length).toBeLessThanOrEqual(50);
    expect(text).toContain("Pancakes");
  });
});

describe("formatTime", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");

  it("prints RFC 3339 in UTC when piped", () => {
    expect(formatTime("2026-11-21T09:00:00Z", false, now)).toBe("2026-11-21T09:00:00Z");
    expect(formatTime("2026-11-21T10:00:00+01:00", false, now)).toBe("2026-11-21T09:00:00Z");
  });

  it("shows UTC and a relative time on a terminal", () => {
    expect(formatTime("2026-11-21T09:00:00Z", true, now)).toBe("2026-11-21 09:00 UTC (3 h ago)");
    expect(formatTime("2026-11-19T12:00:00Z", true, now)).toBe("2026-11-19 12:00 UTC (2 d ago)");
    expect(formatTime("2026-11-21T12:05:00Z", true, now)).toBe("2026-11-21 12:05 UTC (in 5 min)");
  });

  it("shows a missing time as - and an unreadable one as given", () => {
    expect(formatTime(null, false, now)).toBe("-");
    expect(formatTime("yesterday", false, now)).toBe("yesterday");
  });
});
