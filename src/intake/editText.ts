/**
 * The edit text of `intake edit` (docs/cli.md, "The edit text"): one line per item under a header
 * naming `intake apply`'s CSV columns, separated by spaces, `-` for a value not set, `#` to the end
 * of a line a comment (the food, the help). Reading it back gives the update fields of what
 * changed, with the same value rules as the other change commands. Pure, no I/O.
 */
import type { Intake } from "../records/intake.js";
import { readItems, type ItemView } from "./items.js";
import { isItemized, KIND_LABELS, readIntakeKind } from "./kinds.js";
import { LEVELS } from "../records/fields.js";
import { gramsValue } from "./quantity.js";
import { holdsAlready } from "./unchanged.js";
import { validateUpdateShape } from "./update.js";

/** The columns of an itemized intake's text, and of a recognition-only one's (its one row is `total`). */
export const ITEM_COLUMNS = ["position", "quantity", "salt", "sugar", "oil", "measures"] as const;
export const TOTAL_COLUMNS = ["position", "quantity", "salt", "sugar"] as const;
type ValueColumn = "quantity" | "salt" | "sugar" | "oil" | "measures";

/** What the text writes for a value the intake has not set. */
export const UNSET = "-";
/** The row of a recognition-only intake. */
export const TOTAL_POSITION = "total";
/** Comment lines that say why the last save was not sent; dropped when the text is read again. */
export const PROBLEM_PREFIX = "# problem: ";

const FIELD_OF: Record<ValueColumn, keyof ItemView> = {
  quantity: "grams",
  salt: "salt",
  sugar: "sugar",
  oil: "oil",
  measures: "measures",
};

/** How a value is written: grams in plain decimal notation, a level as its word, `-` when not set. */
function cellText(value: string | number | null): string {
  if (value === null) return UNSET;
  return typeof value === "number" ? String(value) : value;
}

function alignRows(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  "));
}

/** The text an editor opens on: help as comments, the header, one line per item with its food as a comment. */
export function renderEditText(intake: Intake): string {
  const kind = readIntakeKind(intake);
  const itemized = isItemized(kind);
  const columns = itemized ? ITEM_COLUMNS : TOTAL_COLUMNS;
  const state = readItems(intake);
  const rows: string[][] = [[...columns]];
  for (const item of state) {
    rows.push(columns.map((column) => (column === "position" ? (item.position ?? TOTAL_POSITION) : cellText(item[FIELD_OF[column]]))));
  }
  const aligned = alignRows(rows);
  const foods = ["food (not editable)", ...state.map((item) => item.food.replace(/[\r\n]+/g, " "))];
  const when = [intake.timestamp, intake.occasion].filter((part) => part).join(", ");
  const levels = itemized ? "salt, sugar, oil" : "salt, sugar";
  return [
    `# intake ${intake.image_id} (${KIND_LABELS[kind]})${when ? `, ${when}` : ""}`,
    "#",
    `# Change quantity (grams), ${levels}${itemized ? " or measures" : ""}; save to send.`,
    `# Levels: ${LEVELS.join(", ")}${itemized ? "; measures: metric, imperial" : ""}; ${UNSET}: not set.`,
    "# Lines starting with # are ignored; an emptied file cancels the edit.",
    "#",
    ...aligned.map((line, index) => `${line}  # ${foods[index]}`),
    "",
  ].join("\n");
}

/** The edit text without the problem lines an earlier save put at its top. */
export function withoutProblems(text: string): string {
  return text
    .split("\n")
    .filter((line) => !line.startsWith(PROBLEM_PREFIX.trimEnd()))
    .join("\n");
}

/** How many lines `withProblems` puts above the text for this many problems. */
export const problemHeaderLines = (problems: number) => problems + 1;

/**
 * The edit text with the problems of the last save written at its top (and older ones dropped).
 * Read the text with `lineOffset: problemHeaderLines(n)` first, so the problems name the lines
 * of the file as it is reopened.
 */
export function withProblems(text: string, problems: readonly string[]): string {
  const header = ["the edit was not sent; fix the lines below and save, or empty the file to cancel", ...problems];
  return `${header.map((line) => `${PROBLEM_PREFIX}${line}`).join("\n")}\n${withoutProblems(text)}`;
}

export type EditReading =
  { kind: "empty" } | { kind: "problems"; problems: string[] } | { kind: "edit"; fields: Record<string, unknown>; changed: number };

interface Line {
  number: number;
  cells: string[];
}

/** The intake an edit text names on its `# intake <id>` line, or null for any other line. */
export function intakeNamedBy(line: string): number | null {
  const named = /^#\s*intake\s+([0-9]+)\b/.exec(line.trim());
  return named ? Number(named[1]) : null;
}

/** A line's cells: `#` to the end dropped, the rest split at spaces; none for a blank or comment line. */
export function editTextCells(raw: string): string[] {
  const hash = raw.indexOf("#");
  const content = (hash === -1 ? raw : raw.slice(0, hash)).trim();
  return content === "" ? [] : content.split(/\s+/);
}

