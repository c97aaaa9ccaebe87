/** The dish catalogue: fixed ids and names, each a recipe over the ingredient table. */
import type { IngredientKey } from "./ingredients.js";

export interface Dish {
  id: number;
  name: string;
  likelyAddedSugar: boolean;
  /** Base components and their shares of the non-modifier weight (they sum to 1). */
  recipe: ReadonlyArray<readonly [IngredientKey, number]>;
}

/** The dish catalogue: what recognition can name and `image/confirm/dish` can confirm. */
export const DISHES: readonly Dish[] = [
  {
    id: 501,
    name: "Spaghetti bolognese",
    likelyAddedSugar: false,
    recipe: [
      ["spaghetti", 0.5],
      ["beefMince", 0.25],
      ["tomatoSauce", 0.2],
      ["parmesan", 0.05],
    ],
  },
  {
    id: 502,
    name: "Chicken Caesar salad",
    likelyAddedSugar: false,
    recipe: [
      ["romaine", 0.45],
      ["chickenBreast", 0.3],
      ["croutons", 0.1],
      ["caesarDressing", 0.1],
      ["parmesan", 0.05],
    ],
  },
  {
    id: 503,
    name: "Pancakes with maple syrup",
    likelyAddedSugar: true,
    recipe: [
      ["pancakes", 0.7],
      ["mapleSyrup", 0.2],
      ["butter", 0.05],
      ["blueberries", 0.05],
    ],
  },
  {
    id: 504,
    name: "Salmon with rice and broccoli",
    likelyAddedSugar: false,
    recipe: [
      ["salmon", 0.4],
      ["rice", 0.4],
      ["broccoli", 0.2],
    ],
  },
  {
    id: 505,
    name: "Greek yogurt with granola and honey",
    likelyAddedSugar: true,
    recipe: [
      ["greekYogurt", 0.6],
      ["granola", 0.3],
      ["honey", 0.1],
    ],
  },
  {
    id: 506,
    name: "Vegetable fried rice",
    likelyAddedSugar: false,
    recipe: [
      ["rice", 0.6],
      ["mixedVegetables", 0.25],
      ["scrambledEggs", 0.12],
      ["soySauce", 0.03],
    ],
  },
  {
    id: 507,
    name: "Oat porridge with banana",
    likelyAddedSugar: true,
    recipe: [
      ["porridge", 0.75],
      ["banana", 0.25],
    ],
  },
  {
    id: 508,
    name: "Teriyaki chicken with rice",
    likelyAddedSugar: true,
    recipe: [
      ["chickenThigh", 0.4],
      ["rice", 0.45],
      ["teriyakiSauce", 0.15],
    ],
  },
  {
    id: 509,
    name: "Margherita pizza",
    likelyAddedSugar: false,
    recipe: [
      ["pizzaBase", 0.55],
      ["tomatoSauce", 0.2],
      ["mozzarella", 0.25],
    ],
  },
  {
    id: 510,
    name: "Chocolate chip cookies",
    likelyAddedSugar: true,
    recipe: [
      ["cookie", 0.85],
      ["chocolateChips", 0.15],
    ],
  },
  {
    id: 511,
    name: "Mixed green salad",
    likelyAddedSugar: false,
    recipe: [
      ["romaine", 0.5],
      ["cucumber", 0.25],
      ["tomato", 0.25],
    ],
  },
  {
    id: 512,
    name: "Apple pie",
    likelyAddedSugar: true,
    recipe: [
      ["shortcrust", 0.45],
      ["appleFilling", 0.55],
    ],
  },
  {
    id: 513,
    name: "Scrambled eggs on toast",
    likelyAddedSugar: false,
    recipe: [
      ["scrambledEggs", 0.6],
      ["toast", 0.35],
      ["butter", 0.05],
    ],
  },
  {
    id: 514,
    name: "Fresh fruit salad",
    likelyAddedSugar: false,
    recipe: [
      ["apple", 0.35],
      ["banana", 0.35],
      ["blueberries", 0.15],
      ["kiwi", 0.15],
    ],
  },
];

export function findDish(id: number): Dish | undefined {
  return DISHES.find((dish) => dish.id === id);
}
