/**
 * The API's answers: an intake, a list of intakes, an error body (docs/api.md, records). Lenient
 * on purpose (a real server may add fields or omit optional ones): unknown keys are kept,
 * everything not needed to print is optional. The one definition: types come from these
 * schemas, and the client checks answers with the validators compiled from them (./compiled.ts).
 */
import * as z from "zod/mini";

const num = z.number();
const position = z.union([z.number(), z.string()]);

export const NutrientSchema = z.looseObject({
  label: z.optional(z.string()),
  quantity: z.optional(z.nullable(num)),
  unit: z.optional(z.string()),
});

export const NutritionSchema = z.looseObject({
  calories: z.optional(z.nullable(num)),
  totalNutrients: z.optional(z.nullable(z.record(z.string(), NutrientSchema))),
});

export const ComponentSchema = z.looseObject({
  name: z.string(),
  weight: z.optional(z.nullable(num)),
  unit: z.optional(z.string()),
});

export const ItemNutritionSchema = z.looseObject({
  food_item_position: position,
  serving_size: z.optional(z.nullable(num)),
  hasNutritionalInfo: z.optional(z.boolean()),
  nutritional_info: z.optional(z.nullable(NutritionSchema)),
});

export const ItemRecipeSchema = z.looseObject({
  food_item_position: position,
  name: z.optional(z.nullable(z.string())),
  serving_size: z.optional(z.nullable(num)),
  salt: z.optional(z.nullable(z.string())),
  sugar: z.optional(z.nullable(z.string())),
  oil: z.optional(z.nullable(z.string())),
  measures: z.optional(z.nullable(z.string())),
  recipe: z.optional(z.nullable(z.array(ComponentSchema))),
});

export const ImageSizeSchema = z.looseObject({ width: num, height: num });

export const IntakeSchema = z.looseObject({
  image_id: z.number(),
  timestamp: z.optional(z.nullable(z.string())),
  occasion: z.optional(z.nullable(z.string())),
  user_comment: z.optional(z.nullable(z.string())),
  has_display_image: z.optional(z.boolean()),
  can_edit_display_image: z.optional(z.boolean()),
  image_url: z.optional(z.nullable(z.string())),
  processed_image_size: z.optional(z.nullable(ImageSizeSchema)),
  // Other clients meet one name as a string as well as a list (docs/api.md, the public service).
  foodName: z.optional(z.nullable(z.union([z.array(z.string()), z.string()]))),
  serving_size: z.optional(z.nullable(num)),
  nutritional_info: z.optional(z.nullable(NutritionSchema)),
  recipe: z.optional(z.nullable(z.array(ComponentSchema))),
  salt: z.optional(z.nullable(z.string())),
  sugar: z.optional(z.nullable(z.string())),
  nutritional_info_per_item: z.optional(z.nullable(z.array(ItemNutritionSchema))),
  recipe_per_item: z.optional(z.nullable(z.array(ItemRecipeSchema))),
});

/**
 * The period's total intake of the main nutrients, beside the history list (docs/api.md, the
 * history list): the service documents the nutrients, not the field names, which are the sandbox's.
 */
export const PeriodTotalsSchema = z.looseObject({
  calories: z.optional(z.nullable(num)),
  carbohydrates: z.optional(z.nullable(num)),
  fat: z.optional(z.nullable(num)),
  protein: z.optional(z.nullable(num)),
});

export const IntakeResponseSchema = z.looseObject({ intake_info: IntakeSchema });
export const IntakeListResponseSchema = z.looseObject({ intakes_list: z.array(IntakeSchema) });
export const ErrorBodySchema = z.looseObject({
  message: z.optional(z.string()),
  // A framework's error body says it in `detail` or `error` instead (docs/api.md, the public service).
  detail: z.optional(z.unknown()),
  error: z.optional(z.unknown()),
  code: z.optional(z.union([z.number(), z.string()])),
});

export type Nutrition = z.infer<typeof NutritionSchema>;
export type Intake = z.infer<typeof IntakeSchema>;
export type PeriodTotals = z.infer<typeof PeriodTotalsSchema>;
export type IntakeResponse = z.infer<typeof IntakeResponseSchema>;
export type IntakeListResponse = z.infer<typeof IntakeListResponseSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
