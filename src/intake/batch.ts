/**
 * Batch input of `intake apply`, read in one streaming pass: JSON Lines (one update body
 * per line, with image_id and an optional user_id) or CSV (one row per item). Every line is
 * checked; only the compact parsed changes are kept, never the input text. No I/O here: the
 * caller hands in the byte chunks of a file or of stdin.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse as parseCsv } from "csv-parse";
import { parsePositiveId } from "./ids.js";
import { isLevel, LEVELS } from "./levels.js";
import { parsePositionKey } from "./positions.js";
import { checkItemQuantity, checkRecognitionQuantity, parseGrams } from "./quantity.js";
import { isPlainRecord } from "./records.js";
import { pickUpdateFields, readUpdateShape, UPDATE_FIELDS } from "./update.js";

export type BatchFormat = "jsonl" | "csv";

/** One change: an update body for one intake, acting for one user. */
export interface BatchChange {
  /** The input line it comes from (CSV: the first row of the group). */
  line: number;
  imageId: number;
  /** From the line; undefined means the client's own (--user or the token's subject). */
  userId: number | undefined;
  fields: Record<string, unknown>;
}

export interface BatchProblem {
  line: number;
  /** The key or column at fault; null when the line as a whole is (bad JSON, an empty change). */
  field: string | null;
  message: string;
}

export interface BatchInput {
  /** Empty when there are problems: a refused batch keeps nothing. */
  changes: ChangeList;
  /** The first MAX_REPORTED_PROBLEMS problems by line number. */
  problems: BatchProblem[];
  /** Every problem found, including those past the cap. */
  problemCount: number;
  /** Input lines seen. */
  lines: number;
  /** Reading stopped because the signal aborted. */
  interrupted: boolean;
}

/**
 * The parsed changes, packed: numbers in typed arrays and each update body as UTF-8 JSON in
 * one growing buffer (about 60 bytes a change instead of several small objects), so 100,000
 * lines stay far below the memory the input text would take. Bodies are decoded on demand.
 */
export class ChangeList {
  private count = 0;
  private numbers = new Float64Array(4 * 1024);
  private arena = Buffer.allocUnsafe(64 * 1024);
  private used = 0;

  get length(): number {
    return this.count;
  }

  /** Appends a change; returns its index. */
  push(change: BatchChange): number {
    const index = this.count++;
    if (index * 5 + 5 > this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    const base = index * 5;
    this.numbers[base] = change.line;
    this.numbers[base + 1] = change.imageId;
    this.numbers[base + 2] = change.userId ?? 0;
    this.writeFields(index, change.fields);
    return index;
  }

  /** Replaces a change's body (a CSV change that gains rows); the old bytes are left unused. */
  setFields(index: number, fields: Record<string, unknown>): void {
    if (index >= this.count) throw new RangeError(`no change ${index}`);
    this.writeFields(index, fields);
  }

  at(index: number): BatchChange {
    if (index >= this.count) throw new RangeError(`no change ${index}`);
    const base = index * 5;
    const userId = this.numbers[base + 2]!;
    return { line: this.numbers[base]!, imageId: this.numbers[base + 1]!, userId: userId === 0 ? undefined : userId, fields: this.fieldsAt(index) };
  }

  fieldsAt(index: number): Record<string, unknown> {
    const base = index * 5;
    const start = this.numbers[base + 3]!;
    return JSON.parse(this.arena.toString("utf8", start, start + this.numbers[base + 4]!)) as Record<string, unknown>;
  }

  *[Symbol.iterator](): IterableIterator<BatchChange> {
    for (let index = 0; index < this.count; index++) yield this.at(index);
  }

  private writeFields(index: number, fields: Record<string, unknown>): void {
    const json = JSON.stringify(fields);
    const size = Buffer.byteLength(json);
    if (this.used + size > this.arena.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + size));
      this.arena.copy(grown, 0, 0, this.used);
      this.arena = grown;
    }
    this.arena.write(json, this.used, "utf8");
    this.numbers[index * 5 + 3] = this.used;
    this.numbers[index * 5 + 4] = size;
    this.used += size;
  }
}

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  maxChanges?: number;
}

