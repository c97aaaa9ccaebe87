/**
 * The one path every intake update takes, single command or batch line: read the intake,
 * refuse what cannot apply before anything is sent, send (or describe, for --dry-run),
 * read again and work out what changed and which modifiers were ignored.
 */
import type { ApiClient, RequestDescription } from "../../api/client.js";
import { paths } from "../../api/paths.js";
import type { Intake } from "../../api/schemas.js";
import { CliError, rejectedError, usageError } from "../../errors.js";
import { diffIntakes, findIgnoredModifiers, type IgnoredModifier, type IntakeDiff } from "../../intake/diff.js";
import { intakePositions } from "../../intake/items.js";
import { readIntakeKind } from "../../intake/kinds.js";
import { checkUpdateAgainstIntake, readUpdateShape } from "../../intake/update.js";

export interface ChangeOptions {
  dryRun: boolean;
  /** Read the intake after the change (and, for a batch, before it too). */
  verify: boolean;
  /** Read the intake before sending, for the pre-checks. Single commands always do. */
  precheck: boolean;
  /** The intake as already read by the caller, so it is not read twice. */
  before?: Intake | undefined;
  /** The `intake apply` run this change belongs to (docs/cli.md, intake apply: batch id). */
  batchId?: string | undefined;
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
  dryRun: (RequestDescription & { body: unknown }) | null;
  /** The update's own answer when there was no read after it. */
  response: unknown;
  /** The journal entry that records the change, when one was written. */
  journalId?: string | undefined;
}

/** Refuses update fields that cannot apply to this intake (exit 7): nothing is sent. */
export function precheckUpdate(intake: Intake, fields: Record<string, unknown>): void {
  const { shape, problems } = readUpdateShape(fields, { strictMeasures: false });
  if (problems.length) throw usageError(problems[0]!.message);
  const kind = readIntakeKind(intake);
  const mismatches = checkUpdateAgainstIntake(fields, shape, kind, intakePositions(intake));
  if (mismatches.length) throw rejectedError(`intake ${intake.image_id}: ${mismatches.map((problem) => problem.message).join("; ")}`, { hint: "nothing was sent" });
}

export async function runIntakeUpdate(
  client: ApiClient,
  imageId: number,
  fields: Record<string, unknown>,
  options: ChangeOptions,
  /** Extra checks on the intake before sending, e.g. which flags fit its kind. */
  check?: (intake: Intake) => void,
): Promise<UpdateOutcome> {
  let before: Intake | null = options.before ?? null;
  if (options.precheck) {
    before ??= (await client.getIntake(imageId)).data.intake_info;
    check?.(before);
    precheckUpdate(before, fields);
  }
  const body = { imageId, ...fields };
  if (options.dryRun) {
    const url = client.url(paths.confirmQuantity());
    return { imageId, before, after: null, afterRaw: null, diff: null, ignored: [], response: null, dryRun: { ...client.describe("POST", url, { "content-type": "application/json" }), body } };
  }
  const response = await client.confirmQuantity(body);
  return finishChange(client, imageId, before, response.data, options.verify, fields);
}

/** True for an answer shaped like GET intake's: `{"intake_info": {"image_id": N, ...}}`. */
function holdsIntake(response: unknown): boolean {
  if (typeof response !== "object" || response === null) return false;
  const intake = (response as { intake_info?: unknown }).intake_info;
  return typeof intake === "object" && intake !== null && typeof (intake as { image_id?: unknown }).image_id === "number";
}

/** After a change was sent: read the intake again (unless --no-verify) and compare. */
export async function finishChange(
  client: ApiClient,
  imageId: number,
  before: Intake | null,
  response: unknown,
  verify: boolean,
  fields: Record<string, unknown> = {},
  /** The change's answer as received: printed under --json --no-verify when it carries the intake. */
  responseRaw: string | null = null,
): Promise<UpdateOutcome> {
  if (!verify) {
    const afterRaw = responseRaw !== null && holdsIntake(response) ? responseRaw : null;
    return { imageId, before, after: null, afterRaw, diff: null, ignored: [], response, dryRun: null };
  }
  let read;
  try {
    read = await client.getIntake(imageId);
  } catch (error) {
    throw readBackFailed(error, imageId);
  }
  const after = read.data.intake_info;
  return {
    imageId,
    before,
    after,
    afterRaw: read.raw,
    diff: before ? diffIntakes(before, after) : null,
    ignored: findIgnoredModifiers(fields, after),
    response,
    dryRun: null,
  };
}

/** The server took the change; only reading it back failed: say so, keeping the error's kind and exit code. */
function readBackFailed(error: unknown, imageId: number): unknown {
  if (!(error instanceof CliError)) return error;
  const message =
    error.code === "interrupted"
      ? `interrupted after intake ${imageId} was changed (the server accepted it); only reading it back was cut short`
      : `intake ${imageId}: the change was applied, but reading it back failed: ${error.message}`;
  return new CliError(error.code, error.exitCode, message, {
    status: error.status,
    hint: `see the result with \`foodctl intake show ${imageId}\`; sending the same change again is safe`,
    cause: error,
  });
}
