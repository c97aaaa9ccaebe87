import type { IntakeKind, RecordKind } from "./kinds.js";
import { isLevel, isMeasure, LEVELS, MEASURES } from "./levels.js";
import { parsePositionKey } from "./positions.js";
import { quantityProblem } from "./quantity.js";
import { isPlainRecord } from "./records.js";

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
}

export interface ShapeOptions {
  /** The sandbox accepts only metric and imperial; the CLI lets the server judge other names. */
  strictMeasures: boolean;
}

const KIND_ARTICLES: Record<IntakeKind, string> = { recognition: "a recognition-only", segmentation: "a segmentation", manual: "a manual" };

/** Picks the update fields out of a body; everything else is left to the caller. */
export function pickUpdateFields(body: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of UPDATE_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  return fields;
}

function checkFlatField(name: string, value: unknown): UpdateProblem[] {
  if (name === "quantity") {
    const problem = quantityProblem(value, "quantity", true);
    return problem ? [{ field: "quantity", rule: "quantity", message: problem }] : [];
  }
  if (name === "salt" || name === "sugar") {
    return isLevel(value) ? [] : [{ field: name, rule: "level", message: `${name} must be one of ${LEVELS.join(", ")}` }];
  }
  return [{ field: name, rule: "shape", message: `${name} applies only to itemized intakes, as an object keyed by position` }];
}

function checkItemValue(name: string, key: string, value: unknown, options: ShapeOptions): UpdateProblem | null {
  if (name === "quantity") {
    const problem = quantityProblem(value, `quantity of position ${key}`, false);
    return problem ? { field: `quantity.${key}`, rule: "quantity", message: problem } : null;
  }
  if (name === "measures") {
    const valid = options.strictMeasures ? isMeasure(value) : typeof value === "string" && value.trim() !== "";
    return valid
      ? null
      : { field: `measures.${key}`, rule: "level", message: `measures of position ${key} must be one of ${MEASURES.join(", ")}` };
  }
  if (isLevel(value)) return null;
  return { field: `${name}.${key}`, rule: "level", message: `${name} of position ${key} must be one of ${LEVELS.join(", ")}` };
}

function checkItemizedFields(fields: Record<string, unknown>, itemized: readonly string[], options: ShapeOptions): UpdateProblem[] {
  const problems: UpdateProblem[] = [];
  let positionKind: string | null = null;
  for (const name of itemized) {
    for (const [key, value] of Object.entries(fields[name] as Record<string, unknown>)) {
      const position = parsePositionKey(key);
      if (!position) {
        problems.push({
          field: `${name}.${key}`,
          rule: "position",
          message: `"${key}" is not a food item position (1, 2, … or manual1, manual2, …)`,
        });
        continue;
      }
      if (positionKind && position.kind !== positionKind) {
        problems.push({ field: `${name}.${key}`, rule: "position", message: `positions mix segmentation and manual forms ("${key}")` });
      }
      positionKind ??= position.kind;
      const problem = checkItemValue(name, key, value, options);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

/**
 * Checks the update fields on their own, before the intake is known: each value's type,
 * levels, quantities and position keys. Returns the shape the fields describe.
 */
export function validateUpdateShape(
  fields: Record<string, unknown>,
  options: ShapeOptions,
): { shape: UpdateShape; problems: UpdateProblem[] } {
  const problems: UpdateProblem[] = [];
  const present = UPDATE_FIELDS.filter((name) => fields[name] !== undefined);
  if (present.length === 0) return { shape: "empty", problems };

  const itemized = present.filter((name) => isPlainRecord(fields[name]));
  const flat = present.filter((name) => !isPlainRecord(fields[name]));
  if (itemized.length > 0 && flat.length > 0) {
    problems.push({
      field: flat[0]!,
      rule: "shape",
      message: `${flat[0]} must be an object keyed by position like ${itemized[0]}, or all fields must be plain values for a recognition-only intake`,
    });
    return { shape: itemized.length >= flat.length ? "itemized" : "recognition", problems };
  }

  if (flat.length > 0) {
    for (const name of flat) problems.push(...checkFlatField(name, fields[name]));
    return { shape: "recognition", problems };
  }
  problems.push(...checkItemizedFields(fields, itemized, options));
  return { shape: "itemized", problems };
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
  if (shape === "recognition" && kind === "unknown") {
    return [
      {
        field: given,
        rule: "shape",
        message:
          "the record does not tell whether this intake is recognition-only or itemized (not confirmed yet: no recipe, no per-item nutrition), " +
          `so a whole-intake ${given} is not guessed; give values per position (e.g. 1=${given === "quantity" ? "150" : "low"})`,
      },
    ];
  }
  if (shape === "recognition" && kind !== "recognition" && kind !== "unknown") {
    const example = `${positions[0] ?? "1"}=${given === "quantity" ? "150" : "low"}`;
    const lead = given === "quantity" ? "" : `${given} is one value, but `;
    return [
      {
        field: given,
        rule: "shape",
        message: `${lead}intake is ${KIND_ARTICLES[kind]} intake: give values per position (e.g. ${example})`,
      },
    ];
  }
  if (shape === "itemized" && kind === "recognition") {
    const what = given === "quantity" ? "one total quantity" : `one ${given} level for the whole intake`;
    return [
      {
        field: given,
        rule: "shape",
        message: `${given} is given per position, but intake is recognition-only: give ${what}`,
      },
    ];
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
