import type { Level, Measure } from "../../records/fields.js";
/** The intakes every sandbox starts with, per seeded user; ids are fixed for tests and docs. */

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
