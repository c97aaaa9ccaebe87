/**
 * Rows for people and for pipes: on a terminal a bordered table (cli-table3), otherwise the
 * same rows tab-separated with no header, border or colour (cli.md, Output).
 */
import type { OutputStream } from "../io.js";

export type Cell = string | number | null | undefined;

export interface TableOptions {
  head: string[];
  rows: Cell[][];
  /** Columns aligned right on a terminal (numbers). */
  alignRight?: number[];
  color: boolean;
}

const cellText = (cell: Cell) => (cell === null || cell === undefined ? "" : String(cell));

/** Tab-separated values stay one field each: tabs and newlines inside a cell become spaces. */
export function renderTsv(rows: Cell[][]): string {
  return rows.map((row) => row.map((cell) => cellText(cell).replace(/[\t\r\n]+/g, " ")).join("\t")).join("\n") + (rows.length ? "\n" : "");
}

const textWidth = (text: string) => [...text].length;

/**
 * Column widths (padding included) that fit a terminal this many columns wide: the widest
 * column gives way first, never below its longest word, and its text wraps. Undefined when
 * everything fits as it is.
 */
export function fitColumnWidths(head: string[], rows: Cell[][], columns: number | undefined): number[] | undefined {
  if (!columns || columns <= 0) return undefined;
  const texts = head.map((title, index) => [title, ...rows.map((row) => cellText(row[index]))]);
  const widths = texts.map((column) => Math.max(...column.map(textWidth)) + 2);
  const minimums = texts.map((column) => Math.max(...column.flatMap((text) => text.split(/\s+/)).map(textWidth)) + 2);
  let excess = widths.reduce((sum, width) => sum + width, 0) + head.length + 1 - columns;
  if (excess <= 0) return undefined;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((width, index) => {
      if (width > minimums[index]! && (widest < 0 || width > widths[widest]!)) widest = index;
    });
    if (widest < 0) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}

export function renderTable(stream: OutputStream, options: TableOptions): string {
  if (!stream.isTTY) return renderTsv(options.rows);
  // Required, not imported: the bundle then runs cli-table3 (milliseconds to load) on first use only; pipes never need it.
  const Table = require("cli-table3") as typeof import("cli-table3");
  const colWidths = fitColumnWidths(options.head, options.rows, stream.columns);
  const table = new Table({
    head: options.head,
    style: { head: options.color ? ["bold"] : [], border: options.color ? ["grey"] : [], compact: false },
    colAligns: options.head.map((_, index) => (options.alignRight?.includes(index) ? "right" : "left")),
    ...(colWidths ? { colWidths } : {}),
    wordWrap: true,
  });
  for (const row of options.rows) table.push(row.map(cellText));
  return `${table.toString()}\n`;
}
