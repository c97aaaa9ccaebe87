/** Intake records and a token for the fault tests: shaped as docs/api.md (the intake record) says the service sends them. */
import { writeFileSync } from "node:fs";
import { runTempDir } from "../helpers/cli.js";
import { join } from "node:path";
import { SignJWT } from "jose";

function nutrition(kcal: number) {
  return {
    calories: kcal,
    totalNutrients: {
      ENERC_KCAL: { label: "Energy", quantity: kcal, unit: "kcal" },
      PROCNT: { label: "Protein", quantity: kcal / 20, unit: "g" },
      FAT: { label: "Fat", quantity: kcal / 30, unit: "g" },
      CHOCDF: { label: "Carbs", quantity: kcal / 8, unit: "g" },
      SUGAR: { label: "Sugars", quantity: 2, unit: "g" },
      NA: { label: "Sodium", quantity: 300, unit: "mg" },
    },
  };
}

function item(position: number | string, name: string, grams: number, kcalPer100: number) {
  return {
    nutrition: {
      food_item_position: position,
      serving_size: grams,
      hasNutritionalInfo: true,
      nutritional_info: nutrition((grams * kcalPer100) / 100),
    },
    recipe: {
      food_item_position: position,
      name,
      serving_size: grams,
      salt: "medium",
      sugar: "none",
      oil: "low",
      measures: "metric",
      recipe: [{ name, weight: grams, unit: "g" }],
    },
  };
}

/** A segmentation intake with items 1 and 2, at the given grams. */
export function segmentationIntake(imageId = 1002, grams: [number, number] = [200, 120]) {
  const items = [item(1, "spaghetti bolognese", grams[0], 150), item(2, "side salad", grams[1], 40)];
  return {
    image_id: imageId,
    timestamp: "2026-11-02T12:30:00Z",
    occasion: "lunch",
    user_comment: null,
    has_display_image: false,
    can_edit_display_image: false,
    image_url: "http://127.0.0.1:1/images/normal-1002.jpg",
    processed_image_size: { width: 640, height: 480 },
    foodName: items.map((entry) => entry.recipe.name),
    serving_size: grams[0] + grams[1],
    nutritional_info: nutrition((grams[0] * 150 + grams[1] * 40) / 100),
    nutritional_info_per_item: items.map((entry) => entry.nutrition),
    recipe_per_item: items.map((entry) => entry.recipe),
  };
}

/** A manual intake (display image allowed), one item manual1. */
export function manualIntake(imageId = 1003, hasDisplayImage = false, grams = 250) {
  const only = item("manual1", "porridge", grams, 116);
  return {
    image_id: imageId,
    timestamp: "2026-11-03T07:45:00Z",
    occasion: "breakfast",
    user_comment: "typed in",
    has_display_image: hasDisplayImage,
    can_edit_display_image: true,
    image_url: hasDisplayImage ? "http://127.0.0.1:1/images/display-1003.png" : "http://127.0.0.1:1/images/normal-1003.jpg",
    processed_image_size: hasDisplayImage ? { width: 1, height: 1 } : null,
    foodName: ["porridge"],
    serving_size: grams,
    nutritional_info: nutrition((grams * 116) / 100),
    nutritional_info_per_item: [only.nutrition],
    recipe_per_item: [only.recipe],
  };
}

/** A well-formed HS256 JWT that expires in an hour (the fault server never checks signatures). */
export async function signTestToken(sub = "101"): Promise<string> {
  const secret = new TextEncoder().encode("fault-tests-secret-not-used-anywhere-else");
  return new SignJWT({ role: "APIUser" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(secret);
}

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** Writes the tiny PNG to a fresh temp file and returns its path. */
export function tinyPngFile(): string {
  const dir = runTempDir("foodctl-faults-");
  const path = join(dir, "photo.png");
  writeFileSync(path, TINY_PNG);
  return path;
}
