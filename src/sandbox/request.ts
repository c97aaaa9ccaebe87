/** Strict reading of ids, query strings and JSON bodies: anything unexpected is a 400. */
import type { FastifyRequest } from "fastify";
import { badRequest, unsupportedMedia } from "./errors.js";

const ID_TEXT = /^[1-9][0-9]{0,15}$/;

function describe(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** An id written in a path or query: a positive decimal integer without sign, zeros or exponent. */
export function parseIdText(text: string): number | null {
  if (!ID_TEXT.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

export function readImageIdParam(params: unknown): number {
  const text = (params as { image_id?: unknown } | undefined)?.image_id;
  const id = typeof text === "string" ? parseIdText(text) : null;
  if (id === null) throw badRequest(`image id ${describe(text)} is not a valid id (a positive integer)`);
  return id;
}

export type QueryValues = Record<string, string>;

/** The query string with only the allowed names, each given at most once. */
export function readQuery(request: FastifyRequest, allowed: readonly string[]): QueryValues {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const values: QueryValues = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) {
      throw badRequest(`unknown query parameter "${name}" (allowed: ${allowed.join(", ")})`);
    }
    if (typeof value !== "string") throw badRequest(`query parameter ${name} is given more than once`);
    values[name] = value;
  }
  return values;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON object body of a POST, with only the allowed top-level keys. */
export function readJsonBody(request: FastifyRequest, allowed: readonly string[]): Record<string, unknown> {
  if (request.isMultipart()) throw unsupportedMedia("send the request body as application/json");
  const body: unknown = request.body;
  if (body === undefined || body === null) throw badRequest("the request body is missing; send a JSON object");
  if (!isPlainObject(body)) throw badRequest(`the request body must be a JSON object, not ${describe(body)}`);
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`unknown field "${key}" in the request body (allowed: ${allowed.join(", ")})`);
  }
  return body;
}

/** `imageId` of a JSON body: a positive safe integer. */
export function readBodyImageId(body: Record<string, unknown>): number {
  const value = body.imageId;
  if (value === undefined) throw badRequest("imageId is required");
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw badRequest(`imageId must be a positive integer, not ${describe(value)}`);
  }
  return value;
}

const HISTORY_DATE = /^(\d{4})\/(\d{2})\/(\d{2}), (\d{2}):(\d{2}):(\d{2})$/;

/** A history date `YYYY/MM/DD, HH:MM:SS` (UTC) as epoch milliseconds; null when malformed. */
export function parseHistoryDate(text: string): number | null {
  const match = HISTORY_DATE.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(time);
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return exact ? time : null;
}

export { describe as describeValue };
