/**
 * A line of the journal (docs/journal.md): a "begin" record written before a change is sent, a
 * "complete" record after. The one definition: the reader checks every line with the validator
 * compiled from this schema (./compiled.ts) and skips, counting it, a line it refuses; the types of
 * src/journal/ are this schema's. Unknown keys pass the check (the compiled validator checks what
 * zod accepts as input), so a newer foodctl's records stay readable.
 */
import * as z from "zod/mini";
import { INTAKE_KINDS } from "./fields.js";

const text = z.nullable(z.string());

export const PositionStateSchema = z.object({
  /** null for a recognition-only intake's one row. */
  position: text,
  grams: z.nullable(z.number()),
  salt: text,
  sugar: text,
  oil: text,
  measures: text,
});

export const IntakeStateSchema = z.object({
  kind: z.enum([...INTAKE_KINDS, "unknown"]),
  items: z.array(PositionStateSchema),
  display_image: z.object({ attached: z.boolean(), url: text }),
});

/** A kept display image, relative to the journal's folder: only `images/<entry id>`, so retention and undo never reach outside it. */
export const ImageCopySchema = z.object({
  file: z.string().check(z.regex(/^images\/[0-9a-z]{1,64}$/)),
  bytes: z.number(),
  sha256: z.string(),
});

/** Who acted (docs/journal.md, who and why): the token's subject and role when its claims tell them. */
export const ActorSchema = z.object({
  subject: text,
  role: text,
});

/** A field this change set that the read-back shows holding another value: another writer changed it meanwhile. */
export const OverwrittenSchema = z.object({
  position: text,
  field: z.string(),
  sent: z.string(),
  now: z.string(),
});

/** A field this change did not set that differs between the read before and the read-back. */
export const OthersChangeSchema = z.object({
  position: text,
  field: z.string(),
  was: z.string(),
  now: z.string(),
});

export const BeginRecordSchema = z.object({
  record: z.literal("begin"),
  id: z.string(),
  time: z.string(),
  profile: z.string(),
  api_url: z.string(),
  user_id: z.nullable(z.number()),
  image_id: z.number(),
  command: z.string(),
  batch_id: z.optional(z.string()),
  undo_of: z.optional(z.string()),
  request: z.object({ method: z.string(), url: z.string(), body: z.unknown() }),
  before: z.nullable(IntakeStateSchema),
  image_copy: z.optional(z.nullable(ImageCopySchema)),
  /** Why something is missing: no copy of a large image, no before state without a read. */
  notes: z.optional(z.array(z.string())),
  actor: z.optional(ActorSchema),
  /** --reason, or a batch line's reason: a ticket, a sentence. */
  reason: z.optional(z.string()),
});

export const CompleteRecordSchema = z.object({
  record: z.literal("complete"),
  id: z.string(),
  time: z.string(),
  outcome: z.enum(["applied", "failed"]),
  /** This change's result; null when unknown or when another writer changed what it set (then see `found`). */
  after: z.nullable(IntakeStateSchema),
  /** The read-back as found when another writer overwrote what this change set: not this change's result. */
  found: z.optional(IntakeStateSchema),
  overwritten: z.optional(z.array(OverwrittenSchema)),
  others_changed: z.optional(z.array(OthersChangeSchema)),
  notes: z.optional(z.array(z.string())),
  error: z.optional(z.string()),
});

export const JournalRecordSchema = z.union([BeginRecordSchema, CompleteRecordSchema]);

export type IntakeState = z.infer<typeof IntakeStateSchema>;
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type Actor = z.infer<typeof ActorSchema>;
export type Overwritten = z.infer<typeof OverwrittenSchema>;
export type OthersChange = z.infer<typeof OthersChangeSchema>;
