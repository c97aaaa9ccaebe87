/** The Examples block of `--help` (src/help.ts): a shell transcript that fits the width and can be pasted as it is printed. */
import { describe, expect, it } from "vitest";
import { examplesOf, examplesText } from "../../src/help.js";

const lines = (block: string, width: number) => examplesText(block, width).split("\n").slice(2, -1);

describe("help examples", () => {
  it("reads one command a line, indentation and blank lines ignored", () => {
    expect(examplesOf("\n    foodctl journal\n\n    foodctl journal --limit 5   # newest five\n  ")).toEqual([
      "foodctl journal",
      "foodctl journal --limit 5   # newest five",
    ]);
  });

  it("keeps a line that fits; shrinks a comment's padding before anything else", () => {
    expect(lines("foodctl journal            # all", 80)).toEqual(["  foodctl journal            # all"]);
    expect(lines("foodctl journal --limit 5                      # the newest five entries", 60)).toEqual([
      "  foodctl journal --limit 5  # the newest five entries",
    ]);
  });

  it("puts a comment that still does not fit on lines of its own above the command, never after a backslash", () => {
    const printed = lines('eval "$(foodctl sandbox --detach --port 0 --as bob)"   # background; exports the URL and a token', 60);
    expect(printed).toEqual(["  # background; exports the URL and a token", '  eval "$(foodctl sandbox --detach --port 0 --as bob)"']);
    const narrow = lines("foodctl intake list --from 2026-11-01   # the first week of November, oldest first", 40);
    expect(narrow.every((line) => line.length <= 40)).toBe(true);
    expect(narrow.filter((line) => line.trimStart().startsWith("#")).every((line) => !line.endsWith("\\"))).toBe(true);
    expect(narrow.at(-1)).toBe("  foodctl intake list --from 2026-11-01");
    // A comment line of its own that does not fit wraps as comment lines too.
    expect(lines("# the background sandbox prints export lines for the shell to eval", 40)).toEqual([
      "  # the background sandbox prints export",
      "  # lines for the shell to eval",
    ]);
  });

  it("wraps a long command with backslash continuations", () => {
    const printed = lines("foodctl intake apply fixes.jsonl --skip-applied results.jsonl --results results.jsonl", 60);
    expect(printed).toEqual(["  foodctl intake apply fixes.jsonl --skip-applied \\", "      results.jsonl --results results.jsonl"]);
  });
});

describe("a wrapped help example", () => {
  it("breaks only between shell words, never inside a quoted one, so it pastes as it reads", async () => {
    const { exampleLines } = await import("../../src/help.js");
    const example = `foodctl api history/getIntakesList -X GET -f date_from='2026/11/01, 00:00:00' -f date_to="2026/11/30, 23:59:59"`;
    const lines = exampleLines(example, 60);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join("\n")).toContain("date_from='2026/11/01, 00:00:00'");
    expect(lines.join("\n")).toContain('date_to="2026/11/30, 23:59:59"');
    // Read back as a shell reads a continued line: the example again, word for word.
    expect(lines.map((line) => line.trim().replace(/ \\$/, "")).join(" ")).toBe(example);
  });
});
