/**
 * Seed data of the sandbox: users, a small dish catalogue and the intakes every sandbox starts
 * with. Ids and names are fixed: tests and docs are written against them.
 */
export { SEED_USERS, type Role, type SeedUser } from "./seed/users.js";
export { INGREDIENTS, ingredientPer100g, type IngredientKey } from "./seed/ingredients.js";
export { DISHES, dishName, findDish, type Dish } from "./seed/dishes.js";
export { SEED_INTAKES, type SeedImage, type SeedIntake, type SeedItem } from "./seed/intakes.js";
