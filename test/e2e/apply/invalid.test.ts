/** Every line is checked before the first request: all problems reported, nothing sent (exit 2). */
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, CSV_HEADER, jsonl, writeInput } from "./harness.js";

const sb = withSandbox();

const INVALID = jsonl(
  { image_id: 1001, quantity: 300 },
  { image_id: 1002, quantity: { "1": 150 } },
  '{"image_id": 1003, "quantity": {"manual1": 10}',
  { image_id: 1003, quantity: { manual1: 10 } },
  { image_id: 1002, salt: { "1": "extreme" } },
  { image_id: 1002, sugar: { "2": "low" } },
  { image_id: 1002, quantity: { "3": 0 } },
  { image_id: 1001, quantity: 280 },
);

describe("intake apply: invalid input", () => {
  it("reports bad JSON, an unknown level and quantity 0 with their line numbers and sends nothing", async () => {
    const file = writeInput("fixes.jsonl", INVALID);
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, [file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const problems = run.stderr.split("\n").filter((line) => line.startsWith(`${file}:`));
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${file}:3: not valid JSON`)),
      `${file}:5: salt of position 1 must be one of none, low, medium, high, got "extreme"`,
      `${file}:7: quantity of position 3 must be more than 0 g, got 0`,
    ]);
    expect(run.stderr).toMatch(/error: 3 problems in .*fixes\.jsonl \(3 lines\): nothing was sent/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });

  it("prints the problems as JSON Lines on stderr with --json", async () => {
    const file = writeInput("fixes.jsonl", INVALID);
    const run = await apply(sb.handle, [file, "--json"]);
    expect(run.code).toBe(2);
    const lines = run.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.slice(0, 3).map((line) => [line.problem.line, line.problem.field])).toEqual([
      [3, null],
      [5, "salt.1"],
      [7, "quantity.3"],
    ]);
    expect(lines[3]).toMatchObject({ error: { code: "usage", exit_code: 2 } });
  });

  it("reports every bad CSV row and sends nothing", async () => {
    const file = writeInput(
      "fixes.csv",
      [CSV_HEADER, "1001,,,300,,,,", "1002,,1,0,,,,", "1002,,2,50,extreme,,,", "1003,,manual1,10,,,,", "1003,,manual1,12,,,,", ""].join(
        "\n",
      ),
    );
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, [file]);
    expect(run.code).toBe(2);
    // Each message names its field itself: the field is not said twice.
    expect(run.stderr).toContain(`${file}:3: quantity of position 1 must be more than 0 g, got 0`);
    expect(run.stderr).toContain(`${file}:4: salt of position 2 must be one of none, low, medium, high, got "extreme"\n`);
    expect(run.stderr).toMatch(new RegExp(`${file}:6: position manual1 of intake 1003 is given twice`));
    expect(sb.handle.stats().total_requests).toBe(before);
  });

  it("refuses a file it cannot read, or whose format it cannot tell, before sending", async () => {
    const before = sb.handle.stats().total_requests;
    const missing = await apply(sb.handle, ["/nonexistent/fixes.jsonl"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read \/nonexistent\/fixes\.jsonl: no such file/);
    const unknown = await apply(sb.handle, [writeInput("fixes.txt", "id;grams\n1001;300\n")]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cannot tell the format/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });

  it("refuses a malformed --skip-applied results file (exit 2) and sends nothing", async () => {
    const file = writeInput("fixes.jsonl", jsonl({ image_id: 1001, quantity: 300 }));
    const earlier = writeInput(
      "results.jsonl",
      `${JSON.stringify({ line: 1, image_id: 1001, status: "applied" })}\n{"line": 2, "image_id": 1002\n`,
    );
    const before = sb.handle.stats().total_requests;
    const run = await apply(sb.handle, [file, "--skip-applied", earlier]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${earlier}:2: not a result line of \`intake apply\` (not JSON)\n`);
    expect(run.stderr).toContain(
      'hint: --skip-applied takes the file --results wrote (or the JSON Lines a run printed); a result line looks like {"line":3,"image_id":1002,"status":"applied","batch_id":"…"}',
    );
    expect(run.stderr).toMatch(/is not a results file of `intake apply`: nothing was sent/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });
});
