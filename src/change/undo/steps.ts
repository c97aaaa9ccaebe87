/**
 * The steps of undoing one journal entry, shared by `undo <id>`/`--last` and `undo --batch`:
 * plan it from the entry, read the intake, refuse (exit 7, nothing sent) when it changed since,
 * send the before state back through the change paths, and check that it came back.
 */
import type { ApiClient } from "../../api/client.js";
import { changeDisplayImage } from "../displayImageChange.js";
import { runIntakeUpdate } from "../intakeUpdate.js";
import type { ChangeOptions, UpdateOutcome } from "../pipeline.js";
import type { Context } from "../../context.js";
import { rejectedError } from "../../errors.js";
import { IMAGE_EXTENSIONS, sniffImageType } from "../../intake/imageType.js";
import type { JournalEntry } from "../../journal/entry.js";
import type { JournalRecorder } from "../../journal/recorder.js";
import type { JournalStore } from "../../journal/store.js";
import { intakeState, show, stateDifferences, type IntakeState, type StateDifference, type StateField } from "../../journal/state.js";
import { forceReason, planUndo, undoLeftovers, type UndoAction } from "../../journal/undoPlan.js";
import { describeDifferences } from "../../output/journal.js";
import type { Intake } from "../../records/intake.js";

export interface UndoRun {
  ctx: Context;
  client: ApiClient;
  journal: JournalRecorder | undefined;
  /** Where the journal keeps the display images changes replaced. */
  store: JournalStore;
  force: boolean;
  dryRun: boolean;
  /** With dryRun: each request as a curl command. */
  curl: boolean;
  verify: boolean;
}

/** An entry ready to be undone: what to send, for whom, and the intake as read just now. */
export interface ReadyUndo {
  entry: JournalEntry;
  action: UndoAction;
  client: ApiClient;
  current: Intake;
  state: IntakeState;
}

/** What undo would send for this entry; refused (exit 7, nothing sent) when the entry cannot be undone. */
export function planEntryUndo(entry: JournalEntry): UndoAction {
  const plan = planUndo(entry);
  if (plan.problem !== null) throw rejectedError(plan.problem, { hint: "nothing was sent" });
  return plan.action;
}

/** Refused (exit 7, nothing sent) without --force when the entry's after state is unknown: undo cannot tell what changed since. */
export function refuseUnknownAfter(run: Pick<UndoRun, "force">, entry: JournalEntry): void {
  const reason = forceReason(entry);
  if (reason && !run.force)
    throw rejectedError(`${reason}: undo cannot tell whether the intake is as the change left it`, {
      hint: `nothing was sent; check with \`foodctl intake show ${entry.image_id}\`, then pass --force`,
    });
}

/** Reads the intake, acting for the user the change was sent for (user_id in its URL), whatever this run's --user says. */
export async function readForUndo(
  run: UndoRun,
  entry: JournalEntry,
  action: UndoAction,
  known?: Intake,
  /** Cancels this read (undo --batch's Ctrl-C: nothing is sent for the entry yet), never the undo itself. */
  readSignal?: AbortSignal,
): Promise<ReadyUndo> {
  const client = run.client.derive({
    userId: /[?&]user_id=/.test(entry.request.url) && entry.user_id !== null ? entry.user_id : undefined,
  });
  // `known`: the intake as the undo before it in the same lane read it back, just now (undo --batch).
  const current = known ?? (await (readSignal ? client.derive({ signal: readSignal }) : client).getIntake(entry.image_id)).data.intake_info;
  return { entry, action, client, current, state: intakeState(current) };
}

/**
 * Refuses (exit 7, nothing sent) an entry whose read-back showed another writer's value in a field
 * it set: undoing it would overwrite that writer's change. Names each such field's value now; with
 * --force, a warning, and undo puts back only the fields the entry set.
 */
