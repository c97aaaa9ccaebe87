/**
 * The config file's check on every run: the rules of `ConfigFileSchema` (./schema.ts, the one
 * definition) without loading zod. Same verdict, same data (unknown keys dropped) and the first
 * problem at the same path: test/unit/configCheck.test.ts holds them together.
 */
import type { Profile } from "./schema.js";

type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === "string";
const isPositive: FieldCheck = (value) => typeof value === "number" && Number.isFinite(value) && value > 0;
const isPositiveInt: FieldCheck = (value) => Number.isSafeInteger(value) && (value as number) > 0;

/** In the schema's order: the first field that fails is the one reported. */
const PROFILE_FIELDS: ReadonlyArray<[keyof Profile, FieldCheck]> = [
  ["api-url", isString],
  ["user", isPositiveInt],
  ["timeout", isPositive],
  ["token", isString],
  ["journal", (value) => typeof value === "boolean"],
  ["journal-days", isPositiveInt],
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export type ConfigCheck = { success: true; profiles: Record<string, Profile> } | { success: false; path: string[] };

function checkProfile(value: unknown, path: string[]): Profile | string[] {
  if (!isRecord(value)) return path;
  const profile: Record<string, unknown> = {};
  for (const [key, check] of PROFILE_FIELDS) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
    if (!check(value[key])) return [...path, key];
    profile[key] = value[key];
  }
  return profile as Profile;
}

/** The parsed file's profiles, or the path of its first invalid value. */
export function checkConfigFile(data: unknown): ConfigCheck {
  if (!isRecord(data)) return { success: false, path: [] };
  const stored = Object.hasOwn(data, "profiles") ? data.profiles : undefined;
  if (stored === undefined) return { success: true, profiles: {} };
  if (!isRecord(stored)) return { success: false, path: ["profiles"] };
  const profiles: Record<string, Profile> = {};
  for (const name of Object.keys(stored)) {
    const profile = checkProfile(stored[name], ["profiles", name]);
    if (Array.isArray(profile)) return { success: false, path: profile };
    // Defined, not assigned: a profile named "__proto__" stays a plain entry.
    Object.defineProperty(profiles, name, { value: profile, enumerable: true, writable: true, configurable: true });
  }
  return { success: true, profiles };
}
