/**
 * The `--state` file: the whole state as JSON (images base64), validated when read and written
 * atomically. Loaded only when a state file is in use.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as z from "zod/mini";
import { writeFileAtomic } from "../files.js";
import { IMAGE_TYPES } from "../intake/index.js";
import type { StoredImage } from "./images.js";
import { NUTRIENT_CODES, zeroNutrients } from "./nutrition.js";
import { ingredientPer100g, INGREDIENTS, SEED_USERS, type IngredientKey } from "./seed.js";
import { calculateIntake, OCCASIONS, StateFileError, type SandboxState, type StoredIntake } from "./state.js";
import { LEVELS, MEASURES } from "../records/fields.js";

/**
 * The file a `--state` path names: through symbolic links its real path (a link that names no
 * file yet, the path it names), so the lock and the saves are the file's, however it is reached.
 */
export function realStatePath(path: string): string {
  for (let hops = 0; hops < 40; hops++) {
    let link: boolean;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      return inRealFolder(path);
    }
    if (!link) return realpathSync(path);
    try {
      return realpathSync(path);
    } catch {
      path = resolve(dirname(path), readlinkSync(path));
    }
  }
  throw new StateFileError(`state file ${path}: too many symbolic links`);
}

/** A file not there yet: its name in the real path of its folder (as given when the folder is missing too). */
function inRealFolder(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return resolve(path);
  }
}

/**
 * A file with more than one hard link could be reached by another name that a second sandbox
 * would lock apart, and the first save would split the names into two files: refused.
 */
export function refuseHardLinks(path: string): void {
  let links: number;
  try {
    links = statSync(path).nlink;
  } catch {
    return;
  }
  if (links > 1) {
    throw new StateFileError(
      `state file ${path} has ${links} hard links: another name could open it apart from this one's lock; use a file with one name (a symbolic link is fine)`,
    );
  }
}

export const STATE_FORMAT = "foodctl-sandbox-state";
export const STATE_VERSION = 1;

const finite = z.number().check(z.refine(Number.isFinite));
const nonNegative = finite.check(z.gte(0));
/** The six first codes are required; files written before the others existed lack them (read as 0, or the catalogue's value). */
const REQUIRED_CODES = NUTRIENT_CODES.slice(0, 6);
const nutrientsSchema = z.strictObject(
  Object.fromEntries(NUTRIENT_CODES.map((code) => [code, REQUIRED_CODES.includes(code) ? finite : z.optional(finite)])) as Record<
    (typeof NUTRIENT_CODES)[number],
    typeof finite
  >,
);
const levelSchema = z.enum(LEVELS);
const itemSchema = z.strictObject({
  position: z.nullable(z.union([z.int().check(z.positive()), z.string().check(z.regex(/^manual[1-9][0-9]*$/))])),
  name: z.string(),
  dishId: z.int(),
  likelyAddedSugar: z.boolean(),
  servingSize: finite.check(z.positive()),
  salt: levelSchema,
  sugar: levelSchema,
  oil: levelSchema,
  measures: z.enum(MEASURES),
  components: z.array(z.strictObject({ name: z.string(), share: nonNegative, per100g: nutrientsSchema })),
  recipe: z.array(z.strictObject({ name: z.string(), weight: nonNegative })),
  nutrition: nutrientsSchema,
});
const intakeSchema = z.strictObject({
  imageId: z.int().check(z.positive()),
  ownerId: z.int(),
  kind: z.enum(["recognition", "segmentation", "manual"]),
  storedAs: z.enum(["Image", "APIImage"]),
  timestamp: z.string().check(z.refine((text) => !Number.isNaN(Date.parse(text)))),
  occasion: z.enum(OCCASIONS),
  userComment: z.nullable(z.string()),
  normalImage: z.string(),
  displayImage: z.nullable(z.string()),
  items: z.array(itemSchema).check(z.minLength(1)),
});
const fileSchema = z.strictObject({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  secret: z.string().check(z.minLength(16)),
  intakes: z.array(intakeSchema),
  images: z.record(
    z.string().check(z.regex(/^[0-9a-f]{32}\.(?:jpg|png|gif|webp)$/)),
    z.strictObject({
      contentType: z.enum(IMAGE_TYPES),
      width: z.int().check(z.positive()),
      height: z.int().check(z.positive()),
      data: z.base64(),
    }),
  ),
});

