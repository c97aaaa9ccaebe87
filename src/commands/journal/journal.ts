/** `foodctl journal` and `foodctl journal show <id>`: what foodctl changed, newest first. */
import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import { parsePositiveId } from "../../intake/ids.js";
import type { JournalEntry } from "../../journal/entry.js";
import { selectEntries, type JournalFilter } from "../../journal/query.js";
import { renderJournalEntry, renderJournalRows } from "../../output/journal.js";
import { checkedReason, journalStore } from "../journaled.js";
import { batchEntries, lookupEntry } from "../../journal/entries.js";

export interface JournalOptions {
  intake: number | undefined;
  since: string | undefined;
  until?: string | undefined;
  limit: number | undefined;
  batch?: string | undefined;
}

/** What `journal` shows on a terminal without --limit (docs/journal.md, the journal). */
export const TERMINAL_LIMIT = 20;

/**
 * The filter a command line names. --since and --until are read on the clock of `zone` (UTC when
 * none is known) at the instant `now`: a day is that whole day there.
 */
async function readFilter(
  options: JournalOptions & { user: string | undefined; reason: string | undefined },
  zone: string,
  now: number,
): Promise<JournalFilter> {
  const user = options.user === undefined ? undefined : parsePositiveId(options.user);
  if (user === null) throw usageError(`--user must be a positive integer, got "${options.user}"`);
  const { instantOf, readDateOption } = await import("../dateOption.js");
  const time = (flag: string, text: string | undefined, edge: "start" | "end") =>
    text === undefined ? undefined : instantOf(readDateOption(flag, text, edge, zone, now), zone, edge);
  const since = time("--since", options.since, "start");
  const until = time("--until", options.until, "end");
  if (since !== undefined && until !== undefined && since > until) {
    const { formatInstant } = await import("../../output/time.js");
    const at = (time: number) => formatInstant(new Date(time).toISOString(), zone);
    throw usageError(`--since (${at(since)}) is after --until (${at(until)})`);
  }
  return { imageId: options.intake, userId: user, since, until, limit: options.limit, reason: checkedReason(options.reason) };
}

export async function journalCommand(ctx: Context, options: JournalOptions): Promise<number> {
  // The global --user (not FOODCTL_USER nor the profile's user) and --reason: here they filter, nothing is sent.
  const zone = await ctx.timeZone();
  const filter = await readFilter({ ...options, user: ctx.globals.user, reason: ctx.globals.reason }, zone ?? "UTC", ctx.now());
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
  if (!ctx.json && !entries.length) {
    ctx.info(
      `no journal entries${Object.values(filter).some((value) => value !== undefined) ? " match" : " yet"} (${journalStore(ctx).path})`,
    );
    return 0;
  }
  await ctx.print({
    json: entries,
    text: (stream, color) => renderJournalRows(entries, stream, color, { zone, now: ctx.now() }),
    paged: true,
  });
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
  const zone = await ctx.timeZone();
  await ctx.print({
    json: entry,
    text: (stream, color) => renderJournalEntry(entry, stream, color, { zone, now: ctx.now() }),
    paged: true,
  });
  return 0;
}
