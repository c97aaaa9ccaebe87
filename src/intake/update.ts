import { checkRecord, type RecordProblem, type Validator } from "../records/check.js";
import * as validators from "../records/validators/update.js";
import type { RecordKind } from "./kinds.js";
import { didYouMean } from "./closest.js";
import { MIXED_POSITIONS, notAPosition, parsePositionKey, type PositionKind } from "./positions.js";
import { quantityProblem } from "./quantity.js";
import { isPlainRecord } from "./records.js";
import { type IntakeKind, LEVELS, MEASURES } from "../records/fields.js";

/**
 * The optional fields of the update operation (POST /v2/nutrition/confirm/quantity).
 * Recognition-only: quantity is a number, salt and sugar are levels.
 * Itemized: every field is an object keyed by position.
 */
export const UPDATE_FIELDS = ["quantity", "salt", "sugar", "oil", "measures"] as const;
export type UpdateShape = "recognition" | "itemized" | "empty";

/** Which rule a problem breaks: the sandbox answers each with its own service code. */
export type UpdateRule = "shape" | "quantity" | "level" | "position";

export interface UpdateProblem {
  field: string;
  rule: UpdateRule;
  message: string;
  hint?: string;
}

export interface ShapeOptions {
  /** The sandbox accepts only metric and imperial; the CLI lets the server judge other names. */
  strictMeasures: boolean;
}

/** Why only two measures are known (docs/api.md, levels and measures). */
export const UNPUBLISHED_MEASURES = "the service also has cooking measures and portions, but has not published their names";

const KIND_ARTICLES: Record<IntakeKind, string> = { recognition: "a recognition-only", segmentation: "a segmentation", manual: "a manual" };

/** Picks the update fields out of a body; everything else is left to the caller. */
export function pickUpdateFields(body: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of UPDATE_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  return fields;
}

function firstPositionKind(fields: Record<string, unknown>): PositionKind | undefined {
  for (const byPosition of Object.values(fields)) {
    for (const key of Object.keys(byPosition as Record<string, unknown>)) {
      const position = parsePositionKey(key);
      if (position) return position.kind;
    }
  }
  return undefined;
}

/** The compiled definition the fields must fit: by shape, by the form of their first well-formed position, and by how measures are judged. */
function validatorFor(fields: Record<string, unknown>, shape: "recognition" | "itemized", options: ShapeOptions): Validator<unknown> {
  if (shape === "recognition") return validators.RecognitionUpdate;
  const manual = firstPositionKind(fields) === "manual";
  if (options.strictMeasures) return manual ? validators.ManualUpdate : validators.SegmentationUpdate;
  return manual ? validators.ClientManualUpdate : validators.ClientSegmentationUpdate;
}

/** A problem of the update definition, in the words of the update rules, with the rule it breaks. */
function updateProblem({ path, rule, value }: RecordProblem, shape: "recognition" | "itemized"): UpdateProblem {
  const [name = "", key] = path;
  const field = path.join(".");
  if (rule === "additionalProperties") {
    return { field, rule: "shape", message: `${name} applies only to itemized intakes, as an object keyed by position` };
  }
  if (key !== undefined && rule === "pattern") {
    if (!parsePositionKey(key)) return { field, rule: "position", message: notAPosition(key) };
    return { field, rule: "position", message: MIXED_POSITIONS.message(key), hint: MIXED_POSITIONS.hint };
  }
  const where = key === undefined ? name : `${name} of position ${key}`;
  if (name === "quantity") {
    const message = quantityProblem(value, where, shape === "recognition") ?? `${where} is not a quantity the API takes`;
    return { field, rule: "quantity", message };
  }
  const near = (suggestion: string | undefined) => (suggestion ? `; ${suggestion}` : "");
  if (name === "measures") {
    const suggestion = typeof value === "string" ? didYouMean(value, MEASURES) : undefined;
    return {
      field,
      rule: "level",
      message: `${where} must be ${MEASURES.join(" or ")}${got(value)}${near(suggestion)}: ${UNPUBLISHED_MEASURES}`,
    };
  }
  const level = levelProblem(where, value);
  return { field, rule: "level", message: `${level.message}${near(level.suggestion)}` };
}

/** What was given, as a problem quotes it. */
const got = (value: unknown) =>
  typeof value === "string"
    ? `, got ${JSON.stringify(value)}`
    : value === undefined
      ? ""
      : `, got ${JSON.stringify(value) ?? String(value)}`;

/**
 * The one wording of a value that is not a level, for a field (`salt of position 1`) or a flag
 * (`--salt`): the levels, what was given, and the near miss when there is one.
 */
