/**
 * The part every change shares, an update or a display image, from a single command, a batch
 * line, undo or smoke: journal it, send it, read the intake again and work out what changed and
 * which modifiers were ignored. What comes before (reading and checking) is the caller's:
 * intakeUpdate.ts and displayImageChange.ts.
 */
import type { ApiClient, ApiResult, RequestDescription } from "../api/client.js";
import type { Intake } from "../records/intake.js";
import { CliError } from "../errors.js";
import { diffIntakes, findIgnoredModifiers, type IgnoredModifier, type IntakeDiff } from "../intake/diff.js";
import type { HeldValue } from "../intake/unchanged.js";
import { READ_BACK_FAILED, type ImageCopy } from "../journal/entry.js";
import { outcomeOfError, type JournalRecorder } from "../journal/recorder.js";
import { intakeState } from "../journal/state.js";
import { checkReadBack, type OthersChange, type Overwritten, type SentChange } from "./readBack.js";

export interface ChangeOptions {
  dryRun: boolean;
  /** Read the intake after the change (and, for a batch, before it too). */
  verify: boolean;
  /** Read the intake before sending, for the pre-checks. Single commands always do. */
  precheck: boolean;
  /** The update fields passed checkUpdateFields already (a batch line as it was read, a command's arguments). */
  checked?: boolean;
  /** The intake as already read by the caller, so it is not read twice. */
  before?: Intake | undefined;
  /** Cancels the read before sending (a batch's Ctrl-C: nothing is sent for it yet), never the update itself. */
  precheckSignal?: AbortSignal | undefined;
  /** Where the change is recorded before it is sent; absent with --no-journal. */
  journal?: JournalRecorder | undefined;
  /** One id per `intake apply` run, written in its journal entries. */
  batchId?: string | undefined;
  /** The journal entry this change undoes. */
  undoOf?: string | undefined;
  /** Why the change is made (--reason, a batch line's reason), recorded in its journal entry. */
  reason?: string | undefined;
  /** The id its journal entry gets, chosen by a caller that must name the entry even when the change is cut short. */
  journalId?: string | undefined;
}

export interface UpdateOutcome {
  imageId: number;
  before: Intake | null;
  after: Intake | null;
  /** The after-read's body as received, for --json (with --no-verify: a display-image answer that carries the intake). */
  afterRaw: string | null;
  diff: IntakeDiff | null;
  ignored: IgnoredModifier[];
  /** Set instead of the rest for --dry-run. */
  dryRun: RequestDescription | null;
  /** --dry-run of a change the token's role cannot make: the refusal the real run would end with (exit 5). */
  wouldBeRefused?: CliError | undefined;
  /** The update's own answer when there was no read after it. */
  response: unknown;
  /** Fields this change set that the read-back shows holding another value: another writer changed them meanwhile. */
  overwritten: Overwritten[];
  /** Fields this change did not set that changed between the read before and the read-back. */
  othersChanged: OthersChange[];
  /** The journal entry of this change, when one was written. */
  journalId?: string | undefined;
  /** Values asked for that the intake held already, so not sent (src/intake/unchanged.ts). */
  unchanged?: HeldValue[] | undefined;
  /** Every value asked for was held already: nothing was sent (nor would be, with --dry-run) and nothing journaled. */
  noChange?: { dryRun: boolean } | undefined;
}

/** The outcome of a change whose every value the intake holds already: nothing sent, nothing recorded. */
export function noChangeOutcome(imageId: number, before: Intake, unchanged: HeldValue[], dryRun: boolean): UpdateOutcome {
  return {
    imageId,
    before,
    after: before,
    afterRaw: null,
    diff: null,
    ignored: [],
    response: null,
    dryRun: null,
    overwritten: [],
    othersChanged: [],
    unchanged,
    noChange: { dryRun },
  };
}

/** The outcome of a --dry-run: the request that would have been sent, nothing else. */
export function dryRunOutcome(imageId: number, before: Intake | null, request: RequestDescription): UpdateOutcome {
  return {
    imageId,
    before,
    after: null,
    afterRaw: null,
    diff: null,
    ignored: [],
    response: null,
    dryRun: request,
    overwritten: [],
    othersChanged: [],
  };
}

export interface Change {
  imageId: number;
  before: Intake | null;
  /** As journaled: what is sent, token masked. */
  request: RequestDescription;
  /** The update fields, to find modifiers the server ignored; {} for a display image. */
  fields: Record<string, unknown>;
  /** What the read-back is compared with; the update fields unless given (a display image). */
  sent?: SentChange | undefined;
  options: ChangeOptions;
  send: () => Promise<ApiResult<unknown>>;
  /** Journal entry id chosen beforehand (a display image copy is named after it). */
  journalId?: string | undefined;
  imageCopy?: ImageCopy | null | undefined;
  notes?: string[];
}

