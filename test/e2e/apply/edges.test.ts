/** Batch edges: an empty input in any form is an empty batch, and a batch's messages say what the single command says. */
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, CSV_HEADER, jsonl, writeInput } from "./harness.js";

const sb = withSandbox();

describe("intake apply: an empty input is an empty batch everywhere", () => {
  it.each([
    ["a zero-byte .csv", () => [writeInput("empty.csv", "")], undefined],
    ["an empty .jsonl", () => [writeInput("empty.jsonl", "")], undefined],
    ["a header-only CSV", () => [writeInput("header.csv", `${CSV_HEADER}\n`)], undefined],
    ["empty stdin", () => ["-"], ""],
    ["empty stdin as CSV", () => ["-", "--format", "csv"], ""],
  ])("%s: exit 0, 0 changes, nothing sent", async (_label, args, stdin) => {
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, args(), stdin === undefined ? {} : { stdin });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/ 0 changes in /);
    expect(run.stderr).toMatch(/no changes in the input/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });
});

describe("intake apply: the single command's words", () => {
  it('a level in capitals: got "LOW" and did you mean low?, as set-modifiers says', async () => {
    const file = writeInput("levels.jsonl", jsonl({ image_id: 1002, salt: { "1": "LOW" } }));
    const run = await apply(sb.handle, [file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: salt of position 1 must be one of none, low, medium, high, got "LOW"; did you mean low?\n`);
    const csv = writeInput("levels.csv", `${CSV_HEADER}\n1002,,1,,LOW,,,\n`);
    expect((await apply(sb.handle, [csv])).stderr).toContain(`got "LOW"; did you mean low?`);
  });
});

describe("intake apply: repeated problems", () => {
  it("twenty identical problems are one line with where else they are, not twenty lines", async () => {
    const changes = writeInput("changes.jsonl", jsonl({ image_id: 1002, quantity: { "1": 150 } }));
    const notResults = writeInput("notes.txt", `${Array.from({ length: 20 }, (_, index) => `note ${index + 1}`).join("\n")}\n`);
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, [changes, "--skip-applied", notResults]);
    expect(run.code).toBe(2);
    const problems = run.stderr.split("\n").filter((line) => line.startsWith(`${notResults}:`));
    expect(problems).toEqual([
      `${notResults}:1: not a result line of \`intake apply\` (not JSON) (and 19 more lines alike: 2, 3, 4, 5, 6, …)`,
    ]);
    expect(sb.handle.stats().total_requests).toBe(before);
  });
});
