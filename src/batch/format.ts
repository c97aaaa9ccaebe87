/**
 * Which format a batch input is in: from the file name, else from its content (the first
 * non-blank character `{` means JSON Lines, a first line `# intake <id>` the edit text of `intake
 * edit`, else CSV with the documented header); `--format`
 * overrides both. Content that contradicts the name is refused with one message.
 */
import { intakeNamedBy } from "../intake/editText.js";
import { CSV_COLUMNS } from "./csv.js";

export type BatchFormat = "jsonl" | "csv" | "edit";

const EXTENSIONS: Record<string, BatchFormat> = { ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv" };

/** The format a file name implies (.jsonl, .ndjson, .json → jsonl; .csv → csv), or null. */
export function formatFromFileName(name: string): BatchFormat | null {
  const match = /(\.[A-Za-z]+)$/.exec(name);
  return match ? (EXTENSIONS[match[1]!.toLowerCase()] ?? null) : null;
}

/** What the first non-blank line of an input looks like. */
export type ContentLook = "empty" | "jsonl" | "json-array" | "csv" | "semicolon" | "edit" | "unknown";

export function lookOf(firstLine: string | null): ContentLook {
  if (firstLine === null) return "empty";
  const text = firstLine.replace(/^\uFEFF/, "").trim();
  if (text.startsWith("{")) return "jsonl";
  if (text.startsWith("[")) return "json-array";
  if (intakeNamedBy(text) !== null) return "edit";
  const isColumn = (name: string) => (CSV_COLUMNS as readonly string[]).includes(name.trim().replace(/^"|"$/g, "").toLowerCase());
  if (text.includes(";") && text.split(";").filter(isColumn).length >= 2) return "semicolon";
  if (text.split(",").some(isColumn)) return "csv";
  return "unknown";
}

const DESCRIBED: Record<Exclude<ContentLook, "empty" | "unknown" | "edit">, string> = {
  jsonl: "JSON Lines (its first line starts with {)",
  "json-array": "one JSON array (its first line starts with [), not JSON Lines",
  csv: "CSV (its first line is a header)",
  semicolon: "CSV separated by semicolons (;)",
};

export type FormatDecision = { format: BatchFormat } | { refuse: string; hint: string };

/** The format to read `source` as, or why it is refused (one message, naming --format). */
export function decideFormat(source: string, fileName: string | null, flag: BatchFormat | undefined, look: ContentLook): FormatDecision {
  if (flag) return { format: flag };
  const named = fileName === null ? null : formatFromFileName(fileName);
  const csvHint =
    `intake apply reads CSV separated by commas, with the header ${CSV_COLUMNS.join(",")}: save the file with commas` +
    " (--format csv reads commas only)";
  if (look === "semicolon") return { refuse: `${source} looks like ${DESCRIBED.semicolon}`, hint: csvHint };
  if (look === "json-array") {
    const hint = "write one object per line, e.g. jq -c '.[]' file.json > fixes.jsonl, or pass --format jsonl";
    return { refuse: `${source} looks like ${DESCRIBED["json-array"]}`, hint };
  }
  if (named === "csv" && look === "jsonl") {
    return { refuse: `${source} looks like ${DESCRIBED.jsonl}, but its name says CSV`, hint: "rename it .jsonl, or pass --format jsonl" };
  }
  if (named === "jsonl" && look === "csv") {
    return { refuse: `${source} looks like ${DESCRIBED.csv}, but its name says JSON Lines`, hint: "rename it .csv, or pass --format csv" };
  }
  // The edit text of `intake edit`, saved under any name.
  if (look === "edit") return { format: "edit" };
  if (named) return { format: named };
  if (look === "jsonl" || look === "empty") return { format: "jsonl" };
  if (look === "csv") return { format: "csv" };
  return {
    refuse: `cannot tell the format of ${source}: its first line is neither a JSON object nor the CSV header ${CSV_COLUMNS.join(",")}`,
    hint: "pass --format jsonl or --format csv",
  };
}

/**
 * Reads chunks until the first non-blank line is complete (or 64 KiB), without losing any:
 * returns that line and the same input from its start.
 */
const PEEK_BYTES = 64 * 1024;

export async function peekFirstLine(
  chunks: AsyncIterable<Buffer | string>,
): Promise<{ firstLine: string | null; input: AsyncIterable<Buffer> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    size += chunk.length;
    const text = Buffer.concat(head).toString("utf8");
    const start = text.search(/\S/);
    const end = start === -1 ? -1 : text.indexOf("\n", start);
    if (end !== -1 || size > PEEK_BYTES) {
      const firstLine = start === -1 ? null : text.slice(start, end === -1 ? undefined : end);
      return { firstLine, input: replay(head, iterator, false) };
    }
  }
  const text = Buffer.concat(head).toString("utf8");
  const start = text.search(/\S/);
  const firstLine = start === -1 ? null : text.slice(start);
  return { firstLine, input: replay(head, iterator, true) };
}

async function* replay(head: Buffer[], rest: AsyncIterator<Buffer | string>, done: boolean): AsyncGenerator<Buffer> {
  yield* head;
  if (done) return;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield typeof next.value === "string" ? Buffer.from(next.value) : next.value;
  }
}