export function serializeState(state: SandboxState): string {
  const images: Record<string, unknown> = {};
  for (const [name, image] of state.images) {
    images[name] = { contentType: image.contentType, width: image.width, height: image.height, data: image.bytes.toString("base64") };
  }
  return `${JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, secret: state.secret, intakes: [...state.intakes.values()], images })}\n`;
}

/** Reads a state file's text; throws StateFileError with a one-line reason. */
export function parseState(text: string): SandboxState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError("it is not valid JSON");
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new StateFileError(`it is not a sandbox state file (unexpected value${where})`);
  }
  const file = parsed.data;
  const images = new Map<string, StoredImage>();
  for (const [name, image] of Object.entries(file.images)) {
    images.set(name, {
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: Buffer.from(image.data, "base64"),
    });
  }
  const intakes = new Map<number, StoredIntake>();
  const owners = new Set(SEED_USERS.filter((user) => user.role === "APIUser").map((user) => user.id));
  for (const intake of file.intakes) {
    const problem = checkStoredIntake(intake, owners, images);
    if (problem) throw new StateFileError(`intake ${intake.imageId} ${problem}`);
    if (intakes.has(intake.imageId)) throw new StateFileError(`intake ${intake.imageId} appears twice`);
    if (completeNutrients(intake)) calculateIntake(intake);
    intakes.set(intake.imageId, intake);
  }
  return { secret: file.secret, intakes, images };
}

/** Fills nutrient codes an older file lacks from the ingredient catalogue (else 0); true when any was missing. */
function completeNutrients(intake: StoredIntake): boolean {
  let missing = false;
  for (const item of intake.items) {
    for (const component of item.components) {
      if (NUTRIENT_CODES.every((code) => component.per100g[code] !== undefined)) continue;
      missing = true;
      const known = Object.entries(INGREDIENTS).find(([, ingredient]) => ingredient.name === component.name);
      const catalogue = known ? ingredientPer100g(known[0] as IngredientKey) : zeroNutrients();
      component.per100g = { ...catalogue, ...component.per100g };
    }
    item.nutrition = { ...zeroNutrients(), ...item.nutrition };
  }
  return missing;
}

function checkStoredIntake(intake: StoredIntake, owners: Set<number>, images: Map<string, StoredImage>): string | null {
  if (!owners.has(intake.ownerId)) return `belongs to unknown user ${intake.ownerId}`;
  if (!images.has(intake.normalImage)) return "refers to a missing normal image";
  if (intake.displayImage !== null && !images.has(intake.displayImage)) return "refers to a missing display image";
  if (intake.displayImage !== null && intake.kind !== "manual") return "has a display image but is not manual";
  const positions = intake.items.map((item) => item.position);
  if (new Set(positions).size !== positions.length) return "has duplicate positions";
  const fits = (position: number | string | null) =>
    intake.kind === "recognition"
      ? position === null
      : intake.kind === "segmentation"
        ? typeof position === "number"
        : typeof position === "string";
  if (!positions.every(fits)) return `has positions that do not fit a ${intake.kind} intake`;
  if (intake.kind === "recognition" && intake.items.length !== 1) return "is recognition-only but has several portions";
  return null;
}

/** The stored state, or null when the file does not exist yet. Throws StateFileError otherwise. */
export function loadStateFile(path: string): SandboxState | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StateFileError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  try {
    return parseState(text);
  } catch (error) {
    if (error instanceof StateFileError) throw new StateFileError(`cannot use state file ${path}: ${error.message}`);
    throw error;
  }
}

/**
 * Writes the whole state atomically (src/files.ts), so a reader never sees half a file.
 * Synchronous on purpose: a change is on disk before it is answered, and two saves can never
 * overtake each other.
 */
export function saveStateFile(path: string, state: SandboxState): void {
  writeFileAtomic(path, serializeState(state), { mode: 0o600 });
}
