/** Strict reading of ids, query strings and JSON bodies: anything unexpected is a 400. */
import type { FastifyRequest } from "fastify";
import { isPlainRecord, parseApiDateTime, parsePositiveId } from "../intake/index.js";
import { isLanguageCode, languageProblem, type LanguageCode } from "../records/languages.js";
import { badQuery, badRequest, unsupportedMedia } from "./errors.js";
import { zonedInstant } from "../intake/zones.js";

/** Accepted on every endpoint: the language answers name dishes in (docs/api.md, language), read by readLanguage. */
export const ANY_ROUTE_QUERY = ["language"] as const;

export function describeValue(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

export function readImageIdParam(params: unknown): number {
  const text = (params as { image_id?: unknown } | undefined)?.image_id;
  const id = typeof text === "string" ? parsePositiveId(text) : null;
  if (id === null) throw badQuery(`image id ${describeValue(text)} is not a valid id (a positive integer)`);
  return id;
}

export type QueryValues = Record<string, string>;

/** The query string with only the allowed names (and `language`), each given at most once. */
export function readQuery(request: FastifyRequest, allowed: readonly string[]): QueryValues {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const values: QueryValues = {};
  for (const [name, value] of Object.entries(query)) {
    const shared = (ANY_ROUTE_QUERY as readonly string[]).includes(name);
    if (!allowed.includes(name) && !shared) {
      throw badQuery(`unknown query parameter "${name}" (allowed: ${[...allowed, ...ANY_ROUTE_QUERY].join(", ")})`);
    }
    if (typeof value !== "string") throw badQuery(`query parameter ${name} is given more than once`);
    const wrongLanguage = name === "language" ? languageProblem(value) : null;
    if (wrongLanguage !== null) throw badQuery(`language ${wrongLanguage}`);
    if (!shared) values[name] = value;
  }
  return values;
}

/** The `language` query parameter when it names one of the service's languages, else the user's own. */
export function readLanguage(request: FastifyRequest, fallback: LanguageCode): LanguageCode {
  const value = (request.query as Record<string, unknown> | undefined)?.language;
  return typeof value === "string" && isLanguageCode(value) ? value : fallback;
}

/** What a route does with body fields it does not use (docs/api.md, bodies). */
export interface BodyPolicy {
  /** `--strict`: refuse them, and a string `imageId`, as a check of the client. */
  strict: boolean;
  /** Told what was accepted although unused or loosely written, for the sandbox's log. */
  note(message: string): void;
}

/** Keys that name an object's machinery rather than a field: refused by name, strict or not. */
const MACHINERY_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The JSON object body of a POST, with the fields the route uses. Other fields are left out and
 * noted, as the public service ignores them; with `--strict` they are a 400.
 */
export function readJsonBody(request: FastifyRequest, used: readonly string[], policy: BodyPolicy): Record<string, unknown> {
  if (request.isMultipart()) throw unsupportedMedia("send the request body as application/json");
  const body: unknown = request.body;
  if (body === undefined || body === null) throw badRequest("the request body is missing; send a JSON object");
  if (!isPlainRecord(body)) throw badRequest(`the request body must be a JSON object, not ${describeValue(body)}`);
  const unused = Object.keys(body).filter((key) => !used.includes(key));
  const refused = policy.strict ? unused[0] : unused.find((key) => MACHINERY_KEYS.has(key));
  if (refused !== undefined) {
    const strict = policy.strict && !MACHINERY_KEYS.has(refused) ? "; this sandbox runs with --strict" : "";
    throw badRequest(`unknown field "${refused}" in the request body (allowed: ${used.join(", ")}${strict})`);
  }
  if (unused.length === 0) return body;
  policy.note(`ignored body fields this route does not use: ${unused.join(", ")} (--strict refuses them)`);
  return Object.fromEntries(Object.entries(body).filter(([key]) => used.includes(key)));
}

/**
 * `imageId` of a JSON body: a positive safe integer, or a string of one as public clients send it
 * (noted; refused with `--strict`). Malformed: the image id rule, not the body's shape.
 */
export function readBodyImageId(body: Record<string, unknown>, policy: BodyPolicy): number {
  const value = body.imageId;
  if (value === undefined) throw badRequest("imageId is required");
  if (typeof value === "string" && !policy.strict) {
    const id = parsePositiveId(value);
    if (id === null) throw badQuery(`imageId must be a positive integer or a string of its digits, not ${describeValue(value)}`);
    policy.note(`imageId given as the string ${describeValue(value)}, read as ${id} (--strict refuses it)`);
    return id;
  }
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    const strict = policy.strict && typeof value === "string" ? " (this sandbox runs with --strict: send a number)" : "";
    throw badQuery(`imageId must be a positive integer, not ${describeValue(value)}${strict}`);
  }
  return value;
}

/**
 * A required history date `YYYY/MM/DD, HH:MM:SS`, a wall-clock time in the user's zone, as
 * epoch milliseconds (docs/api.md, the history list).
 */
export function readHistoryDate(text: string | undefined, name: string, zone: string, end: "start" | "end"): number {
  const example = "2026/11/03, 08:00:00 (YYYY/MM/DD, HH:MM:SS)";
  if (text === undefined) throw badQuery(`${name} is required: the history is read between two dates, e.g. ${example}`);
  const date = parseApiDateTime(text);
  if (date === null) throw badQuery(`${name} must look like ${example}, not "${text}"`);
  return zonedInstant(zone, date.getTime(), end);
}
