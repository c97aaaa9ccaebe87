/**
 * The one sanitizer for text that came from outside (a server, a token's claims, a file) before
 * it is printed: on a terminal no such text may move the cursor, recolour, or reorder what
 * follows; under --json the same characters are escaped, so the value is unchanged and the
 * document still valid (docs/cli.md, Output).
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls, and the bidirectional controls that can
 * make text read in another order than it is stored (U+061C, U+200E/F, U+202A–202E, U+2066–2069).
 */
export const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What JSON.stringify leaves raw but a terminal or a line-based reader would act on. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every terminal-unsafe character replaced by U+FFFD. */
export function cleanForTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, "\ufffd");
}

/**
 * JSON text with DEL, C1, bidirectional controls and the line separators escaped as \uXXXX.
 * Outside strings JSON holds only ASCII, so this only touches string contents: same values.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A value as a JSON document for stdout: indented, controls escaped, one trailing newline. */
export function jsonDocument(value: unknown): string {
  return `${escapeJsonControls(JSON.stringify(value, null, 2))}\n`;
}

/** A value as one line of JSON Lines (as `intake apply` reads them), no trailing newline. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value);
}

/** A text from outside quoted for a message, its quotes and controls escaped: `"not a url\n"`. */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

/** A JSON body as received, for --json: the same bytes except escaped controls, and a trailing newline. */
export function jsonBody(raw: string): string {
  const escaped = escapeJsonControls(raw);
  return escaped.endsWith("\n") ? escaped : `${escaped}\n`;
}

/**
 * A parsed JSON value with every terminal-unsafe character in its strings and keys replaced by
 * U+FFFD. Iterative, so a 20,000-deep array cannot overflow the stack.
 */
export function cleanParsedValue(value: unknown): unknown {
  if (typeof value === "string") return cleanForTerminal(value);
  if (value === null || typeof value !== "object") return value;
  const root: { value: unknown } = { value: undefined };
  const stack: Array<{ source: unknown; assign: (clean: unknown) => void }> = [{ source: value, assign: (clean) => (root.value = clean) }];
  for (let job = stack.pop(); job !== undefined; job = stack.pop()) {
    const { source, assign } = job;
    if (typeof source === "string") assign(cleanForTerminal(source));
    else if (Array.isArray(source)) {
      const copy: unknown[] = new Array<unknown>(source.length);
      assign(copy);
      source.forEach((entry, index) => stack.push({ source: entry, assign: (clean) => (copy[index] = clean) }));
    } else if (source !== null && typeof source === "object") {
      const copy: Record<string, unknown> = {};
      assign(copy);
      for (const [key, entry] of Object.entries(source)) {
        const cleanKey = cleanForTerminal(key);
        // Defined, not assigned: a "__proto__" key stays a plain property; defined now, the keys keep their order.
        const define = (clean: unknown) =>
          Object.defineProperty(copy, cleanKey, { value: clean, enumerable: true, writable: true, configurable: true });
        define(undefined);
        stack.push({ source: entry, assign: define });
      }
    } else assign(source);
  }
  return root.value;
}

/** A word as a shell reads it back: as it is when it holds nothing the shell treats specially, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
