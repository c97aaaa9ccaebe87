/**
 * What the sandbox stores: intakes (with the inputs of the nutrition model and the results of
 * its last calculation) and images. Built from the seed, or read back from a state file.
 */
import { newImageName, renderSeedImage, type StoredImage } from "./images.js";
import { calculatePortion, zeroNutrients, type BaseComponent, type NutrientValues, type WeighedComponent } from "./nutrition.js";
import { findDish, ingredientPer100g, INGREDIENTS, SEED_INTAKES, type Dish } from "./seed.js";
import type { IntakeKind, Level, Measure, Modifier } from "../records/fields.js";

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
          nutrition: zeroNutrients(),
        };
      }),
    };
    calculateIntake(intake);
    intakes.set(intake.imageId, intake);
  }
  return { secret, intakes, images };
}

/** The state file is unreadable or not a sandbox state; the file is left as it is. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateFileError";
  }
}
