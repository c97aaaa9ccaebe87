/**
 * Rows for people and for pipes (docs/cli.md, Output). On a terminal: a compact table
 * (cli-table3) with a rule under the header and no rule between rows, fitted to the terminal's
 * width: long cells (foods, URLs, tokens) are cut with `…` first, then the widest other text
 * columns, never a number, id or time; narrower than that, one record per block. A
 * stream without a width (`--wide`, or an unknown terminal) shows every cell whole. Piped: the
 * same rows tab-separated with no header, rule or colour.
 */
import type { OutputStream } from "../io.js";
import { cleanForTerminal } from "../sanitize.js";
import { styler } from "./style.js";

export type Cell = string | number | null | undefined;

export interface TableOptions {
  head: string[];
  rows: Cell[][];
  /** Columns aligned right on a terminal (numbers): never cut. */
  alignRight?: number[];
  /** Columns of free text that give way first when the table is too wide (foods, URLs, tokens). */
  flexible?: number[];
  /** Columns never cut, whatever the width (an id a user copies into the next command). */
  whole?: number[];
  /** Columns of free text wrapped between words when the table is too wide, never cut: each keeps its longest word whole. */
  wrap?: number[];
  /** A line under each row (null: none), across the table, wrapped: what a row says that has no room in a column (a journal entry's reason). */
  notes?: ReadonlyArray<{ label: string; text: string } | null>;
  color: boolean;
}

/** Spaces between two columns. */
export const COLUMN_GAP = 2;
/** A free-text column keeps at least this many characters, `…` included. */
const FLEXIBLE_FLOOR = 12;
/** Any other column keeps at least this many, or its header's width when wider. */
const COLUMN_FLOOR = 6;

const cellText = (cell: Cell) => (cell === null || cell === undefined ? "" : String(cell));
/** What a cell prints: tables carry outside text (names, claims, paths), so every cell passes the one sanitizer. */
const printedCell = (cell: Cell) => cleanForTerminal(cellText(cell));

/** Tab-separated values stay one field each: tabs and newlines inside a cell become spaces. */
export function renderTsv(rows: Cell[][]): string {
  return (
    rows.map((row) => row.map((cell) => printedCell(cellText(cell).replace(/[\t\r\n]+/g, " "))).join("\t")).join("\n") +
    (rows.length ? "\n" : "")
  );
}

export const textWidth = (text: string) => [...text].length;

