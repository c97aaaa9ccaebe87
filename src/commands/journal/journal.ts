/** `foodctl journal` and `foodctl journal show <id>`: what foodctl changed, newest first. */
import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import { parsePositiveId } from "../../intake/ids.js";
import type { JournalEntry } from "../../journal/entry.js";
import { selectEntries, type JournalFilter } from "../../journal/query.js";
import { renderJournalEntry, renderJournalRows } from "../../output/journal.js";
import { parseDateOption } from "../args.js";
import { checkedReason, journalStore } from "../journaled.js";
import { batchEntries, lookupEntry } from "../../journal/entries.js";
import { jsonDocument } from "../../sanitize.js";

export interface JournalOptions {
  intake: string | undefined;
  since: string | undefined;
  limit: string | undefined;
  batch?: string | undefined;
}

/** What `journal` shows on a terminal without --limit (docs/journal.md, the journal). */
export const TERMINAL_LIMIT = 20;

function readFilter(options: JournalOptions & { user: string | undefined; reason: string | undefined }): JournalFilter {
  const id = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const parsed = parsePositiveId(value);
    if (parsed === null) throw usageError(`--${name} must be a positive integer, got "${value}"`);
    return parsed;
  };
  const since = options.since === undefined ? undefined : parseDateOption("--since", options.since, "start").getTime();
  return {
    imageId: id("intake", options.intake),
    userId: id("user", options.user),
    since,
    limit: id("limit", options.limit),
    reason: checkedReason(options.reason),
  };
}

export async function journalCommand(ctx: Context, options: JournalOptions): Promise<number> {
  // The global --user (not FOODCTL_USER nor the profile's user) and --reason: here they filter, nothing is sent.
  const filter = readFilter({ ...options, user: ctx.globals.user, reason: ctx.globals.reason });
  const store = journalStore(ctx);
  // A person at a terminal sees the newest; a pipe and --json get every entry.
  const cut = filter.limit === undefined && !ctx.json && ctx.io.stdout.isTTY === true;
  let matching: JournalEntry[];
  if (options.batch === undefined) {
    const read = await store.select({ ...filter, limit: cut ? undefined : filter.limit });
    warnUnreadable(ctx, read.unreadable);
    matching = read.entries;
  } else {
    const read = await store.query();
    warnUnreadable(ctx, read.unreadable);
    matching = selectEntries(batchEntries(read.entries, options.batch), { ...filter, limit: undefined });
  }
  const limit = filter.limit ?? (cut ? TERMINAL_LIMIT : undefined);
  const entries = limit === undefined ? matching : matching.slice(0, limit);
  if (ctx.json) {
    ctx.io.stdout.write(jsonDocument(entries));
    return 0;
  }
  if (!entries.length) {
    ctx.info(
      `no journal entries${Object.values(filter).some((value) => value !== undefined) ? " match" : " yet"} (${journalStore(ctx).path})`,
    );
    return 0;
  }
  ctx.io.stdout.write(renderJournalRows(entries, ctx.io.stdout, ctx.io.color.stdout));
  const more = matching.length - entries.length;
  if (cut && more > 0) ctx.info(`${thousands(more)} more: --limit ${matching.length}`);
  return 0;
}

/** Lines that are not journal records (torn by a crash, edited by hand, of the wrong shape) are skipped, and counted. */
function warnUnreadable(ctx: Context, count: number): void {
  if (count > 0) ctx.warn(`${count} unreadable ${count === 1 ? "line" : "lines"} of the journal skipped`);
}

export async function journalShowCommand(ctx: Context, id: string): Promise<number> {
  const read = await journalStore(ctx).query({ keep: (record) => record.id.startsWith(id) });
  warnUnreadable(ctx, read.unreadable);
  const entry = lookupEntry(read.entries, id);
  if (ctx.json) ctx.io.stdout.write(jsonDocument(entry));
  else ctx.io.stdout.write(renderJournalEntry(entry, ctx.io.stdout, ctx.io.color.stdout));
  return 0;
}
