/** JSON Lines input: one update body per line, with image_id and an optional user_id. */
import { isPlainRecord } from "../intake/records.js";
import { findDuplicateKey, MAX_JSON_DEPTH, nestedDeeperThan } from "../json.js";
import { pickUpdateFields, validateUpdateShape, UPDATE_FIELDS } from "../intake/update.js";
import { reasonProblem } from "../journal/reason.js";
import type { BatchChange } from "./changeList.js";
import { finishInput, readLines, type BatchInput, type ReadOptions } from "./input.js";
import { showValue, type BatchProblem } from "./problems.js";

export const JSONL_KEYS = ["image_id", "user_id", ...UPDATE_FIELDS, "reason"] as const;

const unknownKeyHint: Record<string, string> = { imageId: "image_id", userId: "user_id", image: "image_id", user: "user_id" };

export function readId(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : null;
}

function describeJsonType(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
}

/** A line's reason: absent or null for none, else a string the journal can record. */
function readReason(value: unknown, fail: (field: string | null, message: string) => void): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    fail("reason", `must be a string (a ticket number or a sentence), got ${showValue(value)}`);
    return undefined;
  }
  const problem = reasonProblem(value);
  if (problem) fail("reason", problem);
  return value.trim();
}

/** One line of JSON Lines: the change it describes, or what is wrong with it. */
export function parseJsonLine(text: string, line: number): { change: BatchChange | null; problems: BatchProblem[] } {
  const problems: BatchProblem[] = [];
  const fail = (field: string | null, message: string) => problems.push({ line, field, message });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(null, `not valid JSON (${(error as Error).message})`);
    return { change: null, problems };
  }
  // JSON.parse keeps the last of a key given twice, and the messages below quote values whole.
  const duplicate = findDuplicateKey(text);
  if (duplicate !== null) {
    fail(showValue(duplicate), "given twice in one object: write each key once");
    return { change: null, problems };
  }
  if (nestedDeeperThan(value)) {
    fail(null, `values nested more than ${MAX_JSON_DEPTH} levels deep: no change has such a field`);
    return { change: null, problems };
  }
  if (!isPlainRecord(value)) {
    fail(null, `expected a JSON object like {"image_id": 1002, "quantity": {"1": 150}}, got ${describeJsonType(value)}`);
    return { change: null, problems };
  }
  for (const key of Object.keys(value)) {
    if ((JSONL_KEYS as readonly string[]).includes(key)) continue;
    const hint = unknownKeyHint[key];
    fail(showValue(key), `unknown key${hint ? ` (write "${hint}")` : `; allowed: ${JSONL_KEYS.join(", ")}`}`);
  }
  const imageId = readId(value.image_id);
  if (value.image_id === undefined) fail("image_id", "missing: every line names the intake it changes");
  else if (imageId === null) fail("image_id", `must be a positive integer, got ${showValue(value.image_id)}`);
  const userId = value.user_id === undefined || value.user_id === null ? undefined : readId(value.user_id);
  if (userId === null) fail("user_id", `must be a positive integer, got ${showValue(value.user_id)}`);
  const reason = readReason(value.reason, fail);

  const fields = pickUpdateFields(value);
  const shape = validateUpdateShape(fields, { strictMeasures: false });
  for (const problem of shape.problems) fail(problem.field, problem.message);
  if (shape.shape === "empty") fail(null, `nothing to change: give at least one of ${UPDATE_FIELDS.join(", ")}`);

  if (problems.length > 0 || imageId === null || userId === null) return { change: null, problems };
  return { change: { line, imageId, userId, fields, ...(reason === undefined ? {} : { reason }) }, problems };
}

/** Reads JSON Lines; blank lines are allowed and skipped. */
export async function readJsonLines(chunks: AsyncIterable<Buffer | string>, options: ReadOptions = {}): Promise<BatchInput> {
  const state = await readLines(chunks, options, (text, line, add) => {
    const parsed = parseJsonLine(text, line);
    for (const problem of parsed.problems) add.problem(problem);
    if (parsed.change) add.change(parsed.change);
  });
  return finishInput(state);
}
