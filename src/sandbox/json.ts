/**
 * The sandbox's JSON body parser: JSON.parse (which keeps `__proto__` and `constructor` as plain
 * own keys, so the checks after it can name them), then the refusals of src/json.ts.
 */
import { findDuplicateKey, MAX_JSON_DEPTH, nestedDeeperThan } from "../json.js";
import { badRequest } from "./errors.js";

/** Parses a JSON request body; throws the sandbox's 400 for invalid JSON a duplicate key or nesting no record has. */
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
  if (nestedDeeperThan(value)) throw badRequest(`the request body nests values more than ${MAX_JSON_DEPTH} levels deep`);
  return value;
}
