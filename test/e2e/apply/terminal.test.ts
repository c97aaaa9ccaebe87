/**
 * `intake apply` on a real terminal (a pseudo-terminal from `script`, 80 columns): one human
 * line per change above the progress bar, the bar gone at the end, the summary on its own
 * lines, nothing overwritten and no line cut at the terminal's width.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect } from "../../helpers/cli.js";
import { withSandbox } from "../../helpers/sandbox.js";
import { jsonl, writeInput } from "./harness.js";

const sb = withSandbox({ latencyMs: 15 }, { perTest: true });

/**
 * What a terminal shows after the output, as logical lines: `\r` returns to the line's start,
 * `ESC[K` clears to its end, other escape sequences (colour, cursor) change no text.
 */
function screen(output: string): string[] {
  const lines: string[] = [""];
  let column = 0;
  for (let index = 0; index < output.length; index++) {
    const char = output[index]!;
    if (char === "\u001b") {
      const match = /^\u001b\[[0-9;?]*[A-Za-z]/.exec(output.slice(index));
      if (match?.[0] === "\u001b[K") lines[lines.length - 1] = lines.at(-1)!.slice(0, column);
      index += (match?.[0].length ?? 1) - 1;
    } else if (char === "\r") {
      column = 0;
    } else if (char === "\n") {
      lines.push("");
      column = 0;
    } else {
      const line = lines.at(-1)!;
      lines[lines.length - 1] = line.slice(0, column) + char + line.slice(column + 1);
      column++;
    }
  }
  return lines.filter((line, index) => line !== "" || index < lines.length - 1);
}

describe("intake apply on a terminal", () => {
  it("prints one line per change above the bar, clears the bar, then the summary; nothing cut or overwritten at 80 columns", async () => {
    const changes = [
      ...Array.from({ length: 24 }, (_unused, index) => ({
        image_id: 1001 + (index % 4),
        quantity: index % 4 === 0 ? 300 + index : { [index % 4 === 1 ? "1" : "manual1"]: 50 + index },
      })),
      { image_id: 9999, quantity: 100 },
      {
        image_id: 1002,
        quantity: { "1": 111, "2": 122, "3": 133 },
        salt: { "1": "high", "2": "high", "3": "high" },
        sugar: { "1": "high", "3": "high" },
      },
    ];
    const file = writeInput("fixes.jsonl", jsonl(...changes));
    const command = `stty cols 80 rows 30; exec "${process.execPath}" "${cliBin()}" intake apply "${file}" --continue-on-error`;
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      env: baseEnv({ FOODCTL_API_URL: sb.handle.url, FOODCTL_TOKEN: sb.handle.tokenFor("alice"), TERM: "xterm-256color", COLUMNS: "80" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const run = await collect(child, { timeoutMs: 60_000 });
    expect(run.code, run.stdout).toBe(9);
    // Autowrap is never turned off, so a long line wraps instead of being cut.
    expect(run.stdout).not.toContain("\u001b[?7l");
    const physical = screen(run.stdout.replace(/\r\n/g, "\n"));
    // Long lines wrap between words, never past the terminal's width (so the terminal never breaks a word).
    expect(physical.filter((line) => line.length > 80)).toEqual([]);
    // Continuation lines (indented two) belong to the line above: the logical lines, rejoined at the break.
    const shown: string[] = [];
    for (const line of physical) {
      if (line.startsWith("  ") && shown.length > 0) shown[shown.length - 1] += ` ${line.trimStart()}`;
      else shown.push(line);
    }
    const results = shown.filter((line) => /^line +\d+ {2}intake \d+ {2}/.test(line));
    expect(results).toHaveLength(changes.length);
    // Line 9 and line 10 alike: the line numbers are right-aligned, so every column starts where the others do.
    expect(results.filter((line) => /^line ( 9|10) {2}intake \d{4} {2}/.test(line))).toHaveLength(2);
    expect(new Set(results.map((line) => line.indexOf("  intake "))).size).toBe(1);
    for (const line of results.filter((text) => !text.includes("intake 9999"))) expect(line).toMatch(/ {2}applied$/);
    expect(results.find((line) => line.includes("intake 9999"))).toMatch(
      /^line 25 {2}intake 9999 {2}failed: .*answered 404 \(code 1301\): .*9999/,
    );
    const long = results.find((line) => line.startsWith("line 26 "))!;
    expect(long.length).toBeGreaterThan(120);
    expect(long).toMatch(
      /^line 26 {2}intake 1002 {2}1: [\d.]+ → 111 g, salt \w+ → high, sugar \w+ → high; 2: [\d.]+ → 122 g, salt \w+ → high; 3: .*133 g.* {1,2}applied$/,
    );
    expect(physical.filter((line) => line.startsWith("  ")).length).toBeGreaterThan(0);
    // No bar is left: every line shown is a result, the summary, the batch id or the error.
    const others = shown.filter((line) => !results.includes(line));
    expect(others[0]).toMatch(/^applied 25 · failed 1 · skipped 0 · ignored modifiers 0 · 26 changes in [\d.]+ s$/);
    expect(physical).toContain(others[0]);
    expect(others[1]).toMatch(/^batch \d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(
      others.slice(2).every((line) => /^(error|hint): /.test(line)),
      others.join("\n"),
    ).toBe(true);
    expect(shown.some((line) => /changes · \d+ failed/.test(line))).toBe(false);
    // The bar was drawn while the batch ran.
    expect(run.stdout).toMatch(/\d+\/26 changes · \d+ failed/);
  });
});
