/** Terminal lines of a batch and of `undo --batch` wrap between words at the terminal's width, as intake show's totals do. */
import { describe, expect, it } from "vitest";
import type { BatchResult } from "../../src/batch/results.js";
import { renderResultLine, renderSummary, resultColumns, type BatchSummary } from "../../src/output/batch.js";
import { wrapLine } from "../../src/output/table.js";
import { renderUndoLine, renderUndoSummary, type UndoResult } from "../../src/output/undo.js";

const lines = (text: string) => text.trimEnd().split("\n");
/** Every word of the text, as the unwrapped line has them: nothing cut, nothing broken. */
const words = (text: string) => text.split(/\s+/).filter(Boolean);

const summary: BatchSummary = {
  batchId: "20261123-161504-4fd7c4",
  changes: 1000,
  applied: 998,
  unverified: 1,
  failed: 1,
  overwritten: 0,
  unchanged: 0,
  skipped: 0,
  dryRun: 0,
  notSent: 0,
  ignoredModifiers: 3,
  changesWithIgnored: 2,
  elapsedMs: 7270,
  stopped: null,
};

describe("wrapping a batch's terminal lines", () => {
  it("the summary breaks between its parts, never inside one (`1,000 changes in 7.27 s` stays whole)", () => {
    const wide = renderSummary(summary, false, false);
    expect(lines(wide)[0]).toBe(
      "applied 998 · applied, unverified 1 · failed 1 · skipped 0 · ignored modifiers 3 (on 2 changes) · 1,000 changes in 7.27 s",
    );
    const at60 = lines(renderSummary(summary, false, true, 60));
    expect(at60.every((line) => line.replace(/\u001b\[[0-9;]*m/g, "").length <= 60)).toBe(true);
    expect(at60.some((line) => line.endsWith("1,000 changes in 7.27 s"))).toBe(true);
    expect(at60.at(-1)).toBe("batch 20261123-161504-4fd7c4");
  });

  it("a result line at 40 columns: lines of at most 40, continuation indented, every word whole", () => {
    const result: BatchResult = {
      line: 12,
      image_id: 1003,
      status: "applied",
      batch_id: "b",
      changed: [
        { position: "manual2", field: "grams", before: 150, after: 175 },
        { position: "manual2", field: "salt", before: "low", after: "high" },
      ],
    };
    const whole = renderResultLine(result, false);
    expect(lines(whole)).toHaveLength(1);
    const wrapped = renderResultLine(result, false, 40);
    expect(lines(wrapped).every((line) => line.length <= 40)).toBe(true);
    expect(
      lines(wrapped)
        .slice(1)
        .every((line) => line.startsWith("  ")),
    ).toBe(true);
    expect(words(wrapped)).toEqual(words(whole));
    expect(wrapped).toContain("manual2:");
  });

  it("an applied-unverified change says so on its line", () => {
    const result: BatchResult = {
      line: 6,
      image_id: 1003,
      status: "applied",
      batch_id: "b",
      verified: false,
      error: { code: "unavailable", exit_code: 8, status: 429, message: "intake 1003: the change was applied, but reading it back failed" },
    };
    expect(renderResultLine(result, false)).toBe(
      "line 6  intake 1003  applied, unverified: intake 1003: the change was applied, but reading it back failed\n",
    );
  });

  it("undo --batch: its lines and summary wrap the same way", () => {
    const result: UndoResult = {
      journal_id: "mwz0abc12345",
      image_id: 1002,
      status: "undone",
      batch_id: "b",
      changed: [
        { position: "1", field: "grams", before: 175, after: 150 },
        { position: "2", field: "grams", before: 90, after: 80.5 },
      ],
    };
    const whole = renderUndoLine(result, false);
    const wrapped = renderUndoLine(result, false, 36);
    expect(lines(wrapped).length).toBeGreaterThan(1);
    expect(lines(wrapped).every((line) => line.length <= 36)).toBe(true);
    expect(words(wrapped)).toEqual(words(whole));
    const undoSummary = {
      batchId: "b",
      entries: 1000,
      undone: 999,
      alreadyUndone: 1,
      refused: 0,
      failed: 0,
      dryRun: 0,
      overwritten: 0,
      notDone: 0,
      elapsedMs: 7270,
      stopped: null,
    };
    const at50 = lines(renderUndoSummary(undoSummary, false, 50));
    expect(at50.every((line) => line.length <= 50)).toBe(true);
    expect(at50.some((line) => line.endsWith("1,000 changes in 7.27 s"))).toBe(true);
  });

  it("a word wider than the room stands whole, and a line that fits keeps its spacing", () => {
    expect(wrapLine("a  b\n", 80, 2)).toBe("a  b\n");
    expect(wrapLine(`x ${"y".repeat(30)} z`, 10, 2)).toBe(`x\n  ${"y".repeat(30)}\n  z`);
  });
});

describe("the columns of a batch's terminal lines", () => {
  const applied = (line: number, imageId: number): BatchResult => ({
    line,
    image_id: imageId,
    status: "applied",
    batch_id: "b",
    changed: [{ position: null, field: "grams", before: 308, after: 309 }],
  });

  it("line numbers and intake ids are right-aligned to the widest of the input, so line 9 and line 10 line up", () => {
    const columns = resultColumns([
      { line: 9, imageId: 1001 },
      { line: 10, imageId: 1001 },
      { line: 12, imageId: 20001 },
    ]);
    expect(columns).toEqual({ line: 2, intake: 5 });
    const shown = [applied(9, 1001), applied(10, 1001), applied(12, 20001)].map((result) => renderResultLine(result, false, 80, columns));
    expect(shown).toEqual([
      "line  9  intake  1001  308 → 309 g  applied\n",
      "line 10  intake  1001  308 → 309 g  applied\n",
      "line 12  intake 20001  308 → 309 g  applied\n",
    ]);
  });

  it("undo --batch's intake ids line up too (its entry ids are all one length)", () => {
    const undone = (imageId: number): UndoResult => ({
      journal_id: "mwthfvke01j6",
      image_id: imageId,
      status: "already_undone",
      batch_id: "b",
    });
    expect([undone(1001), undone(20001)].map((result) => renderUndoLine(result, false, 80, 5))).toEqual([
      "entry mwthfvke01j6  intake  1001  already undone (nothing sent)\n",
      "entry mwthfvke01j6  intake 20001  already undone (nothing sent)\n",
    ]);
  });
});