/** Journals the change, sends it, reads it back and completes the journal entry. */
export async function sendChange(client: ApiClient, change: Change): Promise<UpdateOutcome> {
  const { journal, batchId, undoOf, reason } = change.options;
  // The begin record takes the change's intake, request, before state, image copy and notes as they are.
  const journalId = await journal?.begin({ ...change, id: change.journalId, batchId, undoOf, reason });
  let response: ApiResult<unknown>;
  try {
    response = await change.send();
  } catch (error) {
    const outcome = outcomeOfError(error);
    if (journalId && outcome) await journal?.complete(journalId, { outcome, after: null, error });
    throw namingIntake(error, change.imageId);
  }
  let outcome: UpdateOutcome;
  try {
    outcome = await finishChange(client, change, response);
  } catch (error) {
    if (journalId) await journal?.complete(journalId, { outcome: "applied", after: null, notes: [READ_BACK_FAILED], error });
    if (error instanceof AppliedUnverifiedError) error.journalId = journalId;
    throw error;
  }
  if (journalId) {
    const { after, overwritten, othersChanged } = outcome;
    // Another writer's value is never recorded as this change's result: the read-back is kept as found.
    const result = overwritten.length && after ? { after: null, found: after } : { after };
    await journal?.complete(journalId, { outcome: "applied", ...result, overwritten, othersChanged });
  }
  return { ...outcome, journalId };
}

/** The client's hints say `<image_id>` (it does not know which intake a request changes); here it is known. */
function namingIntake(error: unknown, imageId: number): unknown {
  if (!(error instanceof CliError) || !error.hint?.includes("<image_id>")) return error;
  return new CliError(error.code, error.exitCode, error.message, {
    status: error.status,
    serviceCode: error.serviceCode,
    hint: error.hint.replaceAll("<image_id>", String(imageId)),
    cause: error,
  });
}

/** True for an answer shaped like GET intake's: `{"intake_info": {"image_id": N, ...}}`. */
function holdsIntake(response: unknown): boolean {
  if (typeof response !== "object" || response === null) return false;
  const intake = (response as { intake_info?: unknown }).intake_info;
  return typeof intake === "object" && intake !== null && typeof (intake as { image_id?: unknown }).image_id === "number";
}

/** After a change was sent: read the intake again (unless --no-verify) and compare. */
async function finishChange(client: ApiClient, change: Change, response: ApiResult<unknown>): Promise<UpdateOutcome> {
  const { imageId, before, fields } = change;
  if (!change.options.verify) {
    // The change's answer as received is printed under --json --no-verify when it carries the intake.
    const afterRaw = holdsIntake(response.data) ? response.raw : null;
    return {
      imageId,
      before,
      after: null,
      afterRaw,
      diff: null,
      ignored: [],
      response: response.data,
      dryRun: null,
      overwritten: [],
      othersChanged: [],
    };
  }
  let read;
  try {
    read = await client.getIntake(imageId);
  } catch (error) {
    throw readBackFailed(error, imageId);
  }
  const after = read.data.intake_info;
  const { overwritten, othersChanged } = checkReadBack(
    change.sent ?? { kind: "update", fields },
    before ? intakeState(before) : null,
    intakeState(after),
  );
  // A level another writer set meanwhile was not ignored by the server.
  const ignored = findIgnoredModifiers(fields, after).filter(
    (modifier) => !overwritten.some((field) => field.field === modifier.field && (modifier.position ?? null) === field.position),
  );
  return {
    imageId,
    before,
    after,
    afterRaw: read.raw,
    diff: before ? diffIntakes(before, after) : null,
    ignored,
    response: response.data,
    dryRun: null,
    overwritten,
    othersChanged,
  };
}

/**
 * The server took the change; only reading it back failed. Keeps the error's kind and exit code;
 * a batch counts it as "applied, unverified", not as failed.
 */
export class AppliedUnverifiedError extends CliError {
  /** The change's journal entry, when it was journaled. */
  journalId: string | undefined;
}

function readBackFailed(error: unknown, imageId: number): unknown {
  if (!(error instanceof CliError)) return error;
  const message =
    error.code === "interrupted"
      ? `interrupted after intake ${imageId} was changed (the server accepted it); only reading it back was cut short`
      : `intake ${imageId}: the change was applied, but reading it back failed: ${error.message}`;
  return new AppliedUnverifiedError(error.code, error.exitCode, message, {
    status: error.status,
    hint: `see the result with \`foodctl intake show ${imageId}\`; sending the same change again is safe`,
    cause: error,
  });
}
