/**
 * Fields given on the command line as `key=value`, assembled into one JSON object the way
 * `gh api` does: `key[sub]=value` nests, `key[]=value` appends to a list, `key[]` alone is an
 * empty list; the brackets may repeat (`a[b][c]=1`, `a[b][]=1`). A bad key, or a key used both
 * as a value and as an object or list, is a usage error naming the flag. Pure.
 */
import { usageError } from "./errors.js";

export type FieldValue = string | number | boolean | null;
export type FieldNode = FieldValue | FieldNode[] | FieldObject;
export interface FieldObject {
  [key: string]: FieldNode;
}

/** `name`, then any `[sub]` segments, the last of which may be `[]`. */
const FIELD_KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/** A new object for fields: without a prototype, so `__proto__` is a key like any other. */
export function fieldObject(): FieldObject {
  return Object.create(null) as FieldObject;
}

/** The key's path (`quantity[1]` → quantity, 1) and whether it ends in `[]` (a list). */
export function parseFieldKey(key: string, flag: string): { path: string[]; list: boolean } {
  const match = FIELD_KEY.exec(key);
  const segments = match ? [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((found) => found[1]!) : [];
  const list = segments.at(-1) === "";
  if (list) segments.pop();
  if (!match || segments.includes(""))
    throw usageError(`${flag}: "${key}" is not a field name: write key, key[sub] or key[] (a list)`, {
      hint: "nothing was sent; brackets nest a field (quantity[1]=150), [] comes last and appends to a list",
    });
  return { path: [match[1]!, ...segments], list };
}

function isObject(node: FieldNode | undefined): node is FieldObject {
  return typeof node === "object" && node !== null && !Array.isArray(node);
}

const named = (path: readonly string[]) =>
  `${path[0]}${path
    .slice(1)
    .map((segment) => `[${segment}]`)
    .join("")}`;
const kindOf = (node: FieldNode) => (Array.isArray(node) ? "a list" : isObject(node) ? "an object" : "a value");

/**
 * Puts one field into `body`: `value` at the key's place, appended when the key ends in `[]`
 * (`undefined` there: the list, empty if nothing else is appended).
 */
export function addField(body: FieldObject, key: string, value: FieldValue | undefined, flag: string): void {
  const { path, list } = parseFieldKey(key, flag);
  if (value === undefined && !list) throw usageError(`${flag} takes key=value, got "${key}"`);
  const both = (where: readonly string[], was: FieldNode, now: string) =>
    usageError(`${flag}: "${named(where)}" is given both as ${kindOf(was)} and as ${now}`, {
      hint: "nothing was sent; a field is one value, one list (key[]=…) or one object (key[sub]=…)",
    });
  let parent = body;
  for (const [depth, segment] of path.slice(0, -1).entries()) {
    const node = parent[segment];
    if (node !== undefined && !isObject(node)) throw both(path.slice(0, depth + 1), node, "an object");
    parent = node ?? (parent[segment] = fieldObject());
  }
  const leaf = path.at(-1)!;
  const existing = parent[leaf];
  const want = list ? "a list" : "a value";
  if (existing !== undefined && (!list || !Array.isArray(existing))) {
    if (kindOf(existing) === want)
      throw usageError(`${flag}: the field "${named(path)}" is given twice`, { hint: `write ${named(path)}[]=… for a list` });
    throw both(path, existing, want);
  }
  if (!list) parent[leaf] = value!;
  else parent[leaf] = value === undefined ? (existing ?? []) : [...(existing ?? []), value];
}

/** The fields as query parameters: nested keys in brackets (`quantity[1]`), a list repeats its key, null is empty. */
export function queryParameters(body: FieldObject, prefix?: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, node] of Object.entries(body)) {
    const name = prefix === undefined ? key : `${prefix}[${key}]`;
    if (isObject(node)) pairs.push(...queryParameters(node, name));
    else for (const item of Array.isArray(node) ? node : [node]) pairs.push([name, item === null ? "" : String(item)]);
  }
  return pairs;
}
