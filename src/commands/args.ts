/** Argument checks every command shares, each a usage error (exit 2) before anything is sent; and the quoting of a command it prints. */
import { usageError } from "../errors.js";
import { parsePositiveId } from "../intake/ids.js";

export function parseImageIdArg(text: string): number {
  const id = parsePositiveId(text);
  if (id === null) throw usageError(`image_id must be a positive integer, got "${text}"`, { hint: "find ids with `foodctl intake list`" });
  return id;
}

/** A word as a shell reads it back: as it is when it holds nothing the shell treats specially, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