export const MAX_REPORTED_PROBLEMS = 50;
/** The parsed changes stay in memory between the check and the sending: bound them. */
export const MAX_BATCH_CHANGES = 1_000_000;
/** A longer line is refused without being kept whole. */
export const MAX_LINE_BYTES = 64 * 1024;

export const JSONL_KEYS = ["image_id", "user_id", ...UPDATE_FIELDS] as const;
export const CSV_COLUMNS = ["image_id", "user_id", "position", "quantity", "salt", "sugar", "oil", "measures"] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

const EXTENSIONS: Record<string, BatchFormat> = { ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv" };

/** The format a file name implies (.jsonl, .ndjson, .json → jsonl; .csv → csv), or null. */
export function formatFromFileName(name: string): BatchFormat | null {
  const match = /(\.[A-Za-z]+)$/.exec(name);
  return match ? (EXTENSIONS[match[1]!.toLowerCase()] ?? null) : null;
}

/** Keeps the first `cap` problems by line number and counts the rest. */
export class ProblemList {
  private readonly kept: BatchProblem[] = [];
  count = 0;

  constructor(private readonly cap: number = MAX_REPORTED_PROBLEMS) {}

  add(problem: BatchProblem): void {
    this.count++;
    const last = this.kept[this.kept.length - 1];
    if (this.kept.length >= this.cap && last && last.line <= problem.line) return;
    // Stable insert by line: problems of one line stay in the order they were found.
    let index = this.kept.length;
    while (index > 0 && this.kept[index - 1]!.line > problem.line) index--;
    this.kept.splice(index, 0, problem);
    if (this.kept.length > this.cap) this.kept.pop();
  }

  get list(): BatchProblem[] {
    return this.kept;
  }
}

export interface InputLine {
  line: number;
  /** Null when the line is not valid UTF-8 or longer than MAX_LINE_BYTES. */
  text: string | null;
  problem?: string;
}

/**
 * Splits byte chunks into numbered lines (LF or CRLF), decoding each line on its own so a
 * bad byte is blamed on its line; a UTF-8 byte-order mark on line 1 is dropped.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes: number = MAX_LINE_BYTES): AsyncGenerator<InputLine> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): InputLine => {
    line++;
    const current = line;
    if (tooLong) {
      parts = [];
      size = 0;
      tooLong = false;
      return { line: current, text: null, problem: `line is longer than ${maxLineBytes} bytes` };
    }
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    try {
      return { line: current, text: decoder.decode(bytes) };
    } catch {
      return { line: current, text: null, problem: "line is not valid UTF-8" };
    }
  };
  const keep = (piece: Buffer) => {
    if (tooLong || piece.length === 0) return;
    if (size + piece.length > maxLineBytes + 1) {
      tooLong = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  for await (const chunk of chunks) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(0x0a, start);
      if (end === -1) {
        keep(buffer.subarray(start));
        break;
      }
      keep(buffer.subarray(start, end));
      yield finish();
      start = end + 1;
    }
  }
  if (size > 0 || tooLong) yield finish();
}

const unknownKeyHint: Record<string, string> = { imageId: "image_id", userId: "user_id", image: "image_id", user: "user_id" };

function readId(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** One line of JSON Lines: the change it describes, or what is wrong with it. */
export function parseJsonLine(text: string, line: number): { change: BatchChange | null; problems: BatchProblem[] } {
  const problems: BatchProblem[] = [];
  const fail = (field: string | null, message: string) => problems.push({ line, field, message });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(null, `not valid JSON (${(error as Error).message})`);
    return { change: null, problems };
  }
  if (!isPlainRecord(value)) {
    fail(null, `expected a JSON object like {"image_id": 1002, "quantity": {"1": 150}}, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
    return { change: null, problems };
  }
  for (const key of Object.keys(value)) {
    if (!(JSONL_KEYS as readonly string[]).includes(key)) {
      const hint = unknownKeyHint[key];
      fail(key, `unknown key${hint ? ` (write "${hint}")` : `; allowed: ${JSONL_KEYS.join(", ")}`}`);
    }
  }
  const imageId = readId(value.image_id);
  if (value.image_id === undefined) fail("image_id", "missing: every line names the intake it changes");
  else if (imageId === null) fail("image_id", `must be a positive integer, got ${JSON.stringify(value.image_id)}`);
  const userId = value.user_id === undefined || value.user_id === null ? undefined : readId(value.user_id);
  if (userId === null) fail("user_id", `must be a positive integer, got ${JSON.stringify(value.user_id)}`);

  const fields = pickUpdateFields(value);
  const shape = readUpdateShape(fields, { strictMeasures: false });
  for (const problem of shape.problems) fail(problem.field, problem.message);
  if (shape.shape === "empty") fail(null, `nothing to change: give at least one of ${UPDATE_FIELDS.join(", ")}`);

  if (problems.length > 0 || imageId === null || userId === null) return { change: null, problems };
  return { change: { line, imageId, userId, fields }, problems };
}

function finishInput(changes: ChangeList, problems: ProblemList, lines: number, interrupted: boolean): BatchInput {
  // A refused batch keeps nothing.
  const kept = problems.count > 0 || interrupted ? new ChangeList() : changes;
  return { changes: kept, problems: problems.list, problemCount: problems.count, lines, interrupted };
}

function tooManyChanges(max: number): string {
  return `more than ${max.toLocaleString("en-US")} changes in one batch: split the file`;
}

/** Reads JSON Lines; blank lines are allowed and skipped. */
export async function readJsonLines(chunks: AsyncIterable<Buffer | string>, options: ReadOptions = {}): Promise<BatchInput> {
  const max = options.maxChanges ?? MAX_BATCH_CHANGES;
  const changes = new ChangeList();
  const problems = new ProblemList();
  let lines = 0;
  for await (const input of splitLines(chunks)) {
    lines = input.line;
    if (options.signal?.aborted) return finishInput(changes, problems, lines, true);
    if (input.text === null) {
      problems.add({ line: input.line, field: null, message: input.problem ?? "unreadable line" });
      continue;
    }
    if (input.text.trim() === "") continue;
    const parsed = parseJsonLine(input.text, input.line);
    for (const problem of parsed.problems) problems.add(problem);
    // Once the batch is known to be refused, its changes are not worth keeping.
    if (!parsed.change || problems.count > 0) continue;
    if (changes.length >= max) {
      problems.add({ line: input.line, field: null, message: tooManyChanges(max) });
      break;
    }
    changes.push(parsed.change);
  }
  return finishInput(changes, problems, lines, false);
}

type GroupKind = "recognition" | "segmentation" | "manual";

/** The change being gathered from CSV rows: the rows of one intake and user. */
interface CsvGroup {
  key: string;
  index: number;
  line: number;
  who: string;
  fields: Record<string, unknown>;
  kind: GroupKind | null;
  /** Line of each position's row; null when the group was reopened from the packed list. */
  positions: Map<string, number | null>;
}

const LEVEL_COLUMNS = ["salt", "sugar", "oil"] as const;

/**
 * Reads CSV with the header `image_id,user_id,position,quantity,salt,sugar,oil,measures`
 * (columns in any order; image_id and position required, the others optional). Rows with
 * the same image_id and user_id form one change, wherever they are in the file; an empty
 * position means a recognition-only intake, which then has exactly one row. Only the group
 * being filled is kept unpacked; a later row of an earlier group reopens it.
 */
export async function readCsv(chunks: AsyncIterable<Buffer | string>, options: ReadOptions = {}): Promise<BatchInput> {
  const max = options.maxChanges ?? MAX_BATCH_CHANGES;
  const problems = new ProblemList();
  const changes = new ChangeList();
  const groupIndex = new Map<string, number>();
  let current: CsvGroup | null = null;
  const flush = () => {
    if (current) changes.setFields(current.index, current.fields);
    current = null;
  };

  const parser = parseCsv({
    bom: true,
    info: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_LINE_BYTES,
  });
  parser.on("skip", (error: Error & { lines?: number }) => {
    problems.add({ line: error.lines ?? 0, field: null, message: `not valid CSV: ${error.message.replace(/ (at|on) line \d+.*$/, "")}` });
  });
  // pipeline() keeps to the parser's pace and destroys both sides on an error or an early stop.
  const feed = pipeline(Readable.from(chunks, { objectMode: false }), parser).catch(() => {});

  let columns: Map<CsvColumn, number> | null = null;
  let headerBroken = false;
  let lines = 0;
  let tooMany = false;
  let interrupted = false;
  try {
    for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const newlines = entry.record.reduce((sum, cell) => sum + (cell.split("\n").length - 1), 0);
      const line = entry.info.lines - newlines;
      lines = entry.info.lines;
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      if (columns === null && !headerBroken) {
        const header = readCsvHeader(entry.record, line);
        if ("problems" in header) {
          for (const problem of header.problems) problems.add(problem);
          headerBroken = true;
        } else {
          columns = header.columns;
        }
        continue;
      }
      if (headerBroken || columns === null || tooMany) continue;
      const row = readCsvRow(entry.record, columns, line, problems);
      if (!row) continue;
      const key = `${row.imageId}/${row.userId ?? ""}`;
      if ((current as CsvGroup | null)?.key !== key) {
        flush();
        const index = groupIndex.get(key);
        if (index !== undefined) {
          current = reopenGroup(key, index, changes);
        } else {
          if (changes.length >= max) {
            problems.add({ line, field: null, message: tooManyChanges(max) });
            tooMany = true;
            continue;
          }
          const who = `intake ${row.imageId}${row.userId !== undefined ? ` of user ${row.userId}` : ""}`;
          const created = changes.push({ line, imageId: row.imageId, userId: row.userId, fields: {} });
          groupIndex.set(key, created);
          current = { key, index: created, line, who, fields: {}, kind: null, positions: new Map() };
        }
      }
      addRowToGroup(current!, row, line, problems);
    }
  } catch (error) {
    // Read errors (a missing file, a directory) are the caller's; only CSV errors are the input's.
    if (!/^CSV_/.test(String((error as { code?: unknown }).code))) throw error;
    problems.add({ line: lines + 1, field: null, message: `not valid CSV: ${(error as Error).message}` });
  }
  await feed;
  flush();
  groupIndex.clear();
  if (interrupted || options.signal?.aborted) return finishInput(changes, problems, lines, true);
  if (columns === null && !headerBroken) {
    problems.add({ line: 1, field: null, message: `empty input: expected the header ${CSV_COLUMNS.join(",")}` });
  }
  if (problems.count === 0) {
    // The rows were checked one by one; this checks each gathered change as the API will.
    for (let index = 0; index < changes.length; index++) {
      const change = changes.at(index);
      const shape = readUpdateShape(change.fields, { strictMeasures: false });
      for (const problem of shape.problems) problems.add({ line: change.line, field: problem.field, message: problem.message });
      if (shape.shape === "empty") problems.add({ line: change.line, field: null, message: "nothing to change" });
    }
  }
  return finishInput(changes, problems, lines, false);
}

function readCsvHeader(record: string[], line: number): { columns: Map<CsvColumn, number> } | { problems: BatchProblem[] } {
  const problems: BatchProblem[] = [];
  const columns = new Map<CsvColumn, number>();
  record.forEach((name, index) => {
    const column = name.toLowerCase();
    if (!(CSV_COLUMNS as readonly string[]).includes(column)) {
      problems.push({ line, field: name || `column ${index + 1}`, message: `unknown column; the header is ${CSV_COLUMNS.join(",")}` });
    } else if (columns.has(column as CsvColumn)) {
      problems.push({ line, field: name, message: "column given twice" });
    } else {
      columns.set(column as CsvColumn, index);
    }
  });
  for (const required of ["image_id", "position"] as const) {
    if (!columns.has(required)) problems.push({ line, field: required, message: `missing column; the header is ${CSV_COLUMNS.join(",")}` });
  }
  return problems.length > 0 ? { problems } : { columns };
}

interface CsvRow {
  imageId: number;
  userId: number | undefined;
  position: string | null;
  values: Partial<Record<"quantity" | "salt" | "sugar" | "oil" | "measures", string | number>>;
}

/** One row's cells on their own; problems go to the list, and a row with any is dropped. */
function readCsvRow(record: string[], columns: Map<CsvColumn, number>, line: number, problems: ProblemList): CsvRow | null {
  let ok = true;
  const fail = (field: string | null, message: string) => {
    ok = false;
    problems.add({ line, field, message });
  };
  if (record.length !== columns.size) {
    fail(null, `expected ${columns.size} fields like the header, got ${record.length}`);
    return null;
  }
  const cell = (column: CsvColumn) => {
    const index = columns.get(column);
    return index === undefined ? "" : (record[index] ?? "");
  };
  const imageText = cell("image_id");
  const imageId = parsePositiveId(imageText);
  if (imageText === "") fail("image_id", "missing: every row names the intake it changes");
  else if (imageId === null) fail("image_id", `must be a positive integer, got "${imageText}"`);
  const userText = cell("user_id");
  const userId = userText === "" ? undefined : parsePositiveId(userText);
  if (userId === null) fail("user_id", `must be a positive integer or empty, got "${userText}"`);
  const positionText = cell("position");
  const position = positionText === "" ? null : positionText;
  if (position !== null && !parsePositionKey(position)) {
    fail("position", `"${position}" is not a food item position (1, 2, … or manual1, manual2, …; empty for a recognition-only intake)`);
  }

  const values: CsvRow["values"] = {};
  const quantityText = cell("quantity");
  if (quantityText !== "") {
    const grams = parseGrams(quantityText);
    const problem = grams === null ? `must be a number of grams, got "${quantityText}"` : position === null ? checkRecognitionQuantity(grams) : checkItemQuantity(grams);
    if (problem) fail("quantity", grams === null ? problem : `${problem}, got "${quantityText}"`);
    else values.quantity = grams!;
  }
  for (const column of LEVEL_COLUMNS) {
    const text = cell(column);
    if (text === "") continue;
    if (!isLevel(text)) fail(column, `must be one of ${LEVELS.join(", ")}, got "${text}"`);
    else values[column] = text;
  }
  const measures = cell("measures");
  if (measures !== "") values.measures = measures;
  if (position === null) {
    for (const column of ["oil", "measures"] as const) {
      if (values[column] !== undefined) fail(column, "applies only to itemized intakes: give the item's position");
    }
  }
  if (ok && Object.keys(values).length === 0) fail(null, "nothing to change: give at least one of quantity, salt, sugar, oil, measures");
  if (!ok || imageId === null || userId === null) return null;
  return { imageId, userId, position, values };
}

/** An earlier group again, unpacked: its kind and positions come back from its fields. */
function reopenGroup(key: string, index: number, changes: ChangeList): CsvGroup {
  const change = changes.at(index);
  const positions = new Map<string, number | null>();
  let kind: GroupKind | null = null;
  for (const value of Object.values(change.fields)) {
    if (isPlainRecord(value)) {
      for (const position of Object.keys(value)) {
        positions.set(position, null);
        kind ??= parsePositionKey(position)?.kind ?? null;
      }
    } else {
      kind = "recognition";
    }
  }
  const who = `intake ${change.imageId}${change.userId !== undefined ? ` of user ${change.userId}` : ""}`;
  return { key, index, line: change.line, who, fields: change.fields, kind, positions };
}

function addRowToGroup(group: CsvGroup, row: CsvRow, line: number, problems: ProblemList): void {
  const { who } = group;
  if (row.position === null) {
    if (group.kind !== null) {
      problems.add({ line, field: "position", message: `${who} already has a row on line ${group.line}; a recognition-only intake (empty position) takes exactly one row` });
      return;
    }
    group.kind = "recognition";
    Object.assign(group.fields, row.values);
    return;
  }
  if (group.kind === "recognition") {
    problems.add({ line, field: "position", message: `${who} has a recognition-only row (empty position) on line ${group.line}; it cannot also have item rows` });
    return;
  }
  const kind = parsePositionKey(row.position)!.kind;
  if (group.kind !== null && group.kind !== kind) {
    problems.add({ line, field: "position", message: `${who} mixes segmentation (1, 2, …) and manual (manual1, …) positions; its first row is line ${group.line}` });
    return;
  }
  if (group.positions.has(row.position)) {
    const earlier = group.positions.get(row.position);
    problems.add({ line, field: "position", message: `position ${row.position} of ${who} is given twice (${earlier != null ? `also on line ${earlier}` : `the intake's first row is line ${group.line}`})` });
    return;
  }
  group.kind = kind;
  group.positions.set(row.position, line);
  for (const [name, value] of Object.entries(row.values)) {
    const perPosition = (group.fields[name] ??= {}) as Record<string, unknown>;
    perPosition[row.position] = value;
  }
}

/** Statuses of a result line; "skipped" always means "applied by an earlier run". */
export const RESULT_STATUSES = ["applied", "failed", "skipped", "dry_run"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** Key of a change in an earlier results file: line number and image_id together. */
export function resultKey(line: number, imageId: number): string {
  return `${line}:${imageId}`;
}

/** One line of an earlier run's output, for --skip-applied: its key when it was done, or a problem. */
export function parseResultLine(text: string, line: number): { done: string | null; problem: BatchProblem | null } {
  const fail = (field: string | null, message: string) => ({ done: null, problem: { line, field, message } });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(null, `not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainRecord(value)) return fail(null, "expected a result object as `intake apply` prints it");
  const changeLine = readId(value.line);
  if (changeLine === null) return fail("line", `must be a positive integer, got ${JSON.stringify(value.line)}`);
  const imageId = readId(value.image_id);
  if (imageId === null) return fail("image_id", `must be a positive integer, got ${JSON.stringify(value.image_id)}`);
  if (typeof value.status !== "string" || !(RESULT_STATUSES as readonly string[]).includes(value.status)) {
    return fail("status", `must be one of ${RESULT_STATUSES.join(", ")}, got ${JSON.stringify(value.status)}`);
  }
  const done = value.status === "applied" || value.status === "skipped";
  return { done: done ? resultKey(changeLine, imageId) : null, problem: null };
}

/** Reads an earlier run's results: the keys of the changes already applied. */
export async function readAppliedResults(chunks: AsyncIterable<Buffer | string>): Promise<{ done: Set<string>; problems: BatchProblem[]; problemCount: number }> {
  const done = new Set<string>();
  const problems = new ProblemList();
  for await (const input of splitLines(chunks)) {
    if (input.text === null) {
      problems.add({ line: input.line, field: null, message: input.problem ?? "unreadable line" });
      continue;
    }
    if (input.text.trim() === "") continue;
    const parsed = parseResultLine(input.text, input.line);
    if (parsed.problem) problems.add(parsed.problem);
    else if (parsed.done) done.add(parsed.done);
  }
  return { done, problems: problems.list, problemCount: problems.count };
}
