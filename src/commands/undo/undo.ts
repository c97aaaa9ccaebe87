/**
 * `foodctl undo <id> | --last | --batch <results file | batch id>`: puts an intake back to a
 * journal entry's before state, through the same change paths (and so the same journal) as the
 * commands that changed it. Refuses (exit 7) when the intake changed since, unless --force.
 */
import type { ApiClient } from "../../api/client.js";
import { changeDisplayImage } from "../../change/displayImageChange.js";
import { runIntakeUpdate } from "../../change/intakeUpdate.js";
import type { ChangeOptions, UpdateOutcome } from "../../change/pipeline.js";
import { sniffImageType, IMAGE_EXTENSIONS } from "../../intake/imageType.js";
import type { Context } from "../../context.js";
import { cancelledError, rejectedError, usageError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import type { JournalRecorder } from "../../journal/recorder.js";
import { intakeState, stateDifferences } from "../../journal/state.js";
import { undoQuery } from "../../journal/query.js";
import { forceReason, planUndo, undoLeftovers, type UndoAction } from "../../journal/undoPlan.js";
import { describeDifferences } from "../../output/journal.js";
import { askYesNo, requireAnswerable } from "../confirm.js";
import { journalStore, openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";
import { undoTargets } from "./targets.js";

interface UndoRun {
  ctx: Context;
  client: ApiClient;
  journal: JournalRecorder | undefined;
  force: boolean;
  dryRun: boolean;
  verify: boolean;
}

export interface UndoOptions extends Pick<ChangeFlags, "dryRun" | "verify"> {
  id: string | undefined;
  last: boolean;
  batch: string | undefined;
  force: boolean;
  yes: boolean;
}

export async function undoCommand(ctx: Context, options: UndoOptions): Promise<number> {
  const targets = undoTargets((await journalStore(ctx).query(undoQuery(options))).entries, options);
  requireAnswerable(ctx, options, "undo");
  const apiUrl = ctx.apiUrl().href.replace(/\/$/, "");
  const elsewhere = targets.find((entry) => entry.api_url !== apiUrl);
  if (elsewhere)
    throw usageError(`entry ${elsewhere.id} was sent to ${elsewhere.api_url}, not ${apiUrl}`, {
      hint: "nothing was sent; run undo with that API URL (--api-url or --profile)",
    });
  const dryRun = options.dryRun;
  const run: UndoRun = {
    ctx,
    client: await ctx.client(),
    journal: dryRun ? undefined : await openJournal(ctx, "undo"),
    force: options.force,
    dryRun,
    verify: options.verify,
  };
  if (targets.length > 1 && !dryRun && !options.yes) {
    const question = `Undo ${targets.length} changes of batch ${targets[0]!.batch_id ?? "?"} (last line first)?`;
    if (!(await askYesNo(ctx, question))) throw cancelledError("cancelled: nothing was sent");
  }
  for (const entry of targets) await undoOne(run, entry, targets.length === 1 && !options.yes);
  return 0;
}

async function undoOne(run: UndoRun, entry: JournalEntry, ask: boolean): Promise<void> {
  const { ctx } = run;
  const plan = planUndo(entry);
  if (plan.problem !== null) throw rejectedError(plan.problem, { hint: "nothing was sent" });
  const reason = forceReason(entry);
  if (reason && !run.force)
    throw rejectedError(`${reason}: undo cannot tell whether the intake is as the change left it`, {
      hint: "nothing was sent; check with `foodctl intake show`, then pass --force",
    });
  // Acting for the user the change was sent for (user_id in its URL), whatever this run's --user says.
  const client = run.client.derive({
    userId: /[?&]user_id=/.test(entry.request.url) && entry.user_id !== null ? entry.user_id : undefined,
  });
  const current = (await client.getIntake(entry.image_id)).data.intake_info;
  const changedSince = entry.after ? stateDifferences(entry.after, intakeState(current)) : [];
  if (changedSince.length) {
    const message = `intake ${entry.image_id} changed since entry ${entry.id} (as it left it → now): ${describeDifferences(changedSince)}`;
    if (!run.force) throw rejectedError(message, { hint: "nothing was sent; pass --force to put the entry's before state back anyway" });
    ctx.warn(`${message} (--force: undoing anyway)`);
  }
  if (ask && !run.dryRun && !(await askYesNo(ctx, `Undo ${entry.command} ${entry.id} on intake ${entry.image_id}?`)))
    throw cancelledError("cancelled: nothing was sent");
  const options: ChangeOptions = {
    dryRun: run.dryRun,
    verify: run.verify,
    precheck: true,
    before: current,
    journal: run.journal,
    undoOf: entry.id,
  };
  const outcome = await sendUndo(run, client, entry, plan.action, options, current);
  await reportChange(ctx, outcome, { strict: false, action: `undo of ${entry.id}` });
  if (outcome.after && entry.before) {
    const left = undoLeftovers({ ...entry, before: entry.before }, plan.action, intakeState(outcome.after));
    if (left.length)
      throw rejectedError(`undo of ${entry.id} was sent, but intake ${entry.image_id} is not back: ${describeDifferences(left)}`);
  }
}

async function sendUndo(
  run: UndoRun,
  client: ApiClient,
  entry: JournalEntry,
  action: UndoAction,
  options: ChangeOptions,
  current: Parameters<typeof changeDisplayImage>[1],
): Promise<UpdateOutcome> {
  const warn = (message: string) => run.ctx.warn(message);
  if (action.kind === "update") return runIntakeUpdate(client, entry.image_id, action.fields, options);
  if (action.kind === "remove") return changeDisplayImage(client, current, { kind: "remove" }, options, warn);
  const bytes = await journalStore(run.ctx).readImage(action.copy);
  const contentType = bytes ? sniffImageType(bytes) : null;
  if (!bytes || !contentType)
    throw rejectedError(`the saved copy of entry ${entry.id}'s display image (${action.copy.file}) is gone or changed`, {
      hint: "nothing was sent",
    });
  const image = { bytes, filename: `display-image.${IMAGE_EXTENSIONS[contentType]}`, contentType };
  return changeDisplayImage(client, current, { kind: "attach", image }, options, warn);
}