export function levelProblem(where: string, value: unknown): { message: string; suggestion: string | undefined } {
  const suggestion = typeof value === "string" ? didYouMean(value, LEVELS) : undefined;
  return { message: `${where} must be one of ${LEVELS.join(", ")}${got(value)}`, suggestion };
}

/**
 * Checks the update fields on their own, before the intake is known, against the update's
 * definition (src/records/update.ts): each value's type, levels, quantities and position keys.
 * Returns the shape the fields describe.
 */
export function validateUpdateShape(
  fields: Record<string, unknown>,
  options: ShapeOptions,
): { shape: UpdateShape; problems: UpdateProblem[] } {
  const given = pickUpdateFields(fields);
  const present = Object.keys(given);
  if (present.length === 0) return { shape: "empty", problems: [] };

  const itemized = present.filter((name) => isPlainRecord(given[name]));
  const flat = present.filter((name) => !isPlainRecord(given[name]));
  if (itemized.length > 0 && flat.length > 0) {
    const problem: UpdateProblem = {
      field: flat[0]!,
      rule: "shape",
      message: `${flat[0]} must be an object keyed by position like ${itemized[0]}, or all fields must be plain values for a recognition-only intake`,
    };
    return { shape: itemized.length >= flat.length ? "itemized" : "recognition", problems: [problem] };
  }
  const shape = flat.length > 0 ? "recognition" : "itemized";
  const checked = checkRecord(validatorFor(given, shape, options), given);
  if (checked.valid) return { shape, problems: [] };
  // In the fields' order (a key not allowed is met before the fields' values).
  const order = (problem: RecordProblem) => UPDATE_FIELDS.indexOf(problem.path[0] as (typeof UPDATE_FIELDS)[number]);
  const problems = checked.problems.sort((a, b) => order(a) - order(b)).map((problem) => updateProblem(problem, shape));
  return { shape, problems };
}

/** The shape of update fields that passed validateUpdateShape already: read, not checked again. */
export function updateShape(fields: Record<string, unknown>): UpdateShape {
  const values = Object.values(pickUpdateFields(fields));
  return values.length === 0 ? "empty" : values.some(isPlainRecord) ? "itemized" : "recognition";
}

/**
 * Checks well-shaped update fields against the intake they target: the shape must fit the
 * intake's kind and every position must exist in it (docs/api.md, update rule 1: an unknown position changes nothing).
 */
export function checkUpdateAgainstIntake(
  fields: Record<string, unknown>,
  shape: UpdateShape,
  kind: RecordKind,
  positions: readonly string[],
): UpdateProblem[] {
  if (shape === "empty") return [];
  // Name the first field the caller actually gave, not always quantity.
  const given = UPDATE_FIELDS.find((name) => fields[name] !== undefined) ?? "quantity";
  const shapeProblem = (message: string): UpdateProblem[] => [{ field: given, rule: "shape", message }];
  if (shape === "recognition" && kind === "unknown") {
    return shapeProblem(
      "the record does not tell whether this intake is recognition-only or itemized (not confirmed yet: no recipe, no per-item nutrition), " +
        `so a whole-intake ${given} is not guessed; give values per position (e.g. 1=${given === "quantity" ? "150" : "low"})`,
    );
  }
  if (shape === "recognition" && kind !== "recognition" && kind !== "unknown") {
    const example = `${positions[0] ?? "1"}=${given === "quantity" ? "150" : "low"}`;
    const lead = given === "quantity" ? "" : `${given} is one value, but `;
    return shapeProblem(`${lead}intake is ${KIND_ARTICLES[kind]} intake: give values per position (e.g. ${example})`);
  }
  if (shape === "itemized" && kind === "recognition") {
    const what = given === "quantity" ? "one total quantity" : `one ${given} level for the whole intake`;
    return shapeProblem(`${given} is given per position, but intake is recognition-only: give ${what}`);
  }
  const problems: UpdateProblem[] = [];
  // A record that lists no items cannot judge positions: the server does (docs/api.md, update rule 1).
  if (shape === "itemized" && positions.length > 0) {
    const known = new Set(positions);
    for (const name of UPDATE_FIELDS) {
      const value = fields[name];
      if (!isPlainRecord(value)) continue;
      for (const key of Object.keys(value)) {
        if (!known.has(key)) {
          problems.push({
            field: `${name}.${key}`,
            rule: "position",
            message: `unknown position ${key} (this intake has ${positions.join(", ") || "no items"})`,
          });
        }
      }
    }
  }
  return problems;
}
