/**
 * Which format an input is read as: the file name, else the content (stdin too), `--format`
 * over both; content that contradicts the name is one clear error naming --format, with nothing
 * sent. In process, against a sandbox.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../../src/main.js";
import { bufferIO } from "../../helpers/bufferIO.js";
import { withSandbox } from "../../helpers/sandbox.js";
import { CSV_HEADER, jsonl, results, writeInput } from "./harness.js";
import { runTempDir } from "../../helpers/cli.js";

const sb = withSandbox();
const home = runTempDir("foodctl-format-");
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function applyInProcess(args: string[], stdin?: string, tty = false) {
  const env = { FOODCTL_API_URL: sb.handle.url, FOODCTL_TOKEN: sb.handle.tokenFor("alice"), XDG_CONFIG_HOME: join(home, "config") };
  const io = bufferIO({ env, stdin, tty });
  const before = sb.handle.stats().total_requests;
  const code = await run(["intake", "apply", ...args], { io: io.io });
  return { code, stdout: io.stdout(), stderr: io.stderr(), sent: sb.handle.stats().total_requests - before };
}

const JSONL = jsonl({ image_id: 1001, quantity: 280 }, { image_id: 1002, quantity: { "1": 140 } });
const CSV = `${CSV_HEADER}\n1001,,,281,,,,\n1002,,1,141,,,,\n`;

describe("intake apply: format from the name, the content, or --format", () => {
  it.each([
    ["JSON Lines", JSONL],
    ["CSV with the header", CSV],
    ["JSON Lines after blank lines", `\n  \n${JSONL}`],
  ])("sniffs %s on stdin", async (_label, stdin) => {
    const done = await applyInProcess(["-"], stdin);
    expect(done.code, done.stderr).toBe(0);
    expect(results(done.stdout).map((result) => [result.line, result.status])).toEqual(
      stdin.startsWith("\n")
        ? [
            [3, "applied"],
            [4, "applied"],
          ]
        : stdin === CSV
          ? [
              [2, "applied"],
              [3, "applied"],
            ]
          : [
              [1, "applied"],
              [2, "applied"],
            ],
    );
  });

  it("sniffs a file whose name says nothing (.txt)", async () => {
    const done = await applyInProcess([writeInput("fixes.txt", CSV)]);
    expect(done.code, done.stderr).toBe(0);
    expect(results(done.stdout)).toHaveLength(2);
  });

  it.each([
    [
      "JSON Lines in .csv",
      "fixes.csv",
      JSONL,
      /looks like JSON Lines \(its first line starts with \{\), but its name says CSV: nothing was sent$/,
      /rename it \.jsonl, or pass --format jsonl/,
    ],
    [
      "CSV in .jsonl",
      "fixes.jsonl",
      CSV,
      /looks like CSV \(its first line is a header\), but its name says JSON Lines: nothing was sent$/,
      /rename it \.csv, or pass --format csv/,
    ],
    [
      "a ;-separated file",
      "fixes.csv",
      "image_id;position;quantity\n1002;1;150\n",
      /looks like CSV separated by semicolons \(;\): nothing was sent$/,
      /separated by commas.*--format csv reads commas only/,
    ],
    [
      "a JSON array",
      "fixes.json",
      '[{"image_id": 1001, "quantity": 280}]\n',
      /looks like one JSON array .*not JSON Lines: nothing was sent$/,
      /jq -c '\.\[\]'.*--format jsonl/,
    ],
    [
      "neither",
      "fixes.txt",
      "hello\n",
      /cannot tell the format of .*fixes\.txt: its first line is neither a JSON object nor the CSV header/,
      /--format jsonl or --format csv/,
    ],
  ])("refuses %s with one error naming --format, nothing sent", async (_label, name, text, error, hint) => {
    const done = await applyInProcess([writeInput(name, text)]);
    expect(done.code).toBe(2);
    expect(done.sent).toBe(0);
    const lines = done.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toMatch(error);
    expect(lines[1]).toMatch(/^hint: /);
    expect(lines[1]).toMatch(hint);
  });

  it("refuses a contradiction on stdin the same way", async () => {
    const done = await applyInProcess(["-"], "image_id;position\n1002;1\n");
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/^error: stdin looks like CSV separated by semicolons/);
    expect(done.sent).toBe(0);
  });

  it("--format overrides the name", async () => {
    const done = await applyInProcess([writeInput("fixes.csv", JSONL), "--format", "jsonl"]);
    expect(done.code, done.stderr).toBe(0);
    expect(results(done.stdout)).toHaveLength(2);
  });

  it("refuses stdin that is a terminal, like display-image attach -", async () => {
    const done = await applyInProcess(["-"], undefined, true);
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/error:.* stdin is a terminal: pipe the changes into it/);
    expect(done.sent).toBe(0);
  });

  it("lists 20 problems, then how many more", async () => {
    const text = `${Array.from({ length: 25 }, (_unused, index) => `{"image_id": 1002, "quantity": {"1": "${index + 1}g"}}`).join("\n")}\n`;
    const done = await applyInProcess([writeInput("fixes.jsonl", text)]);
    expect(done.code).toBe(2);
    const lines = done.stderr.trim().split("\n");
    expect(lines.filter((line) => line.includes("is not a number of grams"))).toHaveLength(20);
    expect(lines[0]).toMatch(/fixes\.jsonl:1: quantity of position 1: "1g" is not a number of grams: write 1$/);
    expect(lines).toContain("and 5 more problems");
    expect(done.sent).toBe(0);
  });

  it.each([
    [
      ["--results", "/nonexistent/folder/results.jsonl"],
      /cannot write the results to \/nonexistent\/folder\/results\.jsonl: no such folder: nothing was sent/,
    ],
    [["--results", "-"], /--results takes a file name/],
  ])("refuses %j before sending anything", async (extra, message) => {
    const done = await applyInProcess([writeInput("fixes.jsonl", JSONL), ...extra]);
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(message);
    expect(done.sent).toBe(0);
  });
});
