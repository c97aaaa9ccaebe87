/**
 * What JSON.parse lets through silently, for the two readers of JSON a person writes: the
 * sandbox's request bodies and `intake apply`'s JSON Lines. A key given twice in one object
 * (JSON.parse keeps the last), and nesting deeper than any record has (the messages that quote
 * a value would overflow the stack). Both iterative or bounded: deep nesting cannot overflow.
 */

/** Index just past the string literal that starts at `start` (a `"`); the text is valid JSON. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
  return index + 1;
}

function nextNonSpace(text: string, index: number): string | undefined {
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return text[index];
}

/** The first key that appears twice in one object of a valid JSON text, or null. */
export function findDuplicateKey(text: string): string | null {
  const stack: Array<Set<string> | null> = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "{") stack.push(new Set());
    else if (char === "[") stack.push(null);
    else if (char === "}" || char === "]") stack.pop();
    else if (char === '"') {
      const end = stringEnd(text, index);
      const keys = stack.at(-1);
      if (keys && nextNonSpace(text, end) === ":") {
        const key = JSON.parse(text.slice(index, end)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
      }
      index = end;
      continue;
    }
    index += 1;
  }
  return null;
}

/** Nesting deeper than any record of the API holds: an object in an object in a list is 3. */
export const MAX_JSON_DEPTH = 32;

/** Whether a parsed JSON value nests objects and lists more than `limit` deep. */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit === 0) return true;
  return Object.values(value).some((child) => nestedDeeperThan(child, limit - 1));
}
