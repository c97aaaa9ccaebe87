/**
 * An intake update (quantities, levels, measures), single command, batch line, undo or smoke:
 * read the intake, refuse what cannot apply before anything is sent, then describe it (--dry-run)
 * or send it through the pipeline.
 */
import type { ApiClient } from "../api/client.js";
import type { Intake } from "../records/intake.js";
import { rejectedError, usageError } from "../errors.js";
import { intakePositions } from "../intake/items.js";
import { readIntakeKind } from "../intake/kinds.js";
import { splitHeldValues, type HeldValue } from "../intake/unchanged.js";
import { checkUpdateAgainstIntake, pickUpdateFields, updateShape, validateUpdateShape, type UpdateShape } from "../intake/update.js";
import { dryRunOutcome, noChangeOutcome, sendChange, type ChangeOptions, type UpdateOutcome } from "./pipeline.js";

/** Refuses (exit 2) update fields that no intake takes, whether they came from flags, a file or a journal entry: nothing is sent. */
export function checkUpdateFields(imageId: number, fields: Record<string, unknown>): UpdateShape {
  const { shape, problems } = validateUpdateShape(fields, { strictMeasures: false });
  const problem = problems[0];
  if (problem)
    throw usageError(problem.message, { hint: problem.hint && `${problem.hint}; see them with \`foodctl intake show ${imageId}\`` });
  return shape;
}

/** Refuses update fields that cannot apply to this intake (exit 7): nothing is sent. Fields `checked` already are not checked twice. */
export function precheckUpdate(intake: Intake, fields: Record<string, unknown>, checked = false): void {
  const shape = checked ? updateShape(fields) : checkUpdateFields(intake.image_id, fields);
  const kind = readIntakeKind(intake);
  const mismatches = checkUpdateAgainstIntake(fields, shape, kind, intakePositions(intake));
  if (mismatches.length)
    throw rejectedError(`intake ${intake.image_id}: ${mismatches.map((problem) => problem.message).join("; ")}`, {
      hint: "nothing was sent",
    });
}

export async function runIntakeUpdate(
  client: ApiClient,
  imageId: number,
  fields: Record<string, unknown>,
  options: ChangeOptions,
  /** Runs once the intake is read, before anything is sent (a batch stops here when it was stopped). */
  beforeSending?: (intake: Intake) => void,
): Promise<UpdateOutcome> {
  // The token's role, when its claims tell it, refuses before anything is read or sent (docs/cli.md, the token).
  const refusal = client.quantityChangeRefusal();
  if (refusal && !options.dryRun) throw refusal;
  if (refusal) return { ...dryRunOutcome(imageId, null, client.describeUpdate({ imageId, ...fields })), wouldBeRefused: refusal };
  let before: Intake | null = options.before ?? null;
  let sending = fields;
  let unchanged: HeldValue[] = [];
  if (options.precheck) {
    const reader = options.precheckSignal ? client.derive({ signal: options.precheckSignal }) : client;
    before ??= (await reader.getIntake(imageId)).data.intake_info;
    beforeSending?.(before);
    precheckUpdate(before, fields, options.checked);
    // Only what differs from the intake as read is sent and journaled, so undo covers exactly what changed.
    ({ fields: sending, held: unchanged } = splitHeldValues(fields, before));
    if (unchanged.length && Object.keys(pickUpdateFields(sending)).length === 0)
      return noChangeOutcome(imageId, before, unchanged, options.dryRun);
  }
  const body = { imageId, ...sending };
  const request = client.describeUpdate(body);
  if (options.dryRun) return { ...dryRunOutcome(imageId, before, request), unchanged };
  const outcome = await sendChange(client, {
    imageId,
    before,
    request,
    fields: sending,
    options,
    send: () => client.confirmQuantity(body),
    journalId: options.journalId,
  });
  return { ...outcome, unchanged };
}
