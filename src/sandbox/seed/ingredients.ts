/** The ingredient table behind every dish: nutrient values per 100 g, by ingredient key. */
import type { NutrientValues } from "../nutrition.js";

/** Per 100 g: kcal, protein g, fat g, carbohydrates g, sugars g, sodium mg. */
type Per100g = readonly [kcal: number, protein: number, fat: number, carbs: number, sugar: number, sodiumMg: number];
/** Per 100 g, the other codes: fibre g, saturated, mono- and polyunsaturated fat g, cholesterol mg, added sugars g, K, Ca, Fe, vitamin C mg. */
type More100g = readonly [
  fiber: number,
  saturated: number,
  mono: number,
  poly: number,
  cholesterolMg: number,
  addedSugar: number,
  kMg: number,
  caMg: number,
  feMg: number,
  vitCMg: number,
];

export const INGREDIENTS = {
  spaghetti: { name: "spaghetti, cooked", per100g: [158, 5.8, 0.9, 30.9, 0.6, 1], more: [1.8, 0.2, 0.1, 0.3, 0, 0, 44, 7, 1.3, 0] },
  beefMince: { name: "beef mince, browned", per100g: [250, 25.9, 15.4, 0, 0, 72], more: [0, 6, 6.7, 0.5, 85, 0, 318, 18, 2.6, 0] },
  tomatoSauce: { name: "tomato sauce", per100g: [29, 1.3, 0.2, 5.3, 3.6, 11], more: [1.5, 0, 0, 0.1, 0, 0, 297, 14, 1, 7] },
  parmesan: { name: "parmesan", per100g: [431, 38.5, 28.6, 4.1, 0.9, 1529], more: [0, 17.3, 8, 1.2, 88, 0, 92, 1184, 0.8, 0] },
  romaine: { name: "romaine lettuce", per100g: [17, 1.2, 0.3, 3.3, 1.2, 8], more: [2.1, 0, 0, 0.2, 0, 0, 247, 33, 1, 4] },
  chickenBreast: { name: "chicken breast, grilled", per100g: [165, 31, 3.6, 0, 0, 74], more: [0, 1, 1.2, 0.8, 85, 0, 256, 15, 1, 0] },
  croutons: { name: "croutons", per100g: [407, 11.9, 6.6, 73.5, 5, 698], more: [5, 1.5, 3, 1.3, 0, 0, 124, 76, 4.1, 0] },
  caesarDressing: { name: "caesar dressing", per100g: [542, 2.2, 57.9, 3.3, 2.9, 1092], more: [0.1, 9, 13, 33, 39, 1.5, 29, 37, 0.3, 0] },
  pancakes: { name: "pancakes", per100g: [227, 6.4, 9.7, 28.3, 5.5, 439], more: [0.9, 2.1, 2.5, 4.3, 59, 3, 132, 219, 1.8, 0] },
  mapleSyrup: { name: "maple syrup", per100g: [260, 0, 0.1, 67, 60.5, 12], more: [0, 0, 0, 0, 0, 60.5, 212, 102, 0.1, 0] },
  butter: { name: "butter", per100g: [717, 0.9, 81.1, 0.1, 0.1, 11], more: [0, 51, 21, 3, 215, 0, 24, 24, 0, 0] },
  blueberries: { name: "blueberries", per100g: [57, 0.7, 0.3, 14.5, 10, 1], more: [2.4, 0, 0, 0.1, 0, 0, 77, 6, 0.3, 9.7] },
  rice: { name: "white rice, cooked", per100g: [130, 2.7, 0.3, 28.2, 0.1, 1], more: [0.4, 0.1, 0.1, 0.1, 0, 0, 35, 10, 0.2, 0] },
  salmon: { name: "salmon, baked", per100g: [206, 22.1, 12.4, 0, 0, 61], more: [0, 2.5, 4.2, 4.4, 63, 0, 384, 12, 0.5, 0] },
  broccoli: { name: "broccoli, steamed", per100g: [35, 2.4, 0.4, 7.2, 1.4, 41], more: [3.3, 0.1, 0, 0.2, 0, 0, 293, 40, 0.7, 65] },
  greekYogurt: { name: "greek yogurt", per100g: [97, 9, 5, 3.6, 3.6, 36], more: [0, 3.2, 1.4, 0.2, 13, 0, 141, 110, 0.1, 0] },
  granola: { name: "granola", per100g: [471, 10, 20, 64, 24, 26], more: [9, 3.6, 8, 7, 0, 18, 540, 76, 3.9, 1] },
  honey: { name: "honey", per100g: [304, 0.3, 0, 82.4, 82.1, 4], more: [0.2, 0, 0, 0, 0, 82.1, 52, 6, 0.4, 0.5] },
  banana: { name: "banana", per100g: [89, 1.1, 0.3, 22.8, 12.2, 1], more: [2.6, 0.1, 0, 0.1, 0, 0, 358, 5, 0.3, 8.7] },
  porridge: {
    name: "oat porridge made with milk",
    per100g: [116, 4.8, 4.1, 15.4, 5.2, 44],
    more: [1.7, 2.1, 1.2, 0.5, 8, 0, 190, 120, 0.9, 0.5],
  },
  scrambledEggs: { name: "eggs, scrambled", per100g: [149, 10, 11, 1.6, 1.4, 145], more: [0, 3.3, 4.5, 2, 277, 0, 132, 66, 1.3, 0] },
  toast: { name: "wholemeal toast", per100g: [247, 13, 3.4, 41, 6, 450], more: [7, 0.7, 0.7, 1.5, 0, 0, 248, 161, 2.5, 0] },
  apple: { name: "apple", per100g: [52, 0.3, 0.2, 13.8, 10.4, 1], more: [2.4, 0, 0, 0.1, 0, 0, 107, 6, 0.1, 4.6] },
  kiwi: { name: "kiwi", per100g: [61, 1.1, 0.5, 14.7, 9, 3], more: [3, 0, 0, 0.3, 0, 0, 312, 34, 0.3, 92.7] },
  mixedVegetables: {
    name: "peas, carrots and corn",
    per100g: [65, 3.3, 0.5, 13, 3.5, 38],
    more: [4, 0.1, 0.1, 0.2, 0, 0, 180, 25, 0.9, 8],
  },
  soySauce: { name: "soy sauce", per100g: [53, 8.1, 0.6, 4.9, 0.4, 5493], more: [0.8, 0.1, 0.1, 0.3, 0, 0, 435, 33, 1.9, 0] },
  chickenThigh: { name: "chicken thigh, roasted", per100g: [209, 26, 10.9, 0, 0, 84], more: [0, 3, 4.3, 2.4, 133, 0, 240, 12, 1.3, 0] },
  teriyakiSauce: { name: "teriyaki sauce", per100g: [89, 5.9, 0, 15.6, 14.2, 3833], more: [0.1, 0, 0, 0, 0, 12, 225, 25, 1.7, 0] },
  pizzaBase: { name: "pizza base", per100g: [266, 9, 3.3, 49, 3, 598], more: [2.2, 0.7, 1, 1.2, 0, 1, 118, 20, 3.2, 0] },
  mozzarella: { name: "mozzarella", per100g: [280, 27.5, 17.1, 3.1, 1.2, 627], more: [0, 10.9, 4.9, 0.5, 79, 0, 95, 731, 0.4, 0] },
  cookie: { name: "chocolate chip cookie", per100g: [488, 5.4, 24, 64, 35, 350], more: [2.4, 8, 11, 3.5, 24, 30, 170, 30, 2.5, 0] },
  chocolateChips: { name: "chocolate chips", per100g: [479, 4.2, 30, 63.9, 54.5, 11], more: [5.9, 18, 9.6, 0.9, 0, 48, 365, 32, 3.1, 0] },
  cucumber: { name: "cucumber", per100g: [15, 0.7, 0.1, 3.6, 1.7, 2], more: [0.5, 0, 0, 0, 0, 0, 147, 16, 0.3, 2.8] },
  tomato: { name: "tomato", per100g: [18, 0.9, 0.2, 3.9, 2.6, 5], more: [1.2, 0, 0, 0.1, 0, 0, 237, 10, 0.3, 13.7] },
  shortcrust: { name: "shortcrust pastry", per100g: [527, 6.6, 32, 54, 3, 430], more: [2, 20, 8, 2.5, 0, 0, 100, 25, 2, 0] },
  appleFilling: { name: "cooked apple filling", per100g: [74, 0.2, 0.1, 19, 15, 10], more: [1.7, 0, 0, 0, 0, 12, 90, 5, 0.2, 1] },
} as const satisfies Record<string, { name: string; per100g: Per100g; more: More100g }>;
export type IngredientKey = keyof typeof INGREDIENTS;

export function ingredientPer100g(key: IngredientKey): NutrientValues {
  const [ENERC_KCAL, PROCNT, FAT, CHOCDF, SUGAR, NA] = INGREDIENTS[key].per100g;
  const [FIBTG, FASAT, FAMS, FAPU, CHOLE, added, K, CA, FE, VITC] = INGREDIENTS[key].more;
  return { ENERC_KCAL, PROCNT, FAT, CHOCDF, SUGAR, NA, FIBTG, FASAT, FAMS, FAPU, CHOLE, "SUGAR.added": added, K, CA, FE, VITC };
}
