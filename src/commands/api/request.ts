/**
 * `foodctl api`: what the command line asks for, read into one request (path, method, fields,
 * headers), each problem a usage error (exit 2) before anything is sent. Pure: files and stdin
 * are read by the caller, through `readValue`.
 */
import { API_PREFIX } from "../../records/routes.js";
import { usageError } from "../../errors.js";
import { addField, fieldObject, queryParameters, type FieldObject, type FieldValue } from "../../jsonFields.js";

export type { FieldValue };

export interface ApiRequestInput {
  path: string;
  method: string | undefined;
  /** `-F key=value`: typed. */
  fields: string[];
  /** `-f key=value`: strings. */
  rawFields: string[];
  headers: string[];
  /** `--input`: the body's file, or `-` for stdin. */
  input: string | undefined;
}

export interface ApiRequest {
  method: string;
  /** Under the API's root, with the `/v2` prefix and any query the path had: `/v2/intake/1002`. */
  path: string;
  /** In the order given, assembled as gh api does: `key[sub]` nests, `key[]` is a list (src/jsonFields.ts). */
  fields: FieldObject;
  /** Lower-case names. */
  headers: Record<string, string>;
}

/** Set by foodctl on every request: the token comes from the profile or FOODCTL_TOKEN, and the length from the body. */
const RESERVED_HEADERS = new Set(["authorization", "host", "content-length", "transfer-encoding", "connection"]);
/** RFC 9110's token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** JSON's number grammar: `007` and `1.` stay text. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * `intake/1002`, `/intake/1002`, `v2/intake/1002` or a full URL on the API's own origin, as the
 * path under the API's root; a URL elsewhere is refused (the token goes only to the API).
 */
export function apiPath(text: string, base: URL): string {
  let path = text.trim();
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      throw usageError(`"${text}" is not a URL or a path under the API`);
    }
    if (url.origin !== base.origin)
      throw usageError(`${url.origin} is not the API's origin (${base.origin}): foodctl api sends the token only to the API`, {
        hint: "give a path under the API (intake/1002), or point --api-url at that API",
      });
    const prefix = base.pathname.replace(/\/$/, "");
    path = `${url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname}${url.search}`;
  }
  path = path.replace(/^\/+/, "");
  if (path === API_PREFIX.slice(1) || path.startsWith(`${API_PREFIX.slice(1)}/`) || path.startsWith(`${API_PREFIX.slice(1)}?`))
    path = path.slice(API_PREFIX.length);
  path = path.replace(/^\/+/, "");
  if (path === "" || path.startsWith("?")) throw usageError(`"${text}" names no endpoint: give a path such as intake/1002`);
  if (/[\s#]/.test(path)) throw usageError(`"${text}" is not a path: it holds a space, a line break or a #`);
  // Dot segments (also %2e-encoded) would climb out of the API's root, to other paths of its host or gateway.
  if (
    path
      .split("?")[0]!
      .split("/")
      .some((segment) => /^(\.|%2e){1,2}$/i.test(segment))
  )
    throw usageError(`"${text}" climbs out of the API (a "." or ".." segment): give a path under ${API_PREFIX}/`);
  return `${API_PREFIX}/${path}`;
}

/** `true`, `false`, `null` and JSON numbers as themselves; anything else as text. */
export function typedValue(text: string): FieldValue {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  if (JSON_NUMBER.test(text)) {
    const number = Number(text);
    // A whole number past 2^53 would change on the way: it stays text.
    if (Number.isFinite(number) && (!Number.isInteger(number) || Number.isSafeInteger(number))) return number;
  }
  return text;
}

/** `key=value`, or `key[]` alone: an empty list. */
function splitField(flag: string, text: string): [string, string | undefined] {
  const at = text.indexOf("=");
  if (at === -1 && text.endsWith("[]")) return [text, undefined];
  if (at <= 0) throw usageError(`${flag} takes key=value, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

function header(text: string): [string, string] {
  const at = text.indexOf(":");
  const name = text.slice(0, at).trim();
  if (at <= 0 || !HEADER_NAME.test(name)) throw usageError(`-H takes 'Name: value', got "${text}"`);
  const value = text.slice(at + 1).trim();
  if (/[\r\n\0]/.test(value)) throw usageError(`-H ${name}: a header value cannot hold a line break`);
  if (RESERVED_HEADERS.has(name.toLowerCase()))
    throw usageError(`-H ${name}: foodctl sets this header itself`, {
      hint: name.toLowerCase() === "authorization" ? "the token comes from FOODCTL_TOKEN or the profile (`foodctl auth login`)" : undefined,
    });
  return [name.toLowerCase(), value];
}

/**
 * The request the command line asks for. `readValue` reads a `-F key=@file` value (`@-`: stdin);
 * the caller makes sure stdin is read once.
 */
export async function readApiRequest(
  input: ApiRequestInput,
  base: URL,
  readValue: (source: string) => Promise<string>,
): Promise<ApiRequest> {
  const path = apiPath(input.path, base);
  let method = "GET";
  if (input.method !== undefined) {
    method = input.method.toUpperCase();
    if (!/^[A-Z]+$/.test(method)) throw usageError(`--method must be an HTTP method such as GET or POST, got "${input.method}"`);
  } else if (input.fields.length || input.rawFields.length || input.input !== undefined) method = "POST";
  const fields = fieldObject();
  for (const text of input.fields) {
    const [key, value] = splitField("-F", text);
    const typed = value === undefined ? undefined : value.startsWith("@") ? await readValue(value.slice(1)) : typedValue(value);
    addField(fields, key, typed, "-F");
  }
  for (const text of input.rawFields) {
    const [key, value] = splitField("-f", text);
    addField(fields, key, value, "-f");
  }
  const headers: Record<string, string> = {};
  for (const text of input.headers) {
    const [name, value] = header(text);
    headers[name] = value;
  }
  return { method, path, fields, headers };
}

/** Fields in the query of a GET (or beside an --input body): nested keys in brackets, lists repeat their key, null is empty. */
export function addQueryFields(url: URL, fields: ApiRequest["fields"]): void {
  for (const [key, value] of queryParameters(fields)) url.searchParams.append(key, value);
}
