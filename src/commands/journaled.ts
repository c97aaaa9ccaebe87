/** The journal of the changes this run sends, set up from the settings (docs/journal.md). */
import type { Context } from "../context.js";
import { JournalRecorder } from "../journal/recorder.js";
import { JournalStore, journalDir } from "../journal/store.js";
import { usageError } from "../errors.js";
import { reasonProblem } from "../journal/reason.js";

/** --reason, checked (exit 2): not empty, one line, at most 500 characters; trimmed. Undefined when not given. */
export function checkedReason(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  const problem = reasonProblem(reason);
  if (problem) throw usageError(`--reason ${problem}`);
  return reason.trim();
}

/** The journal's folder and retention as configured. */
export function journalStore(ctx: Context): JournalStore {
  return new JournalStore(journalDir(ctx.io.env));
}

/** A recorder for this command's changes, or undefined when journaling is off (--no-journal, `journal off`). */
export async function openJournal(ctx: Context, command: string): Promise<JournalRecorder | undefined> {
  const reason = checkedReason(ctx.globals.reason);
  const settings = ctx.settings();
  if (!settings.journal.enabled) {
    if (reason !== undefined) ctx.warn("--reason is recorded only in the journal, which is off: it is not kept");
    return undefined;
  }
  const token = ctx.token();
  // An opaque token tells no subject: the entry then names only an explicit --user.
  const sub = token.claims?.sub;
  const subject = sub !== undefined && /^[1-9][0-9]*$/.test(sub) ? Number(sub) : null;
  return new JournalRecorder({
    store: journalStore(ctx),
    days: settings.journal.days,
    profile: settings.profile,
    apiUrl: ctx.apiUrl().href.replace(/\/$/, ""),
    userId: settings.user ?? subject,
    // Who acted (docs/journal.md, who and why): an opaque token tells neither.
    actor: { subject: sub ?? null, role: token.claims?.role ?? null },
    reason,
    command,
    secrets: [token.value],
    warn: (message) => ctx.warn(message),
    clock: ctx.clock,
  });
}
