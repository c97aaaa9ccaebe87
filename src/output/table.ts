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

export function renderTable(stream: OutputStream, options: TableOptions): string {
  if (!stream.isTTY) return renderTsv(options.rows);
  // Required, not imported: the bundle then runs cli-table3 (milliseconds to load) on first use only; pipes never need it.
  const Table = require("cli-table3") as typeof import("cli-table3");
  const table = new Table({
    head: options.head,
    style: { head: options.color ? ["bold"] : [], border: options.color ? ["grey"] : [], compact: false },
    colAligns: options.head.map((_, index) => (options.alignRight?.includes(index) ? "right" : "left")),
    wordWrap: true,
  });
  for (const row of options.rows) table.push(row.map(cellText));
  return `${table.toString()}\n`;
}
