/**
 * The config file's check on every run: the rules of `ConfigFileSchema` (src/records/config.ts, the one
 * definition) without loading zod. Same verdict, same data (unknown keys dropped) and the first
 * problem at the same path: test/unit/configCheck.test.ts holds them together.
 */
import type { Profile } from "../records/config.js";

type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === "string";
const isPositive: FieldCheck = (value) => typeof value === "number" && Number.isFinite(value) && value > 0;
const isPositiveInt: FieldCheck = (value) => Number.isSafeInteger(value) && (value as number) > 0;

/** In the schema's order (the first field that fails is the one reported), with what each must be. */
const PROFILE_FIELDS: ReadonlyArray<[keyof Profile, FieldCheck, string]> = [
  ["api-url", isString, "a URL in quotes"],
  ["user", isPositiveInt, "a positive whole number"],
  ["timeout", isPositive, "a positive number of seconds"],
  ["token", isString, "a token in quotes"],
  ["journal", (value) => typeof value === "boolean", "true or false"],
  ["journal-days", isPositiveInt, "a positive whole number"],
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The first problem: where (as zod gives the path) and what the value there must be (never the value itself: it may be a token). */
export interface ConfigProblem {
  success: false;
  path: string[];
  expected: string;
}
export type ConfigCheck = { success: true; profiles: Record<string, Profile> } | ConfigProblem;

const problem = (path: string[], expected: string): ConfigProblem => ({ success: false, path, expected });

function checkProfile(value: unknown, path: string[]): Profile | ConfigProblem {
  if (!isRecord(value)) return problem(path, "an object of settings");
  const profile: Record<string, unknown> = {};
  for (const [key, check, expected] of PROFILE_FIELDS) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
    if (!check(value[key])) return problem([...path, key], expected);
    profile[key] = value[key];
  }
  return profile as Profile;
}

/** The parsed file's profiles, or the path of its first invalid value. */
export function checkConfigFile(data: unknown): ConfigCheck {
  if (!isRecord(data)) return problem([], "a JSON object");
  const stored = Object.hasOwn(data, "profiles") ? data.profiles : undefined;
  if (stored === undefined) return { success: true, profiles: {} };
  if (!isRecord(stored)) return problem(["profiles"], "an object of profiles");
  const profiles: Record<string, Profile> = {};
  for (const name of Object.keys(stored)) {
    const profile = checkProfile(stored[name], ["profiles", name]);
    if ("success" in profile) return profile;
    // Defined, not assigned: a profile named "__proto__" stays a plain entry.
    Object.defineProperty(profiles, name, { value: profile, enumerable: true, writable: true, configurable: true });
  }
  return { success: true, profiles };
}
