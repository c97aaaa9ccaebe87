/**
 * Seed data of the sandbox: users, a small dish catalogue and the intakes every sandbox starts
 * with. Ids and names are fixed: tests and docs are written against them.
 */
import type { Level, Measure, Plan } from "../intake/index.js";
import type { NutrientValues } from "./nutrition.js";

export type Role = "APIUser" | "APIUserManager" | "APICompany";

export interface SeedUser {
  id: number;
  name: string;
  role: Role;
  plan: Plan | null;
  /** The APIUsers a manager or company may act for; empty for an APIUser. */
  manages: readonly number[];
}

export const SEED_USERS: readonly SeedUser[] = [
  { id: 101, name: "alice", role: "APIUser", plan: "Monitor", manages: [] },
  { id: 102, name: "bob", role: "APIUser", plan: "Analyse", manages: [] },
  { id: 103, name: "carol", role: "APIUser", plan: "Recommend", manages: [] },
  { id: 104, name: "erin", role: "APIUser", plan: "Monitor", manages: [] },
  { id: 201, name: "dave", role: "APIUserManager", plan: null, manages: [101, 102] },
  { id: 301, name: "acme", role: "APICompany", plan: null, manages: [101, 102, 103, 104] },
];

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

export function ingredientPer100g(key: IngredientKey): NutrientValues {
  const [ENERC_KCAL, PROCNT, FAT, CHOCDF, SUGAR, NA] = INGREDIENTS[key].per100g;
  const [FIBTG, FASAT, FAMS, FAPU, CHOLE, added, K, CA, FE, VITC] = INGREDIENTS[key].more;
  return { ENERC_KCAL, PROCNT, FAT, CHOCDF, SUGAR, NA, FIBTG, FASAT, FAMS, FAPU, CHOLE, "SUGAR.added": added, K, CA, FE, VITC };
}

/** A picture drawn at start-up (PNG: a plate on a table) or the embedded sample photo (JPEG). */
export type SeedImage = { format: "png"; width: number; height: number; table: string; plate: string; food: string } | { format: "jpeg" };

export interface SeedItem {
  /** 1, 2, … for segmentation; "manual1", … for manual; null for a recognition-only intake. */
  position: number | string | null;
  dish: number;
  grams: number;
  salt: Level;
  sugar: Level;
  oil: Level;
  measures: Measure;
}

export interface SeedIntake {
  imageId: number;
  owner: number;
  kind: "recognition" | "segmentation" | "manual";
  /** Manual intakes with favorites, custom recipes or barcode products are stored as APIImage. */
  storedAs: "Image" | "APIImage";
  timestamp: string;
  occasion: "breakfast" | "lunch" | "dinner" | "snack" | "other";
  userComment: string | null;
  image: SeedImage;
  displayImage: SeedImage | null;
  items: SeedItem[];
}

const item = (
  position: number | string | null,
  dish: number,
  grams: number,
  levels: { salt?: Level; sugar?: Level; oil?: Level; measures?: Measure } = {},
): SeedItem => ({
  position,
  dish,
  grams,
  salt: levels.salt ?? "medium",
  sugar: levels.sugar ?? "none",
  oil: levels.oil ?? "none",
  measures: levels.measures ?? "metric",
});

const png = (width: number, height: number, food: string, plate = "#f7f5f0", table = "#b98e5f"): SeedImage => ({
  format: "png",
  width,
  height,
  table,
  plate,
  food,
});

