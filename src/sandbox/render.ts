/** Stored intakes as the API shows them (docs/api.md, the intake record). */
import type { StoredImage } from "./images.js";
import { nutritionRecord, roundTo, sumNutrients, type NutritionRecord } from "./nutrition.js";
import type { StoredIntake, StoredItem } from "./state.js";

export interface ComponentRecord {
  name: string;
  weight: number;
  unit: "g";
}

export interface ItemNutritionRecord {
  /** The item's id: the public service's answers carry one; the sandbox derives it from the image id and the position. */
  id: number;
  food_item_position: number | string;
  serving_size: number;
  hasNutritionalInfo: boolean;
  nutritional_info: NutritionRecord;
}

export interface ItemRecipeRecord {
  id: number;
  food_item_position: number | string;
  name: string;
  serving_size: number;
  salt: string;
  sugar: string;
  oil: string;
  measures: string;
  recipe: ComponentRecord[];
}

export interface IntakeRecord {
  image_id: number;
  timestamp: string;
  occasion: string;
  user_comment: string | null;
  has_display_image: boolean;
  can_edit_display_image: boolean;
  image_url: string;
  processed_image_size: { width: number; height: number } | null;
  foodName: string[];
  serving_size: number;
  nutritional_info: NutritionRecord;
  recipe?: ComponentRecord[];
  salt?: string;
  sugar?: string;
  nutritional_info_per_item?: ItemNutritionRecord[];
  recipe_per_item?: ItemRecipeRecord[];
}

function componentRecords(item: StoredItem): ComponentRecord[] {
  return item.recipe.map((component) => ({ name: component.name, weight: component.weight, unit: "g" }));
}

function itemPosition(item: StoredItem): number | string {
  return item.position ?? 0;
}

/** A stable item id: image id × 1000 + the position's number (manual2 → 2; the one portion of a recognition-only intake → 1). */
export function itemId(imageId: number, item: StoredItem): number {
  const position = item.position === null ? 1 : Number(String(item.position).replace(/^manual/, ""));
  return imageId * 1000 + position;
}

export function itemRecipeRecord(imageId: number, item: StoredItem): ItemRecipeRecord {
  return {
    id: itemId(imageId, item),
    food_item_position: itemPosition(item),
    name: item.name,
    serving_size: item.servingSize,
    salt: item.salt,
    sugar: item.sugar,
    oil: item.oil,
    measures: item.measures,
    recipe: componentRecords(item),
  };
}

export function itemNutritionRecord(imageId: number, item: StoredItem): ItemNutritionRecord {
  return {
    id: itemId(imageId, item),
    food_item_position: itemPosition(item),
    serving_size: item.servingSize,
    hasNutritionalInfo: true,
    nutritional_info: nutritionRecord(item.nutrition),
  };
}

/** Whole-intake serving size: the items' sum, without floating-point noise. */
export function totalServingSize(intake: StoredIntake): number {
  return roundTo(
    intake.items.reduce((sum, item) => sum + item.servingSize, 0),
    6,
  );
}

export function totalNutrition(intake: StoredIntake): NutritionRecord {
  return nutritionRecord(sumNutrients(intake.items.map((item) => item.nutrition)));
}

/**
 * One intake record. `imageUrl` turns an image name into the absolute URL it is served at;
 * the display image wins over the normal image (docs/api.md, display images).
 */
export function renderIntake(
  intake: StoredIntake,
  images: ReadonlyMap<string, StoredImage>,
  imageUrl: (name: string) => string,
): IntakeRecord {
  const shownName = intake.displayImage ?? intake.normalImage;
  const shown = images.get(shownName);
  const record: IntakeRecord = {
    image_id: intake.imageId,
    timestamp: intake.timestamp,
    occasion: intake.occasion,
    user_comment: intake.userComment,
    has_display_image: intake.displayImage !== null,
    can_edit_display_image: intake.kind === "manual",
    image_url: imageUrl(shownName),
    processed_image_size: shown ? { width: shown.width, height: shown.height } : null,
    foodName: intake.items.map((item) => item.name),
    serving_size: totalServingSize(intake),
    nutritional_info: totalNutrition(intake),
  };
  if (intake.kind === "recognition") {
    const portion = intake.items[0]!;
    record.recipe = componentRecords(portion);
    record.salt = portion.salt;
    record.sugar = portion.sugar;
  } else {
    record.nutritional_info_per_item = intake.items.map((item) => itemNutritionRecord(intake.imageId, item));
    record.recipe_per_item = intake.items.map((item) => itemRecipeRecord(intake.imageId, item));
  }
  return record;
}
