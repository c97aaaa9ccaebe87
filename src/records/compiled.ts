/**
 * The records checked at run time. `node scripts/records.mjs` (run by the build and by `npm test`)
 * compiles each schema here into a plain validator of ./validators/ (build output, not committed),
 * so a run checks with the schema's rules without loading zod.
 */
import type * as z from "zod/mini";
import { ConfigFileSchema } from "./config.js";
import {
  ErrorBodySchema,
  IntakeListResponseSchema,
  IntakeResponseSchema,
  IntakeSchema,
  NutritionSchema,
  PeriodTotalsSchema,
} from "./intake.js";
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
import { IntakeStateSchema, JournalRecordSchema } from "./journal.js";
import { SandboxRecordSchema } from "./sandboxes.js";

/**
 * By group: the records one validators module holds (validators/<group>.js), and the parts
 * several of them share (or one holds twice), each compiled once into a validator the records call.
 * A run loads a group's module only when it checks one of its records.
 */
export const COMPILED_GROUPS = {
  intake: {
    records: {
      IntakeResponse: IntakeResponseSchema,
      IntakeListResponse: IntakeListResponseSchema,
      /** One record of a list that did not pass as a whole, checked alone. */
      Intake: IntakeSchema,
      ErrorBody: ErrorBodySchema,
      /** The history list's period totals, checked alone: a list is read without them. */
      PeriodTotals: PeriodTotalsSchema,
    },
    parts: { Nutrition: NutritionSchema },
  },
  config: { records: { ConfigFile: ConfigFileSchema }, parts: {} },
  update: {
    records: {
      RecognitionUpdate: RecognitionUpdateSchema,
      SegmentationUpdate: SegmentationUpdateSchema,
      ManualUpdate: ManualUpdateSchema,
      ClientSegmentationUpdate: ClientSegmentationUpdateSchema,
      ClientManualUpdate: ClientManualUpdateSchema,
    },
    parts: {
      SegmentationGrams: SegmentationGramsSchema,
      SegmentationLevels: SegmentationLevelsSchema,
      ManualGrams: ManualGramsSchema,
      ManualLevels: ManualLevelsSchema,
    },
  },
  journal: { records: { JournalRecord: JournalRecordSchema }, parts: { IntakeState: IntakeStateSchema } },
  sandboxes: { records: { SandboxRecord: SandboxRecordSchema }, parts: {} },
};

type Groups = typeof COMPILED_GROUPS;
type RecordsOf<Group extends keyof Groups> = Groups[Group]["records"];
type AllRecords = RecordsOf<"intake"> & RecordsOf<"config"> & RecordsOf<"update"> & RecordsOf<"journal"> & RecordsOf<"sandboxes">;
export type CompiledRecords = { [Name in keyof AllRecords]: z.infer<AllRecords[Name]> };
