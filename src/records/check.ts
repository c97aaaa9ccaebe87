/**
 * The one place a record is checked at run time: with its validator, compiled from the record's
 * zod schema into ./validators/ (scripts/records.mjs). A refusal is read from the validator's
 * errors: where each wrong value is, what it must be and what it is.
 */
import { descriptions, requiredTypes } from "./validators/places.js";

/** An error a compiled validator leaves on itself (ajv's, without its message). */
export interface ValidationError {
  /** JSON Pointer of the value in the checked data. */
  instancePath: string;
  /** JSON Pointer of the failing rule in its schema ("#/properties/user/type"). */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  /** A key of the wrong form (a `propertyNames` rule). */
  propertyName?: string;
}

/** A validator compiled from a record's schema: true for data the schema accepts. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ValidationError[] | null;
}

export interface RecordProblem {
  /** Keys from the record's root to the wrong value (or the wrong or missing key). */
  path: string[];
  /** The rule broken: a JSON Schema keyword (type, enum, minimum, required, additionalProperties: a key not allowed, pattern: a key of the wrong form…). */
  rule: string;
  /** What the value must be, in words: its place's description in the schema, or its rule's. */
  expected: string;
  /** The value there (the key itself for a wrong key; undefined when missing). */
  value: unknown;
  /** Set when the problem is the key itself (the last of `path`): not allowed, or of the wrong form. */
  wrongKey?: boolean;
}

export type Checked<T> = { valid: true; data: T } | { valid: false; problems: RecordProblem[] };

const TYPE_WORDS: Record<string, string> = {
  object: "a JSON object",
  array: "a JSON array",
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "null",
};

const typeWords = (types: unknown): string =>
  [types]
    .flat()
    .map((type) => TYPE_WORDS[String(type)] ?? String(type))
    .join(" or ");

/** A value's JSON type in words, never the value itself (it may be a token). */
export function receivedWords(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value === "boolean" ? "true or false" : `a ${typeof value}`;
}

function ruleWords(keyword: string, params: Record<string, unknown>): string {
  if (keyword === "type") return typeWords(params.type);
  if (keyword === "enum") return `one of ${(params.allowedValues as unknown[]).join(", ")}`;
  if (keyword === "minimum") return `at least ${String(params.limit)}`;
  if (keyword === "maximum") return `at most ${String(params.limit)}`;
  if (keyword === "exclusiveMinimum") return `more than ${String(params.limit)}`;
  if (keyword === "exclusiveMaximum") return `less than ${String(params.limit)}`;
  if (keyword === "pattern") return `text matching ${String(params.pattern)}`;
  if (keyword === "additionalProperties") return "none of its keys";
  return `a value its ${keyword} rule accepts`;
}

const pathOf = (pointer: string): string[] =>
  pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));

function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** The schema path of the part a rule belongs to: "#/properties/user" for "#/properties/user/type" (a union's branch counts as the part). */
const partOf = (schemaPath: string): string => schemaPath.replace(/\/[^/]+$/, "").replace(/\/anyOf\/\d+$/, "");

function problemOf(error: ValidationError, data: unknown): RecordProblem {
  const path = pathOf(error.instancePath);
  const { keyword, params } = error;
  const part = partOf(error.schemaPath);
  if (keyword === "required") {
    const key = String(params.missingProperty);
    const place = `${part}/properties/${key}`;
    return {
      path: [...path, key],
      rule: keyword,
      expected: descriptions[place] ?? typeWords(requiredTypes[place] ?? "a value"),
      value: undefined,
    };
  }
  if (error.propertyName !== undefined || keyword === "additionalProperties") {
    const key = error.propertyName ?? String(params.additionalProperty);
    const expected = keyword === "additionalProperties" ? "not a key here" : (descriptions[part] ?? ruleWords(keyword, params));
    return { path: [...path, key], rule: keyword, expected, value: key, wrongKey: true };
  }
  return { path, rule: keyword, expected: descriptions[part] ?? ruleWords(keyword, params), value: valueAt(data, path) };
}

/**
 * The data as its type when the validator accepts it; else every problem, one per place, in the
 * schema's order. A value no branch of a union accepts is one problem naming every branch's type.
 */
export function checkRecord<T>(validate: Validator<T>, data: unknown): Checked<T> {
  if (validate(data)) return { valid: true, data };
  const problems = new Map<string, RecordProblem>();
  for (const error of validate.errors ?? []) {
    // A union's and a key rule's own errors only sum up those of their parts, met before them.
    if (error.keyword === "anyOf" || error.keyword === "propertyNames") continue;
    const problem = problemOf(error, data);
    const place = JSON.stringify(problem.path);
    const earlier = problems.get(place);
    if (!earlier) problems.set(place, problem);
    else if (earlier.rule === "type" && problem.rule === "type" && !earlier.expected.includes(problem.expected))
      earlier.expected += ` or ${problem.expected}`;
  }
  return { valid: false, problems: [...problems.values()] };
}

/** A problem in one line: `intake_info.image_id: expected a number, received a string`. */
export function describeProblem(problem: RecordProblem): string {
  const where = problem.path.length > 0 ? problem.path.join(".") : "the whole record";
  if (problem.rule === "additionalProperties") return `${where}: not a known key`;
  if (problem.wrongKey) return `${where}: a key must be ${problem.expected}`;
  return `${where}: expected ${problem.expected}, received ${receivedWords(problem.value)}`;
}