function meaningfulLines(text: string, lineOffset: number): Line[] {
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const cells = editTextCells(raw);
    if (cells.length > 0) lines.push({ number: lineOffset + index + 1, cells });
  });
  return lines;
}

export interface EditTextOptions {
  /** Rows left out keep their values (`--file`, a script's few rows); else every item keeps its line (the editor). */
  partial?: boolean;
  /** Lines above the text in the file the user sees (the problems of a reopened edit). */
  lineOffset?: number;
}

/** The problems of the header line: each name a column of this intake's kind, once, position among them. */
function headerProblems(header: Line, allowed: readonly string[]): string[] {
  const problems: string[] = [];
  const columns = header.cells.map((name) => name.toLowerCase());
  for (const [index, name] of columns.entries()) {
    if (!allowed.includes(name))
      problems.push(`line ${header.number}: unknown column "${header.cells[index]}"; the columns are ${allowed.join(" ")}`);
    else if (columns.indexOf(name) !== index) problems.push(`line ${header.number}: column ${name} is given twice`);
  }
  if (!columns.includes("position"))
    problems.push(`line ${header.number}: the first line names the columns (${allowed.join(" ")}); position is missing`);
  return problems;
}

/**
 * One value as written, as the value it sets (null when it is what the intake has): text to a
 * value only, judged with the row by the update's check. `-` is this text's own word for "not set".
 */
function readCell(text: string, column: ValueColumn, item: ItemView): { value: string | number | null } | { problem: string } {
  const was = item[FIELD_OF[column]] as string | number | null;
  if (text !== UNSET) {
    const value = column === "quantity" ? gramsValue(text) : text;
    return { value: holdsAlready(value, was) ? null : value };
  }
  if (was === null) return { value: null };
  const label = `${column}${item.position === null ? "" : ` of position ${item.position}`}`;
  return { problem: `${label} cannot be unset (it is ${cellText(was)}); write a value` };
}

interface CellChange {
  position: string | null;
  column: ValueColumn;
  value: string | number;
}

/** The update fields of these changes: flat for a recognition-only intake's total, else keyed by position. */
function updateFields(changes: CellChange[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const { position, column, value } of changes) {
    if (position === null) fields[column] = value;
    else ((fields[column] ??= {}) as Record<string, unknown>)[position] = value;
  }
  return fields;
}

/**
 * Reads an edit text against the intake it was made from: the update fields of every value
 * that differs (unchanged positions and values are not sent), or each problem with its line.
 */
export function readEditText(text: string, intake: Intake, options: EditTextOptions = {}): EditReading {
  const lines = meaningfulLines(text.replace(/^\uFEFF/, ""), options.lineOffset ?? 0);
  if (lines.length === 0) return { kind: "empty" };
  const allowed: readonly string[] = isItemized(readIntakeKind(intake)) ? ITEM_COLUMNS : TOTAL_COLUMNS;
  const [header, ...rows] = lines as [Line, ...Line[]];
  const problems = headerProblems(header, allowed);
  if (problems.length) return { kind: "problems", problems };
  const columns = header.cells.map((name) => name.toLowerCase());
  const byPosition = new Map(readItems(intake).map((item) => [item.position ?? TOTAL_POSITION, item]));
  const seen = new Set<string>();
  const changes: CellChange[] = [];
  for (const row of rows) {
    const where = `line ${row.number}`;
    const position = row.cells[columns.indexOf("position")]!;
    const item = byPosition.get(position);
    if (row.cells.length !== columns.length) {
      if (item) seen.add(position);
      problems.push(
        `${where}: ${row.cells.length} values for ${columns.length} columns (${columns.join(" ")}); write ${UNSET} for a value not set`,
      );
      continue;
    }
    if (!item || seen.has(position)) {
      const known = [...byPosition.keys()].join(", ");
      problems.push(
        item
          ? `${where}: position ${position} is given twice`
          : `${where}: unknown position ${position} (this intake has ${known}); items are not added here`,
      );
      continue;
    }
    seen.add(position);
    const rowChanges: CellChange[] = [];
    columns.forEach((name, index) => {
      if (name === "position") return;
      const read = readCell(row.cells[index]!, name as ValueColumn, item);
      if ("problem" in read) problems.push(`${where}: ${read.problem}`);
      else if (read.value !== null) rowChanges.push({ position: item.position, column: name as ValueColumn, value: read.value });
    });
    // The row's values judged as a CSV row's and a JSON Lines body's are: by the update's one check (src/records/update.ts).
    const shape = validateUpdateShape(updateFields(rowChanges), { strictMeasures: false });
    for (const problem of shape.problems) problems.push(`${where}: ${problem.message}`);
    changes.push(...rowChanges);
  }
  for (const position of options.partial ? [] : byPosition.keys()) {
    if (!seen.has(position)) problems.push(`position ${position} is missing: keep every item's line (items are not removed here)`);
  }
  if (problems.length) return { kind: "problems", problems };
  return { kind: "edit", fields: updateFields(changes), changed: changes.length };
}
