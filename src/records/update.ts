/**
 * The update operation's fields (POST /v2/nutrition/confirm/quantity; docs/api.md, the update
 * operation and update rules): the one definition of the payload the CLI builds from flags
 * (set-quantity, set-modifiers, undo) and files (intake apply), and of what the sandbox accepts.
 * Both check fields with the validators compiled from these schemas (./compiled.ts);
 * `validateUpdateShape` (src/intake/update.ts) words each problem and names the rule it breaks.
 */
import * as z from "zod/mini";
import { LEVELS, MEASURES, MANUAL_KEY, SEGMENT_KEY, MAX_QUANTITY_GRAMS, MIN_QUANTITY_GRAMS } from "./fields.js";

const inRange = [z.gte(MIN_QUANTITY_GRAMS), z.lte(MAX_QUANTITY_GRAMS)];
const level = z.enum(LEVELS);
const apiMeasure = z.enum(MEASURES);
/** The CLI passes a measure name the API does not list on to the server, which judges it. */
const anyMeasure = z.string().check(z.regex(/\S/));

/** A recognition-only intake: whole grams for the intake, salt and sugar levels. */
export const RecognitionUpdateSchema = z.strictObject({
  quantity: z.optional(z.int().check(...inRange)),
  salt: z.optional(level),
  sugar: z.optional(level),
});

/** Values keyed by the positions of one form. */
const byPosition = <T extends z.core.SomeType>(position: RegExp, value: T) => z.record(z.string().check(z.regex(position)), value);
const grams = z.number().check(...inRange);

/** Grams and levels per item of a segmentation intake (1, 2, …) and of a manual one (manual1, manual2, …). */
export const SegmentationGramsSchema = byPosition(SEGMENT_KEY, grams);
export const SegmentationLevelsSchema = byPosition(SEGMENT_KEY, level);
export const ManualGramsSchema = byPosition(MANUAL_KEY, grams);
export const ManualLevelsSchema = byPosition(MANUAL_KEY, level);

/** An itemized intake: every field an object keyed by position, all positions of one form. */
function itemizedUpdate<G extends z.core.SomeType, L extends z.core.SomeType, M extends z.core.SomeType>(grams: G, levels: L, measures: M) {
  return z.strictObject({
    quantity: z.optional(grams),
    salt: z.optional(levels),
    sugar: z.optional(levels),
    oil: z.optional(levels),
    measures: z.optional(measures),
  });
}

export const SegmentationUpdateSchema = itemizedUpdate(
  SegmentationGramsSchema,
  SegmentationLevelsSchema,
  byPosition(SEGMENT_KEY, apiMeasure),
);
export const ManualUpdateSchema = itemizedUpdate(ManualGramsSchema, ManualLevelsSchema, byPosition(MANUAL_KEY, apiMeasure));
/** The update's fields as the API defines them: one of the three. */
export const UpdateFieldsSchema = z.union([RecognitionUpdateSchema, SegmentationUpdateSchema, ManualUpdateSchema]);

/** What the CLI sends: the API's fields, with any measure name. */
export const ClientSegmentationUpdateSchema = itemizedUpdate(
  SegmentationGramsSchema,
  SegmentationLevelsSchema,
  byPosition(SEGMENT_KEY, anyMeasure),
);
export const ClientManualUpdateSchema = itemizedUpdate(ManualGramsSchema, ManualLevelsSchema, byPosition(MANUAL_KEY, anyMeasure));
