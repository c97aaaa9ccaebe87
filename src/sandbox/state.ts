/**
 * What the sandbox stores: intakes (with the inputs of the nutrition model and the results of
 * its last calculation) and images. Built from the seed, or read back from a state file.
 */
import * as z from "zod/mini";
import { IMAGE_TYPES, LEVELS, MEASURES, type IntakeKind, type Level, type Measure, type Modifier } from "../intake/index.js";
import { newImageName, renderSeedImage, type StoredImage } from "./images.js";
import {
  calculatePortion,
  NUTRIENT_CODES,
  type BaseComponent,
  type NutrientValues,
  type WeighedComponent,
} from "./nutrition.js";
import { findDish, ingredientPer100g, SEED_INTAKES, SEED_USERS, INGREDIENTS, type Dish } from "./seed.js";

export const OCCASIONS = ["breakfast", "lunch", "dinner", "snack", "other"] as const;
export type Occasion = (typeof OCCASIONS)[number];

export interface StoredItem {
  /** 1, 2, … (segmentation), "manual1", … (manual) or null (the one portion of a recognition-only intake). */
  position: number | string | null;
  name: string;
  dishId: number;
  likelyAddedSugar: boolean;
  servingSize: number;
  salt: Level;
  sugar: Level;
  oil: Level;
  measures: Measure;
  components: BaseComponent[];
  /** Results of the last nutrition calculation. */
  recipe: WeighedComponent[];
  nutrition: NutrientValues;
}

export interface StoredIntake {
  imageId: number;
  ownerId: number;
  kind: IntakeKind;
  storedAs: "Image" | "APIImage";
  timestamp: string;
  occasion: Occasion;
  userComment: string | null;
  normalImage: string;
  displayImage: string | null;
  items: StoredItem[];
}

export interface SandboxState {
  secret: string;
  intakes: Map<number, StoredIntake>;
  images: Map<string, StoredImage>;
}

/** Recognition-only intakes know salt and sugar; itemized ones salt, sugar and oil. */
export function modifiersOf(kind: IntakeKind): readonly Modifier[] {
  return kind === "recognition" ? ["salt", "sugar"] : ["salt", "sugar", "oil"];
}

export function positionKeys(intake: StoredIntake): string[] {
  return intake.items.flatMap((item) => (item.position === null ? [] : [String(item.position)]));
}

export function dishComponents(dish: Dish): BaseComponent[] {
  return dish.recipe.map(([key, share]) => ({ name: INGREDIENTS[key].name, share, per100g: ingredientPer100g(key) }));
}

/** Runs the nutrition model over every item; the caller counts it as one calculation. */
export function calculateIntake(intake: StoredIntake): void {
  const modifiers = modifiersOf(intake.kind);
  for (const item of intake.items) {
    const result = calculatePortion(
      {
        servingSize: item.servingSize,
        levels: { salt: item.salt, sugar: item.sugar, oil: item.oil },
        likelyAddedSugar: item.likelyAddedSugar,
        components: item.components,
      },
      modifiers,
    );
    item.recipe = result.recipe;
    item.nutrition = result.nutrition;
  }
}

export function createSeedState(secret: string): SandboxState {
  const images = new Map<string, StoredImage>();
  const addImage = (image: StoredImage) => {
    const name = newImageName(image.contentType);
    images.set(name, image);
    return name;
  };
  const intakes = new Map<number, StoredIntake>();
  for (const seed of SEED_INTAKES) {
    const intake: StoredIntake = {
      imageId: seed.imageId,
      ownerId: seed.owner,
      kind: seed.kind,
      storedAs: seed.storedAs,
      timestamp: seed.timestamp,
      occasion: seed.occasion,
      userComment: seed.userComment,
      normalImage: addImage(renderSeedImage(seed.image)),
      displayImage: seed.displayImage ? addImage(renderSeedImage(seed.displayImage)) : null,
      items: seed.items.map((item) => {
        const dish = findDish(item.dish);
        if (!dish) throw new Error(`seed intake ${seed.imageId} names unknown dish ${item.dish}`);
        return {
          position: item.position,
          name: dish.name,
          dishId: dish.id,
          likelyAddedSugar: dish.likelyAddedSugar,
          servingSize: item.grams,
          salt: item.salt,
          sugar: item.sugar,
          oil: seed.kind === "recognition" ? "none" : item.oil,
          measures: item.measures,
          components: dishComponents(dish),
          recipe: [],
          nutrition: { ENERC_KCAL: 0, PROCNT: 0, FAT: 0, CHOCDF: 0, SUGAR: 0, NA: 0 },
        };
      }),
    };
    calculateIntake(intake);
    intakes.set(intake.imageId, intake);
  }
  return { secret, intakes, images };
}

// ---- state file ---------------------------------------------------------------------------

export const STATE_FORMAT = "foodctl-sandbox-state";
export const STATE_VERSION = 1;

/** The state file is unreadable or not a sandbox state; the file is left as it is. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateFileError";
  }
}

const finite = z.number().check(z.refine(Number.isFinite));
const nonNegative = finite.check(z.gte(0));
const nutrientsSchema = z.strictObject(
  Object.fromEntries(NUTRIENT_CODES.map((code) => [code, finite])) as Record<(typeof NUTRIENT_CODES)[number], typeof finite>,
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
    z.strictObject({ contentType: z.enum(IMAGE_TYPES), width: z.int().check(z.positive()), height: z.int().check(z.positive()), data: z.base64() }),
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
    images.set(name, { contentType: image.contentType, width: image.width, height: image.height, bytes: Buffer.from(image.data, "base64") });
  }
  const intakes = new Map<number, StoredIntake>();
  const owners = new Set(SEED_USERS.filter((user) => user.role === "APIUser").map((user) => user.id));
  for (const intake of file.intakes) {
    const problem = checkStoredIntake(intake, owners, images);
    if (problem) throw new StateFileError(`intake ${intake.imageId} ${problem}`);
    if (intakes.has(intake.imageId)) throw new StateFileError(`intake ${intake.imageId} appears twice`);
    intakes.set(intake.imageId, intake);
  }
  return { secret: file.secret, intakes, images };
}

function checkStoredIntake(intake: StoredIntake, owners: Set<number>, images: Map<string, StoredImage>): string | null {
  if (!owners.has(intake.ownerId)) return `belongs to unknown user ${intake.ownerId}`;
  if (!images.has(intake.normalImage)) return "refers to a missing normal image";
  if (intake.displayImage !== null && !images.has(intake.displayImage)) return "refers to a missing display image";
  if (intake.displayImage !== null && intake.kind !== "manual") return "has a display image but is not manual";
  const positions = intake.items.map((item) => item.position);
  if (new Set(positions).size !== positions.length) return "has duplicate positions";
  const fits = (position: number | string | null) =>
    intake.kind === "recognition" ? position === null : intake.kind === "segmentation" ? typeof position === "number" : typeof position === "string";
  if (!positions.every(fits)) return `has positions that do not fit a ${intake.kind} intake`;
  if (intake.kind === "recognition" && intake.items.length !== 1) return "is recognition-only but has several portions";
  return null;
}
