/**
 * The update operation's fields (POST /v2/nutrition/confirm/quantity; docs/api.md, the update
 * operation and update rules) as the API defines them: the one definition of the payload the CLI
 * builds from flags (set-quantity, set-modifiers, undo) and files (intake apply).
 *
 * The CLI and the sandbox check fields with the domain's plain checks (`validateUpdateShape` in
 * src/intake/update.ts), which name each problem and the rule it breaks (the sandbox answers each
 * rule with its own service code) and keep zod off every start. A property test pins them to this
 * schema: random fields get the same verdict from both, so a rule changed in one and not the
 * other fails the suite. (The CLI alone passes measure names other than metric and imperial on to
 * the server; the pin holds with the API's strict measures.)
 */
import * as z from "zod/mini";
import { LEVELS, MEASURES } from "../intake/levels.js";
import { MAX_QUANTITY_GRAMS, MIN_QUANTITY_GRAMS } from "../intake/quantity.js";

const inRange = [z.gte(MIN_QUANTITY_GRAMS), z.lte(MAX_QUANTITY_GRAMS)];
const level = z.enum(LEVELS);

/** 1, 2, … for a segmentation intake's items; manual1, manual2, … for a manual intake's. */
const SEGMENT_POSITION = /^[1-9][0-9]{0,8}$/;
const MANUAL_POSITION = /^manual[1-9][0-9]{0,8}$/;
const position = z.string().check(z.refine((key) => SEGMENT_POSITION.test(key) || MANUAL_POSITION.test(key)));
const byPosition = <T extends z.core.SomeType>(value: T) => z.record(position, value);

/** A recognition-only intake: whole grams for the intake, salt and sugar levels. */
export const RecognitionUpdateSchema = z.strictObject({
  quantity: z.optional(z.int().check(...inRange)),
  salt: z.optional(level),
  sugar: z.optional(level),
});

/** An itemized intake: every field an object keyed by position, all positions of one form. */
export const ItemizedUpdateSchema = z
  .strictObject({
    quantity: z.optional(byPosition(z.number().check(...inRange))),
    salt: z.optional(byPosition(level)),
    sugar: z.optional(byPosition(level)),
    oil: z.optional(byPosition(level)),
    measures: z.optional(byPosition(z.enum(MEASURES))),
  })
  .check(
    z.refine((fields) => {
      const keys = Object.values(fields).flatMap((byKey) => Object.keys(byKey ?? {}));
      return keys.every((key) => SEGMENT_POSITION.test(key)) || keys.every((key) => MANUAL_POSITION.test(key));
    }, "positions mix segmentation and manual forms"),
  );

export const UpdateFieldsSchema = z.union([RecognitionUpdateSchema, ItemizedUpdateSchema]);
