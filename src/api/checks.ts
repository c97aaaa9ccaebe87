/**
 * Plain checks of the API's answers, for the hot path: the rules of the response schemas in
 * `src/records/intake.ts` (the one definition) without loading zod at every start. A property test
 * (test/api/checks.test.ts) throws random records at both and pins them together: the same
 * records accepted, the same data, the first problem at the same path.
 */
import type { IntakeListResponse, IntakeResponse } from "../records/intake.js";

type Path = PropertyKey[];
interface Issue {
  path: Path;
  message: string;
}
/**
 * A check returns the first problem or null. The path is built only for a problem, outermost key
 * first, as each enclosing check puts its key in front: a valid answer allocates nothing to be
 * checked (a path per field visited was most of a one-intake run's young garbage).
 */
type Check = (value: unknown) => Issue | null;

export type CheckResult<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const expected = (what: string, value: unknown): Issue => ({
  path: [],
  message: `Invalid input: expected ${what}, received ${received(value)}`,
});
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The child's problem, placed under `key`. */
function under(key: PropertyKey, issue: Issue | null): Issue | null {
  issue?.path.unshift(key);
  return issue;
}

const str: Check = (value) => (typeof value === "string" ? null : expected("string", value));
const num: Check = (value) => (typeof value === "number" && Number.isFinite(value) ? null : expected("number", value));
const bool: Check = (value) => (typeof value === "boolean" ? null : expected("boolean", value));
/** `z.optional(z.nullable(check))`. */
const maybe =
  (check: Check): Check =>
  (value) =>
    value === undefined || value === null ? null : check(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined ? null : check(value);
const numberOrString: Check = (value) =>
  (typeof value === "number" && Number.isFinite(value)) || typeof value === "string" ? null : { path: [], message: "Invalid input" };

const array =
  (check: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return expected("array", value);
    for (let index = 0; index < value.length; index++) {
      const issue = check(value[index]);
      if (issue) return under(index, issue);
    }
    return null;
  };

const record =
  (check: Check): Check =>
  (value) => {
    if (!isRecord(value)) return expected("record", value);
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const issue = check(value[keys[index]!]);
      if (issue) return under(keys[index]!, issue);
    }
    return null;
  };

/**
 * `z.looseObject(shape)`: unknown keys are kept. Indexed loops: a check runs once per process, in
 * V8's interpreter, where every for-of and destructuring allocates an iterator.
 */
const object = (shape: Record<string, Check>): Check => {
  const keys = Object.keys(shape);
  const checks = Object.values(shape);
  return (value) => {
    if (!isRecord(value)) return expected("object", value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const issue = checks[index]!(Object.hasOwn(value, key) ? value[key] : undefined);
      if (issue) return under(key, issue);
    }
    return null;
  };
};

const nutrient = object({ label: optional(str), quantity: maybe(num), unit: optional(str) });
const nutrition = object({ calories: maybe(num), totalNutrients: maybe(record(nutrient)) });
const component = object({ name: str, weight: maybe(num), unit: optional(str) });
const itemNutrition = object({
  food_item_position: numberOrString,
  serving_size: maybe(num),
  hasNutritionalInfo: optional(bool),
  nutritional_info: maybe(nutrition),
});
const itemRecipe = object({
  food_item_position: numberOrString,
  name: maybe(str),
  serving_size: maybe(num),
  salt: maybe(str),
  sugar: maybe(str),
  oil: maybe(str),
  measures: maybe(str),
  recipe: maybe(array(component)),
});
const intake = object({
  image_id: num,
  timestamp: maybe(str),
  occasion: maybe(str),
  user_comment: maybe(str),
  has_display_image: optional(bool),
  can_edit_display_image: optional(bool),
  image_url: maybe(str),
  processed_image_size: maybe(object({ width: num, height: num })),
  foodName: maybe(array(str)),
  serving_size: maybe(num),
  nutritional_info: maybe(nutrition),
  recipe: maybe(array(component)),
  salt: maybe(str),
  sugar: maybe(str),
  nutritional_info_per_item: maybe(array(itemNutrition)),
  recipe_per_item: maybe(array(itemRecipe)),
});

function checker<T>(check: Check): { safeParse(data: unknown): CheckResult<T> } {
  return {
    safeParse(data) {
      const issue = check(data);
      return issue ? { success: false, error: { issues: [issue] } } : { success: true, data: data as T };
    },
  };
}

export const IntakeResponseCheck = checker<IntakeResponse>(object({ intake_info: intake }));
export const IntakeListResponseCheck = checker<IntakeListResponse>(object({ intakes_list: array(intake) }));
export const ErrorBodyCheck = checker<{ message?: string | undefined; code?: number | string | undefined }>(
  object({ message: optional(str), code: optional(numberOrString) }),
);
