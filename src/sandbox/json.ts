/**
 * The sandbox's JSON body parser: JSON.parse (which keeps `__proto__` and `constructor` as plain
 * own keys, so the checks after it can name them), then a refusal of duplicate keys, which
 * JSON.parse would silently resolve to the last one. Iterative: deep nesting cannot overflow.
 */
import { badRequest } from "./errors.js";

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

/** Parses a JSON request body; throws the sandbox's 400 for invalid JSON or a duplicate key. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") throw badRequest("the request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("the request body is not valid JSON");
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== null) throw badRequest(`the request body gives the key ${JSON.stringify(duplicate)} twice in one object`);
  return value;
}
