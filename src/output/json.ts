/** JSON on stdout: our own documents, and bodies as a server sent them. */

/** One JSON document, indented, ending in a newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A body as received, ending in exactly one newline. */
export function rawJsonText(raw: string): string {
  return raw.endsWith("\n") ? raw : `${raw}\n`;
}
