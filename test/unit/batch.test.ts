/** Batch input of `intake apply`: JSON Lines, CSV, earlier results, and the packed change list. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readApplyOptions } from "../../src/commands/intake/apply.js";
import { ChangeList, type BatchChange } from "../../src/batch/changeList.js";
import { readCsv } from "../../src/batch/csv.js";
import { formatFromFileName } from "../../src/batch/format.js";
import { parseJsonLine, readJsonLines } from "../../src/batch/jsonl.js";
import { splitLines } from "../../src/batch/lines.js";
import { MAX_REPORTED_PROBLEMS, ProblemList } from "../../src/batch/problems.js";
import { parseResultLine, readAppliedResults, resultKey } from "../../src/batch/results.js";
import { createProgressBar } from "../../src/output/progress.js";
import { thousands } from "../../src/intake/amounts.js";
import { renderProblems, renderSummary, type BatchSummary } from "../../src/output/batch.js";

async function* chunksOf(...parts: Array<string | Buffer>) {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part, "utf8") : part;
}

async function collectLines(chunks: AsyncIterable<Buffer | string>, max?: number) {
  const lines = [];
  for await (const line of splitLines(chunks, max)) lines.push(line);
  return lines;
}

const HEADER = "image_id,user_id,position,quantity,salt,sugar,oil,measures";
const csv = (...rows: string[]) => `${[HEADER, ...rows].join("\n")}\n`;

describe("formatFromFileName", () => {
  it.each([
    ["fixes.jsonl", "jsonl"],
    ["fixes.NDJSON", "jsonl"],
    ["dir.v2/fixes.json", "jsonl"],
    ["fixes.csv", "csv"],
    ["fixes.txt", null],
    ["fixes", null],
  ])("reads %s as %s", (name, format) => {
    expect(formatFromFileName(name)).toBe(format);
  });
});

describe("splitLines", () => {
  it("numbers lines, drops CR of CRLF and the BOM, and keeps a last line without newline", async () => {
    const lines = await collectLines(chunksOf("\uFEFFone\r\ntwo\n\nthree"));
    expect(lines.map((line) => [line.line, line.text])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, ""],
      [4, "three"],
    ]);
  });

  it("joins a line and a multi-byte character split across chunks", async () => {
    const bytes = Buffer.from('{"a": "crème"}\nnext\n', "utf8");
    const cut = bytes.indexOf(0xa8); // inside "è"
    const lines = await collectLines(chunksOf(bytes.subarray(0, cut), bytes.subarray(cut)));
    expect(lines.map((line) => line.text)).toEqual(['{"a": "crème"}', "next"]);
  });

  it("blames invalid UTF-8 and over-long lines on their own line and goes on", async () => {
    const lines = await collectLines(chunksOf(Buffer.from([0x61, 0xff, 0x0a]), "x".repeat(40), "\nok\n"), 32);
    expect(lines).toEqual([
      { line: 1, text: null, problem: "line is not valid UTF-8" },
      { line: 2, text: null, problem: "line is longer than 32 bytes" },
      { line: 3, text: "ok" },
    ]);
  });

  it("gives the same lines however the input is cut into chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 12 }).filter((text) => !/[\r\n]/.test(text)),
          { maxLength: 8 },
        ),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (texts, cuts) => {
          const bytes = Buffer.from(texts.map((text) => `${text}\n`).join(""), "utf8");
          const points = [...new Set(cuts.map((cut) => (bytes.length ? cut % bytes.length : 0)))].sort((a, b) => a - b);
          const pieces = [0, ...points, bytes.length]
            .slice(1)
            .map((end, index, ends) => bytes.subarray(index === 0 ? 0 : ends[index - 1]!, end));
          const lines = await collectLines(chunksOf(bytes.subarray(0, 0), ...pieces));
          // A leading BOM is dropped, like a BOM at the start of a file.
          expect(lines.map((line) => line.text)).toEqual(texts.map((text, index) => (index === 0 ? text.replace(/^\uFEFF/, "") : text)));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("parseJsonLine", () => {
  it("reads a recognition-only change and a per-item change for another user", () => {
    expect(parseJsonLine('{"image_id": 1001, "quantity": 320, "salt": "low"}', 4)).toEqual({
      change: { line: 4, imageId: 1001, userId: undefined, fields: { quantity: 320, salt: "low" } },
      problems: [],
    });
    expect(parseJsonLine('{"image_id": 2002, "user_id": 102, "quantity": {"1": 150.5}, "measures": {"2": "imperial"}}', 1).change).toEqual({
      line: 1,
      imageId: 2002,
      userId: 102,
      fields: { quantity: { "1": 150.5 }, measures: { "2": "imperial" } },
    });
  });

  it("passes measures other than metric and imperial on for the server to judge", () => {
    expect(parseJsonLine('{"image_id": 1002, "measures": {"1": "us-customary"}}', 1).problems).toEqual([]);
  });

  it.each([
    ['{"image_id": 1001, "quantity": ', null, /not valid JSON/],
    ["[1, 2]", null, /expected a JSON object.*got an array/],
    ["null", null, /got null/],
    ['{"imageId": 1001, "quantity": 320}', '"imageId"', /unknown key \(write "image_id"\)/],
    ['{"image_id": 1001, "quantity": 320, "note": "x"}', '"note"', /unknown key; allowed: image_id, user_id, quantity/],
    ['{"image_id": 1002, "quantity": {"1": "150g"}}', "quantity.1", /^quantity of position 1: "150g" is not a number of grams: write 150$/],
    ['{"image_id": 1002, "quantity": {"1": -5}}', "quantity.1", /^quantity of position 1 must be more than 0 g, got -5$/],
    ['{"quantity": 320}', "image_id", /missing/],
    ['{"image_id": "1001", "quantity": 320}', "image_id", /positive integer, got "1001"/],
    ['{"image_id": 1001.5, "quantity": 320}', "image_id", /positive integer/],
    ['{"image_id": 1001, "user_id": 0, "quantity": 320}', "user_id", /positive integer, got 0/],
    ['{"image_id": 1001}', null, /nothing to change/],
    ['{"image_id": 1002, "quantity": {"1": 0}}', "quantity.1", /quantity of position 1 must be more than 0 g, got 0/],
    ['{"image_id": 1002, "salt": {"1": "extreme"}}', "salt.1", /must be one of none, low, medium, high/],
    ['{"image_id": 1002, "quantity": {"first": 10}}', "quantity.first", /not a food item position/],
    ['{"image_id": 1001, "quantity": 320.5}', "quantity", /whole number/],
    ['{"image_id": 1001, "quantity": 320, "oil": {"1": "low"}}', "quantity", /must be an object keyed by position/],
  ])("refuses %s at %s", (text, field, message) => {
    const parsed = parseJsonLine(text, 7);
    expect(parsed.change).toBeNull();
    expect(parsed.problems).toContainEqual({ line: 7, field, message: expect.stringMatching(message) });
  });

  it("refuses a key given twice in one object instead of keeping the last", () => {
    expect(parseJsonLine('{"image_id": 1002, "quantity": {"1": 320}, "quantity": {"1": 5}}', 3)).toEqual({
      change: null,
      problems: [{ line: 3, field: '"quantity"', message: "given twice in one object: write each key once" }],
    });
    expect(parseJsonLine('{"image_id": 1002, "quantity": {"1": 320, "1": 5}}', 4).problems).toEqual([
      { line: 4, field: '"1"', message: "given twice in one object: write each key once" },
    ]);
  });

  it.each([
    ["a quantity", (deep: string) => `{"image_id": 1002, "quantity": {"1": ${deep}}}`],
    ["the image id", (deep: string) => `{"image_id": ${deep}}`],
    ["an unknown key", (deep: string) => `{"image_id": 1002, "x": ${deep}}`],
  ])("refuses a value nested 5,000 deep in %s with one problem on its line", (_, line) => {
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    expect(parseJsonLine(line(deep), 8).problems).toEqual([
      { line: 8, field: null, message: "values nested more than 32 levels deep: no change has such a field" },
    ]);
  });

  it("reports every problem of a line, not just the first", () => {
    const parsed = parseJsonLine('{"image_id": "x", "user": 1, "quantity": 320.5, "oil": "low"}', 9);
    expect(parsed.problems.map((problem) => problem.field)).toEqual(['"user"', "image_id", "quantity", "oil"]);
  });

  it("keeps what JSON.stringify writes for any valid change", () => {
    const position = fc.oneof(
      fc.integer({ min: 1, max: 99 }).map(String),
      fc.integer({ min: 1, max: 9 }).map((n) => `manual${n}`),
    );
    const level = fc.constantFrom("none", "low", "medium", "high");
    const itemized = fc.record(
      {
        quantity: fc.dictionary(position, fc.double({ min: 0.1, max: 100_000, noNaN: true }), { minKeys: 1, maxKeys: 3 }),
        salt: fc.dictionary(position, level, { minKeys: 1, maxKeys: 3 }),
      },
      { requiredKeys: ["quantity"] },
    );
    const change = fc.record(
      { image_id: fc.integer({ min: 1, max: 2 ** 40 }), user_id: fc.integer({ min: 1, max: 10_000 }) },
      { requiredKeys: ["image_id"] },
    );
    fc.assert(
      fc.property(change, itemized, (ids, fields) => {
        // Mixed position forms are refused on purpose; keep to one form.
        const keys = [...Object.keys(fields.quantity), ...Object.keys(fields.salt ?? {})];
        fc.pre(keys.every((key) => key.startsWith("manual")) || keys.every((key) => !key.startsWith("manual")));
        const parsed = parseJsonLine(JSON.stringify({ ...ids, ...fields }), 1);
        expect(parsed.problems).toEqual([]);
        expect(parsed.change).toEqual({ line: 1, imageId: ids.image_id, userId: ids.user_id, fields });
      }),
    );
  });
});

describe("readJsonLines", () => {
  it("keeps line numbers across blank lines and CRLF", async () => {
    const input = await readJsonLines(
      chunksOf('{"image_id": 1001, "quantity": 320}\r\n\r\n   \n{"image_id": 1002, "quantity": {"1": 150}}\n'),
    );
    expect(input.problemCount).toBe(0);
    expect([...input.changes].map((change) => [change.line, change.imageId])).toEqual([
      [1, 1001],
      [4, 1002],
    ]);
  });

  it("reports the problems of every line and keeps no change once one is found", async () => {
    const lines = [
      '{"image_id": 1001, "quantity": 320}',
      '{"image_id": 1002, "quantity": {"1": 150}}',
      '{"image_id": 1003, "quantity": {',
      '{"image_id": 1003, "quantity": {"manual1": 10}}',
      '{"image_id": 1002, "salt": {"1": "extreme"}}',
      '{"image_id": 1002, "sugar": {"1": "low"}}',
      '{"image_id": 1002, "quantity": {"2": 0}}',
    ];
    const input = await readJsonLines(chunksOf(lines.join("\n")));
    expect(input.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [3, null],
      [5, "salt.1"],
      [7, "quantity.2"],
    ]);
    expect(input.problemCount).toBe(3);
    expect(input.changes.length).toBe(0);
  });

  it(`shows the first ${MAX_REPORTED_PROBLEMS} problems and counts the rest`, async () => {
    const input = await readJsonLines(chunksOf(Array.from({ length: 120 }, () => "{").join("\n")));
    expect(MAX_REPORTED_PROBLEMS).toBe(20);
    expect(input.problemCount).toBe(120);
    expect(input.problems).toHaveLength(MAX_REPORTED_PROBLEMS);
    expect(input.problems.at(-1)!.line).toBe(MAX_REPORTED_PROBLEMS);
  });

  it("refuses more changes than the limit", async () => {
    const input = await readJsonLines(chunksOf('{"image_id": 1, "quantity": 5}\n'.repeat(4)), { maxChanges: 3 });
    expect(input.problems).toEqual([{ line: 4, field: null, message: expect.stringMatching(/more than 3 changes/) }]);
  });

  it("stops reading when the signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const input = await readJsonLines(chunksOf('{"image_id": 1, "quantity": 5}\n'), { signal: controller.signal });
    expect(input.interrupted).toBe(true);
    expect(input.changes.length).toBe(0);
  });
});

describe("readCsv", () => {
  it("gathers consecutive rows of one intake and user into one change, at the first row's line", async () => {
    const input = await readCsv(
      chunksOf(
        csv(
          "1002,101,1,150,low,,,",
          "1002,101,2,80.5,,,high,imperial",
          "1001,,,320,medium,none,,",
          "1002,102,1,90,,,,",
          "1003,101,manual2,40,,,,",
        ),
      ),
    );
    expect(input.problems).toEqual([]);
    expect([...input.changes]).toEqual<BatchChange[]>([
      {
        line: 2,
        imageId: 1002,
        userId: 101,
        fields: { quantity: { "1": 150, "2": 80.5 }, salt: { "1": "low" }, oil: { "2": "high" }, measures: { "2": "imperial" } },
      },
      { line: 4, imageId: 1001, userId: undefined, fields: { quantity: 320, salt: "medium", sugar: "none" } },
      { line: 5, imageId: 1002, userId: 102, fields: { quantity: { "1": 90 } } },
      { line: 6, imageId: 1003, userId: 101, fields: { quantity: { manual2: 40 } } },
    ]);
  });

  it("takes the columns in any order, with optional ones left out, quoted cells and spaces", async () => {
    const input = await readCsv(chunksOf('position, image_id ,quantity\r\n"1",1002, 150 \r\n,1001,300\r\n'));
    expect([...input.changes].map((change) => change.fields)).toEqual([{ quantity: { "1": 150 } }, { quantity: 300 }]);
  });

  it.each([
    ["an unknown column", "image_id,position,quantity,grams\n1002,1,5,5\n", 1, '"grams"', /unknown column/],
    ["a missing position column", "image_id,quantity\n1002,5\n", 1, "position", /missing column/],
    ["a row with too few fields", csv("1002,,1,150"), 2, null, /expected 8 fields like the header, got 4/],
    ["an unclosed quote", csv('1002,,"1,150,,,,'), 2, null, /not valid CSV: a quoted cell is not closed on its line/],
    ["a bad image_id", csv("x,,1,150,,,,"), 2, "image_id", /positive integer, got "x"/],
    ["a bad user_id", csv("1002,bob,1,150,,,,"), 2, "user_id", /positive integer or empty/],
    ["a bad position", csv("1002,,first,150,,,,"), 2, "position", /not a food item position/],
    ["quantity 0", csv("1002,,1,0,,,,"), 2, "quantity", /^quantity of position 1 must be more than 0 g, got 0$/],
    ["a negative quantity", csv("1002,,1,-5,,,,"), 2, "quantity", /^quantity of position 1 must be more than 0 g, got -5$/],
    ["grams with a unit", csv("1002,,1,150g,,,,"), 2, "quantity", /^quantity of position 1: "150g" is not a number of grams: write 150$/],
    ["a fractional recognition-only total", csv("1001,,,320.5,,,,"), 2, "quantity", /whole number/],
    ["a quantity that is not a number", csv("1002,,1,1e3,,,,"), 2, "quantity", /"1e3" is not a number of grams$/],
    ["an unknown level", csv("1002,,1,,salty,,,"), 2, "salt", /^salt of position 1 must be one of none, low, medium, high, got "salty"$/],
    ["oil on a recognition-only row", csv("1001,,,,,,low,"), 2, "oil", /only to itemized intakes/],
    ["a row that changes nothing", csv("1002,,1,,,,,"), 2, null, /nothing to change/],
    [
      "a position given twice",
      csv("1002,,1,150,,,,", "1002,,1,160,,,,"),
      3,
      "position",
      /position 1 of intake 1002 is given twice \(also on line 2\)/,
    ],
    ["two recognition-only rows", csv("1001,,,300,,,,", "1001,,,310,,,,"), 3, "position", /exactly one row/],
    ["item rows after a recognition-only row", csv("1001,,,300,,,,", "1001,,1,310,,,,"), 3, "position", /no item rows/],
    ["mixed position forms", csv("1003,,manual1,10,,,,", "1003,,2,10,,,,"), 3, "position", /mixes segmentation/],
  ])("refuses %s", async (_label, text, line, field, message) => {
    const input = await readCsv(chunksOf(text));
    expect(input.problems).toContainEqual({ line, field, message: expect.stringMatching(message) });
    expect(input.changes.length).toBe(0);
  });

  it("makes a later run of rows for the same intake a later change, so a position may come again", async () => {
    const input = await readCsv(chunksOf(csv("1002,,1,150,,,,", "1001,,,300,,,,", "1002,,2,80,low,,,", "1002,,1,90,,,,")));
    expect(input.problems).toEqual([]);
    expect([...input.changes].map((change) => [change.line, change.imageId, change.fields])).toEqual([
      [2, 1002, { quantity: { "1": 150 } }],
      [3, 1001, { quantity: 300 }],
      [4, 1002, { quantity: { "2": 80, "1": 90 }, salt: { "2": "low" } }],
    ]);
  });

  it("reports a 50 MB CSV cell once (the line is too long), and never shows a control character from a cell raw", async () => {
    async function* fifty(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${HEADER}\n1002,,1,`);
      const megabyte = Buffer.alloc(1024 * 1024, "9");
      for (let index = 0; index < 50; index++) yield megabyte;
      yield Buffer.from(",,,,\n\u001b[31m1002\u009b,,1,5,,,,\n");
    }
    const input = await readCsv(fifty());
    expect(input.problemCount).toBe(2);
    expect(input.problems[0]).toEqual({ line: 2, field: null, message: "line is longer than 65536 bytes" });
    expect(input.problems[1]!.line).toBe(3);
    const shown = renderProblems(input.problems, input.problemCount, "fixes.csv", false);
    expect(shown).not.toMatch(/[\u001b\u009b]/);
    expect(shown).toContain('fixes.csv:3: image_id: must be a positive integer, got "\\u001b[31m1002\\u009b"');
    const json = renderProblems([{ line: 4, field: null, message: "not valid JSON (\u009b\u202e)" }], 1, "stdin", true);
    expect(json).not.toMatch(/[\u009b\u202e]/);
    expect(JSON.parse(json).problem.message).toBe("not valid JSON (\u009b\u202e)");
  });

  it("names a problem's field once: not again before a message that names it, always before one that does not", () => {
    const problems = [
      { line: 1, field: "quantity", message: 'quantity: "150g" is not a number of grams: write 150' },
      { line: 2, field: "salt.1", message: "salt of position 1 must be one of none, low, medium, high" },
      { line: 3, field: "image_id", message: "must be a positive integer, got 0" },
    ];
    expect(renderProblems(problems, 3, "f.jsonl", false)).toBe(
      'f.jsonl:1: quantity: "150g" is not a number of grams: write 150\n' +
        "f.jsonl:2: salt of position 1 must be one of none, low, medium, high\n" +
        "f.jsonl:3: image_id: must be a positive integer, got 0\n",
    );
  });

  it("reports every bad row, not just the first", async () => {
    const input = await readCsv(chunksOf(csv("1002,,1,0,,,,", "1002,,2,50,,,,", "1001,,,5,hot,,,", "x,,1,5,,,,")));
    expect(input.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [2, "quantity"],
      [4, "salt"],
      [5, "image_id"],
    ]);
  });

  it("keeps a read error apart from CSV problems", async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${HEADER}\n`);
      throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    }
    await expect(readCsv(broken())).rejects.toThrow(/EIO/);
  });
});

describe("ChangeList", () => {
  it("returns every change as pushed, past its first capacity", () => {
    const list = new ChangeList();
    for (let index = 0; index < 5000; index++) {
      list.push({
        line: index + 1,
        imageId: 1000 + index,
        userId: index % 2 ? 101 : undefined,
        fields: { quantity: { [String((index % 9) + 1)]: index + 0.5 }, salt: { "1": "low" } },
      });
    }
    expect(list.length).toBe(5000);
    expect(list.at(0)).toEqual({ line: 1, imageId: 1000, userId: undefined, fields: { quantity: { "1": 0.5 }, salt: { "1": "low" } } });
    expect(list.at(2)).toEqual({ line: 3, imageId: 1002, userId: undefined, fields: { quantity: { "3": 2.5 }, salt: { "1": "low" } } });
    expect(list.at(4999)).toEqual({ line: 5000, imageId: 5999, userId: 101, fields: { quantity: { "5": 4999.5 }, salt: { "1": "low" } } });
    expect(() => list.at(5000)).toThrow(RangeError);
  });

  it("keeps ids up to 2^53 and text outside ASCII exactly", () => {
    const list = new ChangeList();
    list.push({ line: 1, imageId: Number.MAX_SAFE_INTEGER, userId: 2 ** 40, fields: { measures: { "1": "système métrique" } } });
    expect(list.at(0)).toEqual({
      line: 1,
      imageId: Number.MAX_SAFE_INTEGER,
      userId: 2 ** 40,
      fields: { measures: { "1": "système métrique" } },
    });
  });
});

describe("ProblemList", () => {
  it("keeps the problems with the lowest line numbers, in line order", () => {
    const list = new ProblemList(3);
    for (const line of [9, 4, 7, 1, 8, 4]) list.add({ line, field: null, message: String(line) });
    expect(list.list.map((problem) => problem.line)).toEqual([1, 4, 4]);
    expect(list.count).toBe(6);
  });
});

describe("earlier results (--skip-applied)", () => {
  it("counts applied and skipped results as done, by line and image_id", async () => {
    const results = [
      { line: 1, image_id: 1001, status: "applied" },
      { line: 2, image_id: 1002, status: "failed", error: { code: "not_found", exit_code: 6, status: 404, message: "x" } },
      { line: 3, image_id: 1003, status: "skipped" },
      { line: 4, image_id: 1004, status: "dry_run" },
    ];
    const read = await readAppliedResults(chunksOf(`${results.map((result) => JSON.stringify(result)).join("\n")}\n\n`));
    expect(read.problemCount).toBe(0);
    expect([...read.done].sort()).toEqual([resultKey(1, 1001), resultKey(3, 1003)].sort());
  });

  it.each([
    ["not JSON", "applied line 1", "not JSON"],
    ["no line number", '{"image_id": 1001, "status": "applied"}', "no line"],
    ["a bad image_id", '{"line": 1, "image_id": "1001", "status": "applied"}', "image_id is not a positive integer"],
    [
      "an unknown status",
      '{"line": 1, "image_id": 1001, "status": "done"}',
      "status is not one of applied, failed, skipped, dry_run, overwritten, unchanged",
    ],
    ["a change line, not a result", '{"image_id": 1002, "quantity": {"1": 150}}', "it looks like a change, not its result"],
  ])("refuses a results line with %s, naming the line", (_label, text, why) => {
    const message = `not a result line of \`intake apply\` (${why})`;
    expect(parseResultLine(text, 5)).toEqual({ done: null, problem: { line: 5, field: null, message } });
  });
});

describe("readApplyOptions", () => {
  it("takes the format from the name and defaults the rest", () => {
    expect(readApplyOptions("fixes.csv", {})).toEqual({
      format: undefined,
      concurrency: 4,
      continueOnError: false,
      skipApplied: undefined,
      results: undefined,
      strict: false,
      dryRun: false,
      curl: false,
      verify: true,
      force: false,
    });
    expect(readApplyOptions("-", { format: "jsonl", concurrency: 64, verify: false })).toMatchObject({
      format: "jsonl",
      concurrency: 64,
      verify: false,
    });
  });

  it.each([["-", { format: "csv", skipApplied: "-" }, /stdin cannot hold both/]])(
    "refuses %s with %j (exit 2)",
    (file, options, message) => {
      expect(() => readApplyOptions(file, options)).toThrow(
        expect.objectContaining({ exitCode: 2, message: expect.stringMatching(message) }),
      );
    },
  );
});

describe("batch output", () => {
  const summary: BatchSummary = {
    batchId: "20261123-161504-4fd7c4",
    changes: 12_345,
    applied: 12_000,
    unverified: 0,
    failed: 3,
    overwritten: 0,
    unchanged: 0,
    skipped: 40,
    dryRun: 0,
    notSent: 302,
    ignoredModifiers: 5,
    changesWithIgnored: 2,
    elapsedMs: 12_345.6,
    stopped: "failure",
  };

  it("writes thousands with commas", () => {
    expect([0, 999, 1000, 100_000, 1_234_567].map(thousands)).toEqual(["0", "999", "1,000", "100,000", "1,234,567"]);
  });

  it("sums a batch up in one line, or as one JSON object under --json", () => {
    expect(renderSummary(summary, false, false)).toBe(
      "applied 12,000 · failed 3 · skipped 40 · not sent 302 · ignored modifiers 5 (on 2 changes) · 12,345 changes in 12.3 s\nbatch 20261123-161504-4fd7c4\n",
    );
    expect(JSON.parse(renderSummary(summary, true, false))).toEqual({
      summary: {
        batch_id: "20261123-161504-4fd7c4",
        changes: 12_345,
        applied: 12_000,
        applied_unverified: 0,
        failed: 3,
        overwritten: 0,
        unchanged: 0,
        skipped: 40,
        dry_run: 0,
        not_sent: 302,
        ignored_modifiers: 5,
        changes_with_ignored_modifiers: 2,
        elapsed_seconds: 12.346,
        stopped: "failure",
      },
    });
  });

  it("prints each problem as source:line: field: reason, and how many were left out", () => {
    const problems = [
      { line: 3, field: null, message: "not valid JSON" },
      { line: 5, field: "salt.1", message: "salt of position 1 must be one of none, low, medium, high" },
    ];
    expect(renderProblems(problems, 4, "fixes.jsonl", false)).toBe(
      "fixes.jsonl:3: not valid JSON\nfixes.jsonl:5: salt of position 1 must be one of none, low, medium, high\nand 2 more problems\n",
    );
    expect(
      renderProblems(problems, 2, "stdin", true)
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { problem: { source: "stdin", line: 3, field: null, message: "not valid JSON" } },
      { problem: { source: "stdin", ...problems[1] } },
    ]);
  });

  it("draws a progress bar on a terminal only, prints results above it, and leaves nothing of it at the end", () => {
    const written: string[] = [];
    const piped = { write: (text: string) => written.push(text), isTTY: false };
    const quiet = createProgressBar(piped, 10);
    quiet.update(5, 0);
    quiet.print(piped, "result\n");
    quiet.stop();
    expect(written).toEqual(["result\n"]);

    const screen: string[] = [];
    const terminal = { write: (text: string) => screen.push(text), isTTY: true, columns: 40 };
    const bar = createProgressBar(terminal, 10);
    bar.update(4, 1);
    bar.print(terminal, "result\n");
    bar.stop();
    const text = screen.join("");
    expect(text).toContain("\r\u001b[Kresult\n");
    expect(text.endsWith("\r\u001b[K")).toBe(true);
    for (const drawn of text.split(/\r\u001b\[K/)) expect(drawn.replace("\n", "").length).toBeLessThan(40);
  });
});
