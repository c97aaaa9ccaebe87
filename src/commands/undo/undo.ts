/**
 * `foodctl undo <id> | --last | --batch <results file | batch id>`: puts an intake back to a
 * journal entry's before state, through the same change paths (and so the same journal) as the
 * commands that changed it. Refuses (exit 7) when the intake changed since, unless --force.
 * One entry here; a batch in batch.ts.
 */
import type { Context } from "../../context.js";
import { cancelledError, usageError } from "../../errors.js";
import type { JournalEntry } from "../../journal/entry.js";
import { requestKind, undoQuery } from "../../journal/query.js";
import { renderUndoPlan } from "../../output/undo.js";
import { shellQuote } from "../../sanitize.js";
import { askYesNo, requireAnswerable } from "../confirm.js";
import { journalStore, openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import { DEFAULT_CONCURRENCY, type ChangeFlags } from "../spec.js";
import {
  planEntryUndo,
  plannedChanges,
  readForUndo,
  refuseChangedSince,
  refuseNotBack,
  refuseOverwritten,
  refuseUnknownAfter,
  savedImagePath,
  sendUndo,
  type UndoRun,
} from "../../change/undo/steps.js";
import { alreadyUndoneIn } from "../../change/undo/resume.js";
import { undoTargets } from "../../change/undo/targets.js";

export interface UndoOptions extends Pick<ChangeFlags, "dryRun" | "curl" | "verify"> {
  id: string | undefined;
  last: boolean;
  batch: string | undefined;
  force: boolean;
  yes: boolean;
  results?: string | undefined;
  concurrency?: number | undefined;
}

export async function undoCommand(ctx: Context, options: UndoOptions): Promise<number> {
  if (options.results !== undefined && options.batch === undefined) throw usageError("--results goes with --batch");
  if (options.concurrency !== undefined && options.batch === undefined) throw usageError("--concurrency goes with --batch");
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Undo stays within the profile in use (docs/journal.md, profiles): its name and API URL.
  const profile = { name: ctx.settings().profile, apiUrl: ctx.apiUrl().href.replace(/\/$/, "") };
  const store = journalStore(ctx);
  const journal = (await store.query(undoQuery(options, profile))).entries;
  const targets = undoTargets(journal, options, profile.name);
  requireAnswerable(ctx, options, "undo");
  refuseOtherProfiles(targets, profile);
  // A company token cannot send the update an undo is (docs/api.md, users and tokens): refused before anything is read.
  const client = await ctx.client();
  if (!options.dryRun && targets.some((entry) => requestKind(entry) === "update")) client.refuseQuantityChangeByRole();
  const run: UndoRun = {
    ctx,
    client,
    journal: options.dryRun ? undefined : await openJournal(ctx, "undo"),
    store,
    force: options.force,
    dryRun: options.dryRun,
    curl: options.curl,
    verify: options.verify,
  };
  if (options.batch !== undefined)
    return (await import("./batch.js")).undoBatch(run, journal, targets, { ...options, batch: options.batch, concurrency });
  await undoOne(run, journal, targets[0]!, !options.yes);
  return 0;
}

/** An entry made with another profile, or sent to another API, is refused (exit 2): undo acts with the profile that made it. */
function refuseOtherProfiles(targets: readonly JournalEntry[], profile: { name: string; apiUrl: string }): void {
  const other = targets.find((entry) => entry.profile !== profile.name);
  if (other)
    throw usageError(`entry ${other.id} was made with profile ${other.profile}, not ${profile.name}`, {
      hint: `nothing was sent; undo it with that profile: foodctl --profile ${shellQuote(other.profile)} undo ${other.id}`,
    });
  const elsewhere = targets.find((entry) => entry.api_url !== profile.apiUrl);
  if (elsewhere)
    throw usageError(`entry ${elsewhere.id} was sent to ${elsewhere.api_url}, not ${profile.apiUrl}`, {
      hint: "nothing was sent; run undo with that API URL (--api-url or --profile)",
    });
}

async function undoOne(run: UndoRun, journal: readonly JournalEntry[], entry: JournalEntry, ask: boolean): Promise<void> {
  const { ctx } = run;
  const action = planEntryUndo(entry);
  refuseUnknownAfter(run, entry);
  const ready = await readForUndo(run, entry, action);
  // As undo --batch says it: the journal holds this entry's undo, and the intake still shows it.
  if (alreadyUndoneIn(journal, [entry])(entry, action, ready.state)) {
    const undo = journal.findLast((candidate) => candidate.undo_of === entry.id);
    return ctx.print({
      json: { journal_id: entry.id, image_id: entry.image_id, status: "already_undone", undone_by: undo?.id ?? null },
      note: `entry ${entry.id} was undone already${undo ? ` (by ${undo.id})` : ""}: intake ${entry.image_id} still shows it; nothing was sent`,
    });
  }
  refuseOverwritten(run, ready);
  refuseChangedSince(run, ready);
  if (ask && !run.dryRun) {
    // What will change, before the question: the values now and the ones undo puts back.
    ctx.io.stderr.write(renderUndoPlan(entry.image_id, plannedChanges(ready)));
    if (!(await askYesNo(ctx, `Undo ${entry.command} ${entry.id} on intake ${entry.image_id}?`)))
      throw cancelledError("cancelled: nothing was sent");
  }
  const outcome = await sendUndo(run, ready);
  await reportChange(ctx, outcome, {
    strict: false,
    action: `undo of ${entry.id}`,
    curl: run.curl,
    uploadPath: savedImagePath(run, action),
  });
  refuseNotBack(entry, action, outcome);
}
