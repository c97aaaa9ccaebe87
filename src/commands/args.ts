/** Argument checks every command shares, each a usage error (exit 2) before anything is sent. */
import { usageError } from "../errors.js";
import { parsePositiveId } from "../intake/ids.js";

export function parseImageIdArg(text: string): number {
  const id = parsePositiveId(text);
  if (id === null) throw usageError(`image_id must be a positive integer, got "${text}"`, { hint: "find ids with `foodctl intake list`" });
  return id;
}
