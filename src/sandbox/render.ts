/** Stored intakes as the API shows them (docs/api.md, the intake record). */
import type { LanguageCode } from "../records/languages.js";
import type { StoredImage } from "./images.js";
import { nutritionRecord, roundTo, sumNutrients, type NutritionRecord } from "./nutrition.js";
import { dishName, findDish } from "./seed.js";
import type { StoredIntake, StoredItem } from "./state.js";

export interface ComponentRecord {
  name: string;
  weight: number;
  unit: "g";
}

export interface ItemNutritionRecord {
  /** The item's dish (class) id, as the public service's answers carry it (docs/api.md, nutrition). */
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
  /** Always true here: every stored intake has its nutrition (the service leaves `nutritional_info` out when false). */
  hasNutritionalInfo: true;
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

/** The item's name in a language: its dish's, English when the catalogue has none in it (or the dish is unknown). */
export function itemName(item: StoredItem, language: LanguageCode): string {
  const dish = findDish(item.dishId);
  return dish ? dishName(dish, language) : item.name;
}

export function itemRecipeRecord(item: StoredItem, language: LanguageCode): ItemRecipeRecord {
  return {
    id: item.dishId,
    food_item_position: itemPosition(item),
    name: itemName(item, language),
    serving_size: item.servingSize,
    salt: item.salt,
    sugar: item.sugar,
    oil: item.oil,
    measures: item.measures,
    recipe: componentRecords(item),
  };
}

export function itemNutritionRecord(item: StoredItem): ItemNutritionRecord {
  return {
    id: item.dishId,
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
  language: LanguageCode,
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
    foodName: intake.items.map((item) => itemName(item, language)),
    serving_size: totalServingSize(intake),
    hasNutritionalInfo: true,
    nutritional_info: totalNutrition(intake),
  };
  if (intake.kind === "recognition") {
    const portion = intake.items[0]!;
    record.recipe = componentRecords(portion);
    record.salt = portion.salt;
    record.sugar = portion.sugar;
  } else {
    record.nutritional_info_per_item = intake.items.map((item) => itemNutritionRecord(item));
    record.recipe_per_item = intake.items.map((item) => itemRecipeRecord(item, language));
  }
  return record;
}
