/**
 * The steps of `foodctl smoke` (docs/smoke.md, steps): each one talks through the normal client and
 * the shared change pipeline, and either returns a one-line detail, asks to be skipped, or throws.
 */
import type { ApiClient } from "../../api/client.js";
import type { Intake } from "../../records/intake.js";
import { changeDisplayImage } from "../displayImageChange.js";
import { precheckUpdate, runIntakeUpdate } from "../intakeUpdate.js";
import type { ChangeOptions } from "../pipeline.js";
import type { Context } from "../../context.js";
import { CliError, failure, rejectedError } from "../../errors.js";
import { formatAmount } from "../../intake/amounts.js";
import { formatApiDateTime } from "../../intake/dates.js";
import { buildRestoreFields, buildSmokeChange, itemKcal, stateDifference, type SmokeChange } from "../../intake/editable.js";
import { readItems } from "../../intake/items.js";
import { KIND_LABELS, readIntakeKind } from "../../intake/kinds.js";
import type { JournalRecorder } from "../../journal/recorder.js";

export const STEP_NAMES = ["auth", "read", "history", "change", "restore", "display image"] as const;
export type StepName = (typeof STEP_NAMES)[number];

export interface SmokeOptions {
  readOnly: boolean;
  displayImage: boolean;
  force: boolean;
}

/** What the steps learn as they go; the next step reads it. */
export interface SmokeState {
  readonly ctx: Context;
  readonly imageId: number;
  readonly options: SmokeOptions;
  client?: ApiClient;
  original?: Intake;
  change?: SmokeChange;
  /** The update may have reached the server: restore must run. */
  changeSent?: boolean;
  /** The change was read back as made. */
  changeVerified?: boolean;
  /** Where the smoke check's own changes are recorded, like every change (opened after the auth step). */
  journal?: JournalRecorder | undefined;
  /** Opens it (the command's journal: undefined with --no-journal). */
  readonly openJournal: () => Promise<JournalRecorder | undefined>;
  /** The journal entry of the change, named before it is sent: `foodctl undo <id>` when the restore is cut short. */
  changeEntry?: string | undefined;
  /** The restore and the display image's removal run on after Ctrl-C or SIGTERM; this ends them a time limit later. */
  cleanupSignal?: AbortSignal | undefined;
  /** The restore has run (or was skipped): nothing left to put back. */
  restored?: boolean;
  /** The step running now, and the one that was running when Ctrl-C or SIGTERM came. */
  running?: StepName | undefined;
  signalDuring?: StepName | undefined;
}

/** The options every change of the smoke check is sent with: verified by the step itself, journaled. */
async function sendOptions(state: SmokeState, before: Intake, verify: boolean): Promise<ChangeOptions> {
  state.journal ??= await state.openJournal();
  return { dryRun: false, verify, precheck: false, before, journal: state.journal };
}

export type StepOutcome = string | { skip: string };

function need<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw failure(`internal: ${what} is missing`);
  return value;
}

/** 1. A token is present and the API accepts it (one read; a 403 or 404 still means it was accepted). */
export async function authStep(state: SmokeState): Promise<StepOutcome> {
  state.client = await state.ctx.client();
  try {
    await state.client.getIntake(state.imageId);
    return "token accepted";
  } catch (error) {
    const accepted = error instanceof CliError && (error.code === "not_found" || error.code === "forbidden");
    if (accepted) return `token accepted (the read answered ${error.status ?? error.code})`;
    throw error;
  }
}

/** 2. The intake reads, parses, and its kind and quantities are known. */
export async function readStep(state: SmokeState): Promise<StepOutcome> {
  const intake = (await need(state.client, "client").getIntake(state.imageId)).data.intake_info;
  if (intake.image_id !== state.imageId)
    throw failure(`asked for intake ${state.imageId}, the API answered with intake ${intake.image_id}`);
  const items = readItems(intake);
  if (!items.length || items.some((item) => item.grams === null))
    throw failure(`intake ${state.imageId} has no quantities: its kind cannot be told`);
  state.original = intake;
  const kind = KIND_LABELS[readIntakeKind(intake)];
  return `${kind}, ${items.length} ${items.length === 1 ? "item" : "items"}, ${formatAmount(itemKcal(intake, null))} kcal`;
}

