/**
 * The records checked at run time. `node scripts/records.mjs` compiles each schema here into a
 * plain validator of ./validators.js (generated, committed; a test fails when it is stale), so a
 * run checks with the schema's rules without loading zod.
 */
import type * as z from "zod/mini";
import { ConfigFileSchema } from "./config.js";
import { ErrorBodySchema, IntakeListResponseSchema, IntakeResponseSchema, IntakeSchema, NutritionSchema } from "./intake.js";
import {
  ClientManualUpdateSchema,
  ClientSegmentationUpdateSchema,
  ManualGramsSchema,
  ManualLevelsSchema,
  ManualUpdateSchema,
  RecognitionUpdateSchema,
  SegmentationGramsSchema,
  SegmentationLevelsSchema,
  SegmentationUpdateSchema,
} from "./update.js";

export const COMPILED_RECORDS = {
  IntakeResponse: IntakeResponseSchema,
  IntakeListResponse: IntakeListResponseSchema,
  /** One record of a list that did not pass as a whole, checked alone. */
  Intake: IntakeSchema,
  ErrorBody: ErrorBodySchema,
  ConfigFile: ConfigFileSchema,
  RecognitionUpdate: RecognitionUpdateSchema,
  SegmentationUpdate: SegmentationUpdateSchema,
  ManualUpdate: ManualUpdateSchema,
  ClientSegmentationUpdate: ClientSegmentationUpdateSchema,
  ClientManualUpdate: ClientManualUpdateSchema,
};

/** Parts of several records (or of one record twice), each compiled once into a validator the records call. */
export const SHARED_PARTS = {
  Nutrition: NutritionSchema,
  SegmentationGrams: SegmentationGramsSchema,
  SegmentationLevels: SegmentationLevelsSchema,
  ManualGrams: ManualGramsSchema,
  ManualLevels: ManualLevelsSchema,
};

export type CompiledRecords = { [Name in keyof typeof COMPILED_RECORDS]: z.infer<(typeof COMPILED_RECORDS)[Name]> };