/** The columns text takes on a terminal: colour codes take none. */
export const visibleWidth = (text: string) => textWidth(text.replace(/\u001b\[[0-9;]*m/g, ""));

/** Text padded with spaces to this many characters. */
export const padText = (text: string, width: number) => text + " ".repeat(Math.max(0, width - textWidth(text)));

/** One line of text cut to this many characters, `…` last; whole when the width is unknown (`--wide`). */
export function cutToWidth(text: string, width: number | undefined): string {
  if (width === undefined || textWidth(text) <= width) return text;
  const kept = [...text].slice(0, Math.max(0, width - 1)).join("");
  return `${kept.trimEnd()}…`;
}

/** Parts joined by `separator`, starting a new line (indented) before a part that would pass the width. */
export function joinToWidth(parts: string[], separator: string, width: number | undefined, indent: number): string {
  const lines: string[] = [];
  let line = "";
  for (const part of parts) {
    const next = line === "" ? part : `${line}${separator}${part}`;
    if (line !== "" && width !== undefined && indent + visibleWidth(next) > width) {
      lines.push(line);
      line = part;
    } else line = next;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}
/**
 * Text wrapped between words to `width`, lines after the first indented by `indent` columns.
 * Nothing is cut: a word wider than the room (a URL) stands alone on a line of its own at the
 * left edge, where the terminal wraps it if need be and a copy of it is the whole word.
 */
export function wrapWords(text: string, width: number | undefined, indent: number): string {
  const words = text.split(" ").filter(Boolean);
  if (width === undefined) return words.join(" ");
  const room = width - indent;
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  let line = "";
  const flush = () => {
    if (line !== "") lines.push(lines.length === 0 ? line : `${pad}${line}`);
    line = "";
  };
  for (const word of words) {
    if (textWidth(word) > room) {
      flush();
      // The first line holds what follows the key: empty, when the long word comes first.
      if (lines.length === 0) lines.push("");
      lines.push(word);
    } else if (line !== "" && textWidth(line) + 1 + textWidth(word) > room) {
      flush();
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  flush();
  return lines.join("\n");
}

/**
 * A list (`1 salt low→high, 2 oil none→low`) wrapped to `width` with each item starting a line of
 * its own when it does not fit after the one before: an item is broken between its words only
 * when it is wider than the room. Nothing is cut.
 */
export function wrapListItems(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const item of text.split(/(?<=,) +/)) {
    const next = line === "" ? item : `${line} ${item}`;
    if (textWidth(next) <= width) {
      line = next;
      continue;
    }
    if (line !== "") lines.push(line);
    const pieces = wrapWords(item, width, 0).split("\n");
    line = pieces.pop()!;
    lines.push(...pieces.filter((piece) => piece !== ""));
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

/**
 * One line of a terminal report (a batch's result line) wrapped between words to `width`, lines
 * after the first indented by `indent`; the spacing of a line that fits is kept as it is. Nothing
 * is cut: a word wider than the room stands whole on its line.
 */
export function wrapLine(text: string, width: number | undefined, indent: number): string {
  const newline = text.endsWith("\n") ? "\n" : "";
  const body = newline ? text.slice(0, -1) : text;
  if (width === undefined || visibleWidth(body) <= width) return text;
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  let line = "";
  for (const word of body.split(" ")) {
    const room = lines.length === 0 ? width : width - indent;
    if (line === "" && word === "" && lines.length > 0) continue;
    const next = line === "" ? word : `${line} ${word}`;
    if (line.trim() !== "" && word !== "" && visibleWidth(next) > room) {
      lines.push(line.trimEnd());
      line = word;
    } else line = next;
  }
  lines.push(line.trimEnd());
  return `${lines.map((each, index) => (index === 0 ? each : `${pad}${each}`)).join("\n")}${newline}`;
}

/** A cell or value on one terminal line: line breaks and tabs become one space. */
export const oneLine = (text: string) => text.replace(/\s*[\r\n\t]\s*/g, " ");

/** Outside text as one terminal line prints it, cleaned like a table's cells. */
export const printedText = (text: string) => cleanForTerminal(oneLine(text));

/** Each column's width with every cell whole, as a terminal table prints them. */
export function naturalWidths(head: string[], rows: Cell[][]): number[] {
  return head.map((title, index) => Math.max(textWidth(title), ...rows.map((row) => textWidth(printedText(cellText(row[index]))))));
}

/** Narrows the widest of these columns, one character at a time, until nothing is in excess or all are at their floor. */
function narrow(widths: number[], floors: number[], candidates: number[], excess: number): number {
  let left = excess;
  while (left > 0) {
    let widest: number | undefined;
    for (const index of candidates) {
      const width = widths[index] ?? 0;
      if (width > (floors[index] ?? 0) && (widest === undefined || width > (widths[widest] ?? 0))) widest = index;
    }
    if (widest === undefined) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    left--;
  }
  return left;
}

/**
 * Content widths (no gaps) that fit a terminal this many columns wide: the widest free-text
 * column gives way first, then the widest of the other columns that may be cut, each down to its
 * floor (its header, and a few characters); `whole` columns (ids, times, numbers) are never cut.
 * Undefined when everything fits as it is or the width is unknown; null when even the floors do
 * not fit (the table is then shown one record per block, `renderTable`).
 */
export function fitColumnWidths(
  head: string[],
  rows: Cell[][],
  columns: number | undefined,
  flexible: number[] = [],
  whole: number[] = [],
  wrap: number[] = [],
): number[] | undefined | null {
  if (!columns || columns <= 0) return undefined;
  const widths = naturalWidths(head, rows);
  const excess = widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP * (head.length - 1) - columns;
  if (excess <= 0) return undefined;
  const longestWord = (index: number) => Math.max(0, ...rows.flatMap((row) => cellText(row[index]).split(" ").map(textWidth)));
  const floors = head.map((title, index) =>
    whole.includes(index)
      ? (widths[index] ?? 0)
      : wrap.includes(index)
        ? Math.max(textWidth(title), longestWord(index))
        : Math.min(widths[index] ?? 0, Math.max(textWidth(title), flexible.includes(index) ? FLEXIBLE_FLOOR : COLUMN_FLOOR)),
  );
  const left = narrow(widths, floors, [...flexible, ...wrap], excess);
  const cuttable = head.map((_, index) => index).filter((index) => !whole.includes(index));
  return narrow(widths, floors, cuttable, left) > 0 ? null : widths;
}

/**
 * A table too wide for the terminal even at its floors, one record per block (as `kubectl
 * describe` shows one): each header beside its cell, values wrapped between words, nothing cut;
 * a blank line after each record.
 */
function renderBlocks(stream: OutputStream, options: TableOptions, rows: string[][]): string {
  const { bold } = styler(options.color);
  const keyWidth = Math.max(...options.head.map(textWidth));
  const blocks = rows.map((row, rowIndex) => {
    const note = options.notes?.[rowIndex];
    return [
      ...options.head.map((title, index) =>
        `${bold(padText(title, keyWidth))}  ${wrapWords(row[index] ?? "", stream.columns, keyWidth + COLUMN_GAP)}`.trimEnd(),
      ),
      ...(note
        ? [`${bold(padText(note.label, keyWidth))}  ${wrapWords(printedCell(oneLine(note.text)), stream.columns, keyWidth + COLUMN_GAP)}`]
        : []),
    ].join("\n");
  });
  // A blank line after the last record too: what follows (`intake show`'s totals) stands apart from it.
  return `${blocks.join("\n\n")}\n\n`;
}

const NO_BORDER = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
};
const NO_SIDES = { left: "", "left-mid": "", right: "", "right-mid": "" };

export function renderTable(stream: OutputStream, options: TableOptions): string {
  if (!stream.isTTY) return renderTsv(options.rows);
  // Required here, not imported: only a terminal gets a drawn table (a pipe gets tab-separated text).
  const Table = require("cli-table3") as typeof import("cli-table3");
  const rows = options.rows.map((row) => row.map((cell) => printedCell(oneLine(cellText(cell)))));
  // Numbers are never cut, as ids and times are not: a cut one would read as another number.
  const whole = [...(options.whole ?? []), ...(options.alignRight ?? [])];
  const wrap = options.wrap ?? [];
  const colWidths = fitColumnWidths(options.head, rows, stream.columns, options.flexible, whole, wrap);
  if (colWidths === null) return renderBlocks(stream, options, rows);
  const table = new Table({
    head: options.head,
    chars: { ...NO_BORDER, ...NO_SIDES, mid: "─", "mid-mid": "─".repeat(COLUMN_GAP), middle: " ".repeat(COLUMN_GAP) },
    style: {
      head: options.color ? ["bold"] : [],
      border: options.color ? ["grey"] : [],
      compact: true,
      "padding-left": 0,
      "padding-right": 0,
    },
    colAligns: options.head.map((_, index) => (options.alignRight?.includes(index) ? "right" : "left")),
    ...(colWidths ? { colWidths } : {}),
    wordWrap: false,
  });
  // Cut here, not by cli-table3, so that a cut cell reads like every other (`rice and…`, not `rice and …`).
  const fitted = (cell: string, index: number) =>
    wrap.includes(index) ? wrapListItems(cell, colWidths![index]!) : cutToWidth(cell, colWidths![index]);
  // As wide as cli-table3 makes a cell across every column: the columns, and one character for each border between them.
  const across = (colWidths ?? naturalWidths(options.head, rows)).reduce((sum, width) => sum + width, 0) + options.head.length - 1;
  rows.forEach((row, index) => {
    table.push(colWidths ? row.map(fitted) : row);
    const note = options.notes?.[index];
    if (note)
      table.push([
        { colSpan: options.head.length, content: `  ${wrapWords(`${note.label}: ${printedCell(oneLine(note.text))}`, across, 2)}` },
      ]);
  });
  // The last column is padded like the others: trailing spaces would only wrap a terminal sooner.
  return `${table.toString().replace(/ +$/gm, "")}\n`;
}
