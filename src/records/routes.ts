/** Every route of docs/api.md, in one place. */
export const API_PREFIX = "/v2";

export const paths = {
  intake: (imageId: number) => `${API_PREFIX}/intake/${imageId}`,
  intakesList: () => `${API_PREFIX}/history/getIntakesList`,
  confirmQuantity: () => `${API_PREFIX}/nutrition/confirm/quantity`,
  displayImage: (imageId: number) => `${API_PREFIX}/intake/${imageId}/display_image`,
  recipeIngredients: () => `${API_PREFIX}/nutrition/recipe/ingredients`,
  recipeNutritionalInfo: () => `${API_PREFIX}/nutrition/recipe/nutritionalInfo`,
  confirmDish: () => `${API_PREFIX}/image/confirm/dish`,
} as const;

/** Route patterns as a server registers them. */
export const routes = {
  intake: `${API_PREFIX}/intake/:image_id`,
  intakesList: `${API_PREFIX}/history/getIntakesList`,
  confirmQuantity: `${API_PREFIX}/nutrition/confirm/quantity`,
  displayImage: `${API_PREFIX}/intake/:image_id/display_image`,
  recipeIngredients: `${API_PREFIX}/nutrition/recipe/ingredients`,
  recipeNutritionalInfo: `${API_PREFIX}/nutrition/recipe/nutritionalInfo`,
  confirmDish: `${API_PREFIX}/image/confirm/dish`,
} as const;
