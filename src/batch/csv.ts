/**
 * CSV input: the header `image_id,user_id,position,quantity,salt,sugar,oil,measures,reason`
 * (columns in any order; image_id and position required), one row per item. Consecutive rows with the
 * same image_id and user_id form one change; a later run of rows for the same intake is a later
 * change, applied after it. An empty position means a recognition-only intake, one row.
 * Cells cannot span lines, so the input is read line by line like JSON Lines.
 *
 * The edit text of `intake edit` (docs/cli.md, "Editing in your editor") is the same table for one
 * intake: its `# intake <id>` line names the intake, cells are separated by spaces, `-` is a value
 * not given, `total` the position of a recognition-only intake's row and `#` starts a comment. It
 * is read here as those rows with that image_id, so both formats follow one set of rules.
 */
import { editTextCells, intakeNamedBy, TOTAL_POSITION, UNSET } from "../intake/editText.js";
import { parsePositiveId } from "../intake/ids.js";
import { parsePositionKey, type PositionKind } from "../intake/positions.js";
import { gramsValue } from "../intake/quantity.js";
import { validateUpdateShape } from "../intake/update.js";
import { finishInput, readLines, type BatchInput, type LineSink, type ReadOptions } from "./input.js";
import { quoteValue } from "./problems.js";
import { reasonProblem } from "../journal/reason.js";

export const CSV_COLUMNS = ["image_id", "user_id", "position", "quantity", "salt", "sugar", "oil", "measures", "reason"] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];
const VALUE_COLUMNS = ["quantity", "salt", "sugar", "oil", "measures"] as const;
const HEADER = CSV_COLUMNS.join(",");

/** One CSV line's cells (RFC 4180 quoting, spaces around cells trimmed), or why it cannot be read. */
export function splitCsvLine(text: string): { cells: string[] } | { problem: string } {
  const cells: string[] = [];
  let index = 0;
  for (;;) {
    while (text[index] === " " || text[index] === "\t") index++;
    let cell = "";
    if (text[index] === '"') {
      let end = index + 1;
      for (;;) {
        const quote = text.indexOf('"', end);
        if (quote === -1) return { problem: "not valid CSV: a quoted cell is not closed on its line (cells cannot span lines)" };
        cell += text.slice(end, quote);
        if (text[quote + 1] !== '"') {
          index = quote + 1;
          break;
        }
        cell += '"';
        end = quote + 2;
      }
      while (text[index] === " " || text[index] === "\t") index++;
      if (index < text.length && text[index] !== ",")
        return { problem: `not valid CSV: text after a quoted cell (column ${cells.length + 1})` };
    } else {
      const comma = text.indexOf(",", index);
      const end = comma === -1 ? text.length : comma;
      cell = text.slice(index, end).trim();
      index = end;
    }
    cells.push(cell);
    if (index >= text.length) return { cells };
    index++; // the comma
  }
}

function readHeader(cells: string[], line: number, sink: LineSink): Map<CsvColumn, number> | null {
  const columns = new Map<CsvColumn, number>();
  let ok = true;
  cells.forEach((name, index) => {
    const column = name.toLowerCase() as CsvColumn;
    const known = (CSV_COLUMNS as readonly string[]).includes(column);
    const problem = !known ? `unknown column; the header is ${HEADER}` : columns.has(column) ? "column given twice" : null;
    if (problem) {
      ok = false;
      sink.problem({ line, field: name ? quoteValue(name) : `column ${index + 1}`, message: problem });
    } else {
      columns.set(column, index);
    }
  });
  for (const required of ["image_id", "position"] as const) {
    if (columns.has(required)) continue;
    ok = false;
    sink.problem({ line, field: required, message: `missing column; the header is ${HEADER}` });
  }
  return ok ? columns : null;
}

interface CsvRow {
  imageId: number;
  userId: number | undefined;
  position: string | null;
  /** The row as update fields: plain values without a position, else keyed by it. */
  fields: Record<string, unknown>;
  /** Empty for none. */
  reason: string;
}

type Fail = (field: string | null, message: string) => void;

/** The id cells of a row. */
function readIds(cell: (column: CsvColumn) => string, fail: Fail): { imageId: number | null; userId: number | undefined | null } {
  const imageText = cell("image_id");
  const imageId = parsePositiveId(imageText);
  if (imageText === "") fail("image_id", "missing: every row names the intake it changes");
  else if (imageId === null) fail("image_id", `must be a positive integer, got ${quoteValue(imageText)}`);
  const userText = cell("user_id");
  const userId = userText === "" ? undefined : parsePositiveId(userText);
  if (userId === null) fail("user_id", `must be a positive integer or empty, got ${quoteValue(userText)}`);
  return { imageId, userId };
}

/** One row's cells on their own, checked with the same rules and messages as a JSON Lines body. */
function readRow(cells: string[], columns: Map<CsvColumn, number>, line: number, sink: LineSink): CsvRow | null {
  if (cells.length !== columns.size) {
    sink.problem({ line, field: null, message: `expected ${columns.size} fields like the header, got ${cells.length}` });
    return null;
  }
  let ok = true;
  const fail: Fail = (field, message) => {
    ok = false;
    sink.problem({ line, field, message });
  };
  const cell = (column: CsvColumn) => cells[columns.get(column) ?? -1] ?? "";
  const { imageId, userId } = readIds(cell, fail);
  const positionText = cell("position");
  const position = positionText === "" ? null : positionText;
  if (position !== null && !parsePositionKey(position)) {
    fail(
      "position",
      `${quoteValue(position)} is not a food item position (1, 2, … or manual1, manual2, …; empty for a recognition-only intake)`,
    );
    return null;
  }
  const fields = readValues(cell, position, fail);
  const reason = cell("reason");
  const reasonText = reason === "" ? null : reasonProblem(reason);
  if (reasonText) fail("reason", reasonText);
  if (ok && Object.keys(fields).length === 0) fail(null, `nothing to change: give at least one of ${VALUE_COLUMNS.join(", ")}`);
  if (!ok || imageId === null || userId === null) return null;
  return { imageId, userId, position, fields, reason: reason.trim() };
}

