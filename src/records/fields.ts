/** The contract's names and bounds (docs/api.md), for the rules (src/intake/), the client (src/api/) and the sandbox alike. */

/** Salt, sugar and oil levels, lowest to highest (docs/api.md, levels and measures). */
export const LEVELS = ["none", "low", "medium", "high"] as const;
export type Level = (typeof LEVELS)[number];

/** Measurement systems the sandbox accepts; the CLI passes other strings through. */
export const MEASURES = ["metric", "imperial"] as const;
export type Measure = (typeof MEASURES)[number];

export const MODIFIERS = ["salt", "sugar", "oil"] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** Plan tiers, lowest to highest (docs/api.md, users and tokens). */
export const PLANS = ["Free", "Analyse", "Monitor", "Recommend", "Custom"] as const;
export type Plan = (typeof PLANS)[number];

export const INTAKE_KINDS = ["recognition", "segmentation", "manual"] as const;
export type IntakeKind = (typeof INTAKE_KINDS)[number];

/** A position key of each form: 1, 2, 3 … (segmentation), manual1, manual2 … (manual); update payloads key their objects with these. */
export const SEGMENT_KEY = /^[1-9][0-9]{0,8}$/;
export const MANUAL_KEY = /^manual[1-9][0-9]{0,8}$/;

/** Quantities lie between these, in grams (docs/api.md, the update operation): 0.1 g, since 5e-324 is a number, not a portion. */
export const MIN_QUANTITY_GRAMS = 0.1;
export const MAX_QUANTITY_GRAMS = 100_000;

/** Display image size limit: 1 MiB (docs/api.md, display images). */
export const MAX_DISPLAY_IMAGE_BYTES = 1_048_576;
/** The multipart file field the API reads the display image from. */
export const DISPLAY_IMAGE_FIELD = "image";