export const SEED_INTAKES: readonly SeedIntake[] = [
  // alice (Monitor)
  {
    imageId: 1001,
    owner: 101,
    kind: "recognition",
    storedAs: "Image",
    timestamp: "2026-11-02T12:30:00Z",
    occasion: "lunch",
    userComment: null,
    image: { format: "jpeg" },
    displayImage: null,
    items: [item(null, 509, 320, { salt: "medium", sugar: "none" })],
  },
  {
    imageId: 1002,
    owner: 101,
    kind: "segmentation",
    storedAs: "Image",
    timestamp: "2026-11-03T08:15:00Z",
    occasion: "breakfast",
    userComment: "Sunday brunch",
    image: png(64, 48, "#e8b04a"),
    displayImage: null,
    items: [
      item(1, 513, 180, { salt: "medium", oil: "low" }),
      item(2, 514, 150, { salt: "none" }),
      item(3, 503, 200, { salt: "low", sugar: "low", oil: "low" }),
    ],
  },
  {
    imageId: 1003,
    owner: 101,
    kind: "manual",
    storedAs: "Image",
    timestamp: "2026-11-04T19:05:00Z",
    occasion: "dinner",
    userComment: "Homemade, light on the parmesan",
    image: png(60, 40, "#c0462b"),
    displayImage: null,
    items: [item("manual1", 501, 350, { salt: "medium", oil: "low" }), item("manual2", 511, 100, { salt: "low", oil: "medium" })],
  },
  {
    imageId: 1004,
    owner: 101,
    kind: "manual",
    storedAs: "APIImage",
    timestamp: "2026-11-05T16:40:00Z",
    occasion: "snack",
    userComment: "Barcode 5012345678900",
    image: png(40, 40, "#7a4a24"),
    displayImage: null,
    items: [item("manual1", 510, 60, { salt: "low", sugar: "medium" })],
  },
  {
    imageId: 1005,
    owner: 101,
    kind: "manual",
    storedAs: "Image",
    timestamp: "2026-11-06T07:50:00Z",
    occasion: "breakfast",
    userComment: null,
    image: png(48, 48, "#e9dcc0"),
    displayImage: png(80, 60, "#f1c84b", "#ffffff", "#5b8c5a"),
    items: [item("manual1", 507, 250, { salt: "none", sugar: "low" })],
  },
  // bob (Analyse)
  {
    imageId: 2001,
    owner: 102,
    kind: "recognition",
    storedAs: "Image",
    timestamp: "2026-11-02T13:10:00Z",
    occasion: "lunch",
    userComment: null,
    image: png(56, 42, "#a5612c"),
    displayImage: null,
    items: [item(null, 508, 380, { salt: "low", sugar: "medium" })],
  },
  {
    imageId: 2002,
    owner: 102,
    kind: "segmentation",
    storedAs: "Image",
    timestamp: "2026-11-03T19:30:00Z",
    occasion: "dinner",
    userComment: null,
    image: { format: "jpeg" },
    displayImage: null,
    items: [item(1, 504, 320, { salt: "medium", oil: "low" }), item(2, 512, 120, { salt: "low", sugar: "medium", oil: "none" })],
  },
  {
    imageId: 2003,
    owner: 102,
    kind: "manual",
    storedAs: "Image",
    timestamp: "2026-11-04T08:00:00Z",
    occasion: "breakfast",
    userComment: "After the run",
    image: png(50, 50, "#f3efe2"),
    displayImage: null,
    items: [item("manual1", 505, 200, { salt: "none", sugar: "low" }), item("manual2", 514, 150, { salt: "none" })],
  },
  // carol (Recommend)
  {
    imageId: 3001,
    owner: 103,
    kind: "manual",
    storedAs: "Image",
    timestamp: "2026-11-05T12:45:00Z",
    occasion: "lunch",
    userComment: "Team lunch",
    image: png(64, 40, "#6f9e4c"),
    displayImage: png(96, 64, "#d9534f", "#fdfdfd", "#2e6da4"),
    items: [item("manual1", 502, 280, { salt: "medium", oil: "medium" }), item("manual2", 509, 150, { salt: "medium", oil: "low" })],
  },
  {
    imageId: 3002,
    owner: 103,
    kind: "segmentation",
    storedAs: "Image",
    timestamp: "2026-11-06T22:20:00Z",
    occasion: "other",
    userComment: null,
    image: png(60, 45, "#d9a441"),
    displayImage: null,
    items: [item(1, 506, 280, { salt: "medium", oil: "medium" }), item(2, 510, 45, { salt: "low", sugar: "medium" })],
  },
  // erin (Monitor)
  {
    imageId: 4001,
    owner: 104,
    kind: "segmentation",
    storedAs: "Image",
    timestamp: "2026-11-07T18:50:00Z",
    occasion: "dinner",
    userComment: null,
    image: png(64, 48, "#b5452f"),
    displayImage: null,
    items: [item(1, 501, 320, { salt: "medium", oil: "low" }), item(2, 512, 110, { salt: "low", sugar: "low" })],
  },
  {
    imageId: 4002,
    owner: 104,
    kind: "manual",
    storedAs: "Image",
    timestamp: "2026-11-08T10:30:00Z",
    occasion: "snack",
    userComment: null,
    image: png(44, 44, "#efe6d2"),
    displayImage: null,
    items: [item("manual1", 505, 180, { salt: "none", sugar: "medium" })],
  },
  // Positions with a gap (1 and 3 only), as the public service answers when an item was removed.
  {
    imageId: 4003,
    owner: 104,
    kind: "segmentation",
    storedAs: "Image",
    timestamp: "2026-11-09T13:15:00Z",
    occasion: "lunch",
    userComment: "Second plate taken away",
    image: png(64, 48, "#8fb04a"),
    displayImage: null,
    items: [item(1, 504, 300, { salt: "low", oil: "low" }), item(3, 511, 90, { salt: "none", oil: "medium" })],
  },
];