/** The value cells as update fields, checked by the rules a JSON Lines body meets. */
function readValues(cell: (column: CsvColumn) => string, position: string | null, fail: Fail): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const column of VALUE_COLUMNS) {
    const text = cell(column);
    if (text === "") continue;
    // Text to a value only: the update's check below judges it, as it judges a JSON Lines body.
    const value = column === "quantity" ? gramsValue(text) : text;
    fields[column] = position === null ? value : { [position]: value };
  }
  for (const problem of validateUpdateShape(fields, { strictMeasures: false }).problems)
    fail(problem.field.split(".")[0]!, problem.message);
  return fields;
}

/** The rows of one intake and user that follow each other: one change. */
interface CsvGroup {
  line: number;
  imageId: number;
  userId: number | undefined;
  kind: "recognition" | PositionKind;
  positions: Map<string, number>;
  fields: Record<string, unknown>;
  /** The change's reason: its rows give one, or none ("" in every row). */
  reason: string;
}

function who(group: CsvGroup): string {
  return `intake ${group.imageId}${group.userId !== undefined ? ` of user ${group.userId}` : ""}`;
}

/** Adds a row to its group; false (with a problem) when it cannot belong to it. */
function addRow(group: CsvGroup, row: CsvRow, line: number, sink: LineSink): void {
  const kind = row.position === null ? "recognition" : parsePositionKey(row.position)!.kind;
  const fail = (message: string) => sink.problem({ line, field: "position", message });
  if (group.kind === "recognition" || kind === "recognition") {
    fail(`${who(group)} has a recognition-only row (empty position) on line ${group.line}; it takes exactly one row, and no item rows`);
  } else if (kind !== group.kind) {
    fail(`${who(group)} mixes segmentation (1, 2, …) and manual (manual1, …) positions; its first row is line ${group.line}`);
  } else if (row.reason !== "" && group.reason !== "" && row.reason !== group.reason) {
    sink.problem({
      line,
      field: "reason",
      message: `differs from the reason of ${who(group)} on line ${group.line}: one change has one reason`,
    });
  } else if (group.positions.has(row.position!)) {
    fail(`position ${row.position} of ${who(group)} is given twice (also on line ${group.positions.get(row.position!)})`);
  } else {
    group.positions.set(row.position!, line);
    if (group.reason === "") group.reason = row.reason;
    for (const [name, value] of Object.entries(row.fields)) Object.assign((group.fields[name] ??= {}) as Record<string, unknown>, value);
  }
}

function startGroup(row: CsvRow, line: number): CsvGroup {
  const kind = row.position === null ? "recognition" : parsePositionKey(row.position)!.kind;
  const positions = new Map(row.position === null ? [] : [[row.position, line] as const]);
  return { line, imageId: row.imageId, userId: row.userId, kind, positions, fields: structuredClone(row.fields), reason: row.reason };
}

/**
 * An edit text's line as CSV cells (the intake's id as an image_id cell at the end); null for a
 * line with nothing to read (a comment, or a row that gives no value).
 */
function editCells(text: string, intake: { id: string | null; header: boolean }): string[] | null {
  const named = intakeNamedBy(text);
  if (named !== null && intake.id === null) intake.id = String(named);
  const cells = editTextCells(text);
  if (cells.length === 0) return null;
  if (!intake.header) {
    intake.header = true;
    return [...cells, "image_id"];
  }
  const values = cells.map((cell, index) => (cell === UNSET || (index === 0 && cell.toLowerCase() === TOTAL_POSITION) ? "" : cell));
  if (values.slice(1).every((cell) => cell === "")) return null;
  return [...values, intake.id ?? ""];
}

/** Reads CSV, or with `edit` the edit text of one intake (see the top of this file). */
export async function readCsv(chunks: AsyncIterable<Buffer | string>, options: ReadOptions = {}, edit = false): Promise<BatchInput> {
  let columns: Map<CsvColumn, number> | null = null;
  let headerSeen = false;
  let group: CsvGroup | null = null;
  let sinkUsed: LineSink | null = null;
  const intake = { id: null as string | null, header: false };
  const flush = () => {
    if (group && sinkUsed) {
      const { line, imageId, userId, fields, reason } = group;
      sinkUsed.change({ line, imageId, userId, fields, ...(reason === "" ? {} : { reason }) });
    }
    group = null;
  };
  const state = await readLines(chunks, options, (text, line, sink) => {
    sinkUsed = sink;
    let split: ReturnType<typeof splitCsvLine>;
    if (edit) {
      const cells = editCells(text, intake);
      if (cells === null) return;
      if (intake.id === null)
        return sink.problem({ line, field: null, message: "an edit text names its intake first, on a line # intake <image_id>" });
      split = { cells };
    } else {
      split = splitCsvLine(text);
    }
    if ("problem" in split) return sink.problem({ line, field: null, message: split.problem });
    if (!headerSeen) {
      headerSeen = true;
      columns = readHeader(split.cells, line, sink);
      return;
    }
    if (columns === null) return;
    const row = readRow(split.cells, columns, line, sink);
    if (!row) return;
    const current = group as CsvGroup | null;
    if (current && current.imageId === row.imageId && current.userId === row.userId) return addRow(current, row, line, sink);
    flush();
    group = startGroup(row, line);
  });
  flush();
  // No header at all (a zero-byte file, comments only) is an empty batch, as in every other format.
  return finishInput(state);
}