/** 3. The intake is in the history list of its own day, on the user's clock (UTC when no zone is named). */
export async function historyStep(state: SmokeState): Promise<StepOutcome> {
  const intake = need(state.original, "the intake");
  const time = Date.parse(intake.timestamp ?? "");
  if (Number.isNaN(time))
    throw failure(`intake ${state.imageId} has no readable timestamp (${intake.timestamp ?? "none"}): its day is unknown`);
  const zone = (await state.ctx.timeZone()) ?? "UTC";
  const { formatInstant } = await import("../../output/time.js");
  const day = formatInstant(new Date(time).toISOString(), zone).slice(0, 10);
  const start = Date.parse(`${day}T00:00:00Z`);
  const from = formatApiDateTime(new Date(start));
  const to = formatApiDateTime(new Date(start + 86_399_000));
  const list = (await need(state.client, "client").listIntakes({ from, to })).data.intakes_list;
  if (!list.some((entry) => entry.image_id === state.imageId)) {
    throw failure(`intake ${state.imageId} is not in the history list of ${day} (${zone}) (${list.length} intakes there)`);
  }
  return `listed among ${list.length} ${list.length === 1 ? "intake" : "intakes"} of ${day} (${zone})`;
}

/** 4. One gram more on the first item (or the total), read back with its nutrition recalculated. */
export async function changeStep(state: SmokeState): Promise<StepOutcome> {
  const original = need(state.original, "the intake");
  const change = buildSmokeChange(original);
  if (!change) throw rejectedError(`intake ${state.imageId} has no quantity to change`, { hint: "nothing was sent" });
  if (change.position === null && !Number.isInteger(change.grams.before)) {
    // The restore could not send it back: a recognition-only total is whole grams (docs/api.md, update operation).
    const problem = `its total of ${change.grams.before} g is not whole grams, so it could not be restored`;
    throw rejectedError(`intake ${state.imageId}: ${problem}`, { hint: "nothing was sent" });
  }
  precheckUpdate(original, change.fields);
  state.change = change;
  const options = await sendOptions(state, original, true);
  state.changeEntry = state.journal?.newId();
  state.changeSent = true;
  const client = need(state.client, "client");
  const outcome = await runIntakeUpdate(client, state.imageId, change.fields, { ...options, journalId: state.changeEntry });
  const after = need(outcome.after, "the intake after the change");
  const where = change.position === null ? "total" : `position ${change.position}`;
  const difference = stateDifference(readItems(after), change.expected);
  if (difference) throw failure(`intake ${state.imageId}: the change to ${where} did not show as sent: ${difference}`);
  const kcal = { before: itemKcal(original, change.position), after: itemKcal(after, change.position) };
  if (kcal.before !== null && kcal.after !== null && kcal.before > 0 && !(kcal.after > kcal.before)) {
    const grams = `${formatAmount(change.grams.before)} to ${formatAmount(change.grams.after)} g`;
    throw failure(
      `intake ${state.imageId}: ${where} went from ${grams} but kcal did not rise (${formatAmount(kcal.before)} → ${formatAmount(kcal.after)})`,
    );
  }
  state.changeVerified = true;
  const grams = `${formatAmount(change.grams.before, 3)} → ${formatAmount(change.grams.after, 3)} g`;
  return `${where}: ${grams}, kcal ${formatAmount(kcal.before)} → ${formatAmount(kcal.after)}`;
}

/**
 * 5. Puts every quantity and level back, then reads the intake and compares it with the original.
 * Runs whenever the change may have reached the server, even after Ctrl-C or SIGTERM (then within a time limit).
 * A re-read equal to the original means nothing was applied: nothing to restore. One that is
 * neither the original nor what the change produced was changed by someone else: refused unless --force.
 */
