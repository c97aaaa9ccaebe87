/** Strict reading of ids, query strings and JSON bodies: anything unexpected is a 400. */
import type { FastifyRequest } from "fastify";
import { isPlainRecord, parseApiDateTime, parsePositiveId } from "../intake/index.js";
import { badQuery, badRequest, unsupportedMedia } from "./errors.js";
import { zonedInstant } from "./zones.js";

/** Accepted on every endpoint and ignored, as the public service documents it (docs/api.md). */
export const IGNORED_QUERY = ["language"] as const;

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
    const ignored = (IGNORED_QUERY as readonly string[]).includes(name);
    if (!allowed.includes(name) && !ignored) {
      throw badQuery(`unknown query parameter "${name}" (allowed: ${[...allowed, ...IGNORED_QUERY].join(", ")})`);
    }
    if (typeof value !== "string") throw badQuery(`query parameter ${name} is given more than once`);
    if (!ignored) values[name] = value;
  }
  return values;
}

/** The JSON object body of a POST, with only the allowed top-level keys. */
export function readJsonBody(request: FastifyRequest, allowed: readonly string[]): Record<string, unknown> {
  if (request.isMultipart()) throw unsupportedMedia("send the request body as application/json");
  const body: unknown = request.body;
  if (body === undefined || body === null) throw badRequest("the request body is missing; send a JSON object");
  if (!isPlainRecord(body)) throw badRequest(`the request body must be a JSON object, not ${describeValue(body)}`);
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`unknown field "${key}" in the request body (allowed: ${allowed.join(", ")})`);
  }
  return body;
}

/** `imageId` of a JSON body: a positive safe integer (malformed: the image id rule, not the body's shape). */
export function readBodyImageId(body: Record<string, unknown>): number {
  const value = body.imageId;
  if (value === undefined) throw badRequest("imageId is required");
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw badQuery(`imageId must be a positive integer, not ${describeValue(value)}`);
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
