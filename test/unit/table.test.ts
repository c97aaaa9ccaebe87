import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutToWidth, fitColumnWidths, joinToWidth, renderTable, renderTsv, wrapListItems } from "../../src/output/table.js";
import { formatTime } from "../../src/output/time.js";

describe("renderTsv", () => {
  it("writes one line per row, cells separated by tabs", () => {
    expect(
      renderTsv([
        ["1002", "lunch", 600],
        ["1003", null, undefined],
      ]),
    ).toBe("1002\tlunch\t600\n1003\t\t\n");
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

  it("draws a compact table on a terminal: header, one rule under it, one line per row, no trailing spaces", () => {
    const text = renderTable(
      { write: () => true, isTTY: true },
      {
        ...options,
        rows: [
          [1, "Rice"],
          [22, "Spaghetti bolognese"],
        ],
        color: false,
      },
    );
    expect(text).toBe("id  food\n───────────────────────\n1   Rice\n22  Spaghetti bolognese\n");
  });

  it("keeps a cell with a line break on one line", () => {
    expect(renderTable({ write: () => true, isTTY: true }, { ...options, rows: [[1, "two\nlines"]], color: false })).toContain(
      "1   two lines\n",
    );
  });
});

describe("fitColumnWidths", () => {
  const head = ["id", "foods", "kcal"];
  const rows = [[1002, "Scrambled eggs on toast, Fresh fruit salad, Pancakes with maple syrup", 1033.2]];

  it("leaves a table that fits alone, and one on a stream without a width (--wide)", () => {
    expect(fitColumnWidths(head, rows, 200)).toBeUndefined();
    expect(fitColumnWidths(head, rows, undefined)).toBeUndefined();
  });

  it("narrows free-text columns first, to the terminal's width", () => {
    expect(fitColumnWidths(head, rows, 40, [1])).toEqual([4, 26, 6]);
  });

  it("then the widest other columns, never below their header or a few characters", () => {
    const widths = fitColumnWidths(["id", "time", "foods"], [[1, "2026-11-02 13:10 UTC", "Rice and beans"]], 24, [2])!;
    expect(widths).toEqual([2, 6, 12]);
  });

  it("never cuts a number or a whole column; null when the rest cannot give way enough", () => {
    const head = ["position", "food", "grams", "measures", "kcal"];
    const rows = [["1", "Scrambled eggs on toast", 180, "metric", 402.4]];
    // At 46 the food gives way to 12; narrower, only "measures" could, and its header keeps it at 8: null.
    expect(fitColumnWidths(head, rows, 46, [1], [0, 2, 4])).toEqual([8, 12, 5, 8, 5]);
    expect(fitColumnWidths(head, rows, 40, [1], [0, 2, 4])).toBeNull();
  });

  it("shows one record per block where the table cannot fit: headers beside values, nothing cut, no line past the width", () => {
    const stream = { write: () => true, isTTY: true, columns: 40 };
    const head = ["position", "food", "grams", "measures", "kcal"];
    const rows = [
      ["1", "Scrambled eggs on toast with chives and butter", 180, "metric", 402.4],
      ["2", "Fresh fruit salad", 150, "imperial", 100.6],
    ];
    const text = renderTable(stream, { head, rows, alignRight: [2, 4], flexible: [1], whole: [0], color: false });
    expect(text).toBe(
      [
        "position  1",
        "food      Scrambled eggs on toast with",
        "          chives and butter",
        "grams     180",
        "measures  metric",
        "kcal      402.4",
        "",
        "position  2",
        "food      Fresh fruit salad",
        "grams     150",
        "measures  imperial",
        "kcal      100.6",
        "",
        "",
      ].join("\n"),
    );
  });

  it("cuts long cells with … and keeps every line within the terminal", () => {
    const text = renderTable({ write: () => true, isTTY: true, columns: 40 }, { head, rows, flexible: [1], color: false });
    for (const line of text.trimEnd().split("\n")) expect([...line].length).toBeLessThanOrEqual(40);
    expect(text).toContain("Scrambled eggs on toast,…");
  });
});

describe("cutToWidth and joinToWidth", () => {
  it("cuts one line with … only when it is too long or the width is known", () => {
    expect(cutToWidth("http://127.0.0.1:8787/images/abc.jpg", 20)).toBe("http://127.0.0.1:87…");
    expect(cutToWidth("short", 20)).toBe("short");
    // No space before the …: `rice and…`, as every cut reads.
    expect(cutToWidth("Salmon with rice and broccoli", 22)).toBe("Salmon with rice and…");
    expect(cutToWidth("http://127.0.0.1:8787/images/abc.jpg", undefined)).toBe("http://127.0.0.1:8787/images/abc.jpg");
  });

  it("starts a new indented line before a part that would pass the width", () => {
    expect(joinToWidth(["energy 835.7 kcal", "protein 35.9 g", "fat 38.9 g"], " · ", 42, 8)).toBe(
      "energy 835.7 kcal · protein 35.9 g\n        fat 38.9 g",
    );
    expect(joinToWidth(["a", "b"], " · ", undefined, 8)).toBe("a · b");
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

describe("renderTable: wrapped columns and notes", () => {
  const terminal = (columns: number) => ({ write: () => true, isTTY: true, columns });
  const head = ["id", "what changed", "outcome"];
  const rows = [["mwzw918u0mpx", "1 salt medium→high, 2 sugar none→low", "applied"]];

  it("wraps a wrap column to fit, each item of a list on a line of its own when it does not fit after the last, cutting nothing", () => {
    expect(fitColumnWidths(head, rows, 40, [], [0], [1])).toEqual([12, 17, 7]);
    const text = renderTable(terminal(40), { head, rows, whole: [0], wrap: [1], color: false });
    expect(text).not.toContain("…");
    expect(text.split("\n").every((line) => line.length <= 40)).toBe(true);
    // The position stays with its field: `2 sugar none→low`, never `…, 2` / `sugar …`.
    expect(text).toContain("mwzw918u0mpx  1 salt             applied\n              medium→high,\n              2 sugar none→low\n");
  });

  it("keeps a wrap column at its longest word: narrower than that, the table is one record per block", () => {
    expect(fitColumnWidths(head, rows, 30, [], [0], [1])).toBeNull();
  });

  it("prints a note on a line under its row, across the table and wrapped, and in a record's block", () => {
    const notes = [{ label: "reason", text: "TICKET-311 the customer's breakfast portions" }];
    const text = renderTable(terminal(40), { head, rows, whole: [0], wrap: [1], notes, color: false });
    expect(text.split("\n").every((line) => line.length <= 40)).toBe(true);
    expect(text).toMatch(/2 sugar none→low\n {2}reason: TICKET-311 the customer's\n {2}breakfast portions\n$/);
    const blocks = renderTable(terminal(30), { head, rows, whole: [0], wrap: [1], notes, color: false });
    expect(blocks).toContain("outcome       applied\nreason        TICKET-311 the\n              customer's\n");
  });
});

describe("wrapListItems", () => {
  it("keeps every word, in order, and no line wider than the room when the room holds the longest word", () => {
    const word = fc.stringMatching(/^[a-z0-9→]{1,8}$/);
    const item = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 6 }), fc.integer({ min: 9, max: 40 }), (items, width) => {
        const text = items.join(", ");
        const lines = wrapListItems(text, width).split("\n");
        expect(lines.join(" ").split(" ")).toEqual(text.split(" "));
        expect(lines.every((line) => [...line].length <= width)).toBe(true);
      }),
    );
  });
});