export function refuseOverwritten(run: UndoRun, ready: ReadyUndo): void {
  const { entry } = ready;
  if (!entry.overwritten.length) return;
  const fields = entry.overwritten.map((field) => {
    const item = ready.state.items.find((candidate) => candidate.position === field.position);
    const now =
      field.field === "display image"
        ? ready.state.display_image.attached
          ? "attached"
          : "none"
        : item
          ? show(item[field.field as StateField])
          : "gone";
    const where = field.position === null ? "" : `${field.position} `;
    return `${where}${field.field} is ${now} now (the entry sent ${field.sent}; another writer's ${field.now} was found)`;
  });
  const message = `entry ${entry.id} was overwritten by another writer: intake ${entry.image_id} ${fields.join("; ")}`;
  if (!run.force)
    throw rejectedError(message, {
      hint: "nothing was sent; undoing it would overwrite the other writer's value: pass --force to put the entry's before state back anyway",
    });
  run.ctx.warn(`${message} (--force: undoing anyway)`);
}

/** Refuses (exit 7) when the intake is no longer as the entry left it; with --force, a warning. */
export function refuseChangedSince(run: UndoRun, ready: ReadyUndo): void {
  const { entry } = ready;
  const changedSince = entry.after ? stateDifferences(entry.after, ready.state) : [];
  if (!changedSince.length) return;
  const message = `intake ${entry.image_id} changed since entry ${entry.id} (as it left it → now): ${describeDifferences(changedSince)}`;
  if (!run.force)
    throw rejectedError(message, {
      hint: "nothing was sent; pass --force to put the entry's before state back anyway",
    });
  run.ctx.warn(`${message} (--force: undoing anyway)`);
}

/** What the undo moves, field by field: `was` is the value now, `now` the one it puts back. */
export function plannedChanges(ready: ReadyUndo): StateDifference[] {
  const { entry } = ready;
  if (!entry.before) return [];
  return undoLeftovers({ ...entry, before: entry.before }, ready.action, ready.state).map((difference) => ({
    ...difference,
    was: difference.now,
    now: difference.was,
  }));
}

/** Sends the undo; exit 7 when the intake read back is not as the entry found it. */
export async function sendUndo(run: UndoRun, ready: ReadyUndo, beforeSending?: () => void): Promise<UpdateOutcome> {
  const { entry, action, client, current } = ready;
  const options: ChangeOptions = {
    dryRun: run.dryRun,
    verify: run.verify,
    precheck: true,
    before: current,
    journal: run.journal,
    undoOf: entry.id,
  };
  const warn = (message: string) => run.ctx.warn(message);
  let outcome: UpdateOutcome;
  if (action.kind === "update") {
    outcome = await runIntakeUpdate(client, entry.image_id, action.fields, options, beforeSending);
  } else {
    beforeSending?.();
    outcome =
      action.kind === "remove"
        ? await changeDisplayImage(client, current, { kind: "remove" }, options, warn)
        : await changeDisplayImage(client, current, { kind: "attach", image: await savedImage(run, entry, action.copy) }, options, warn);
  }
  return outcome;
}

/** After the undo: exit 7 when the fields it put back still differ from the entry's before state. */
export function refuseNotBack(entry: JournalEntry, action: UndoAction, outcome: UpdateOutcome): void {
  if (!outcome.after || !entry.before) return;
  const left = undoLeftovers({ ...entry, before: entry.before }, action, intakeState(outcome.after));
  if (left.length)
    throw rejectedError(`undo of ${entry.id} was sent, but intake ${entry.image_id} is not back: ${describeDifferences(left)}`);
}

/** The saved copy an undo uploads, for `--curl` (the command reads it from the journal's folder when it runs). */
export function savedImagePath(run: UndoRun, action: UndoAction): string | undefined {
  return action.kind === "attach" ? run.store.imagePath(action.copy) : undefined;
}

async function savedImage(run: UndoRun, entry: JournalEntry, copy: Extract<UndoAction, { kind: "attach" }>["copy"]) {
  const bytes = await run.store.readImage(copy);
  const contentType = bytes ? sniffImageType(bytes) : null;
  if (!bytes || !contentType)
    throw rejectedError(`the saved copy of entry ${entry.id}'s display image (${copy.file}) is gone or changed`, {
      hint: "nothing was sent",
    });
  return { bytes, filename: `display-image.${IMAGE_EXTENSIONS[contentType]}`, contentType };
}