export async function restoreStep(state: SmokeState): Promise<StepOutcome> {
  const client = need(state.client, "client").derive({ signal: state.cleanupSignal });
  const original = need(state.original, "the intake");
  const originalState = readItems(original);
  const current = (await client.getIntake(state.imageId)).data.intake_info;
  const currentState = readItems(current);
  if (stateDifference(currentState, originalState) === null) {
    return state.changeVerified
      ? "not needed: the intake is already as it was"
      : "not needed: nothing was applied (the intake, read again, is unchanged)";
  }
  const underneath = stateDifference(currentState, need(state.change, "the change").expected);
  if (underneath !== null && !state.options.force) {
    throw rejectedError(`intake ${state.imageId} was changed by someone else during the smoke check (${underneath}): not restored`, {
      hint: "rerun with --force to put the original values back anyway",
    });
  }
  const fields = buildRestoreFields(original);
  const outcome = await runIntakeUpdate(client, state.imageId, fields, await sendOptions(state, current, true));
  const left = stateDifference(readItems(need(outcome.after, "the intake after the restore")), originalState);
  if (left !== null) throw failure(`intake ${state.imageId} is not as it was after the restore: ${left}`);
  return underneath === null
    ? "original quantities and levels back"
    : `original values back (--force: it had been changed underneath: ${underneath})`;
}

/** A small PNG made for the display-image step: 16×16, two colours. */
async function smokePng(): Promise<Buffer> {
  const { encodePng } = await import("../../png.js");
  return encodePng(16, 16, (x, y) => ((x + y) % 4 < 2 ? [240, 160, 40] : [250, 250, 245]));
}

/** 6. On a manual intake without one: attach a display image, read it back, remove it, read it back. */
export async function displayImageStep(state: SmokeState): Promise<StepOutcome> {
  const intake = need(state.original, "the intake");
  if (!state.options.displayImage) return { skip: "--no-display-image" };
  if (readIntakeKind(intake) !== "manual" || intake.can_edit_display_image === false) return { skip: "not a manual intake" };
  if (intake.has_display_image === true) return { skip: "a display image is attached: left alone" };
  const client = need(state.client, "client");
  const warn = (message: string) => state.ctx.warn(message);
  let problem: unknown = null;
  let attached: Intake | null = null;
  try {
    const image = { bytes: await smokePng(), filename: "foodctl-smoke.png", contentType: "image/png" };
    await changeDisplayImage(client, intake, { kind: "attach", image }, await sendOptions(state, intake, false), warn);
    attached = (await client.getIntake(state.imageId)).data.intake_info;
    if (attached.has_display_image !== true)
      problem = failure(`intake ${state.imageId}: after the upload the intake shows no display image`);
  } catch (error) {
    problem = error;
  }
  // Removed whatever happened above: an upload that failed may still have been stored.
  try {
    const cleanup = client.derive({ signal: state.cleanupSignal });
    const before = attached ?? intake;
    await changeDisplayImage(cleanup, before, { kind: "remove" }, await sendOptions(state, before, false), warn);
    const removed = (await cleanup.getIntake(state.imageId)).data.intake_info;
    if (removed.has_display_image !== false)
      throw failure(`intake ${state.imageId}: after the removal the intake still shows a display image`);
    if (removed.image_url !== intake.image_url) {
      const shown = removed.image_url ?? "none";
      throw failure(`intake ${state.imageId}: after the removal the image is ${shown}, not the normal image ${intake.image_url ?? "none"}`);
    }
  } catch (error) {
    const hint = `remove it with \`foodctl display-image remove ${state.imageId} --yes\``;
    const message = error instanceof CliError ? `the display image may still be attached: ${error.message}` : "";
    problem ??= error instanceof CliError ? new CliError(error.code, error.exitCode, message, { status: error.status, hint }) : error;
  }
  if (problem !== null) throw problem;
  return "attached, read back, removed, read back";
}
