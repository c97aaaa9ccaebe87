/** `foodctl journal`: the changes foodctl sent, and one entry's before → after. */
import { usageError } from "../../errors.js";
import { parsePositiveId } from "../../intake/ids.js";
import { GLOBALS } from "../globals.js";
import { arg, commandNoun, option, verb } from "../spec.js";

/** `--intake` and `--limit`: a positive whole number. */
const positiveNumber = (flag: string) => (text: string) => {
  const value = parsePositiveId(text);
  if (value === null) throw usageError(`${flag} must be a positive integer, got "${text}"`);
  return value;
};

const list = verb(
  "journal",
  "the changes foodctl sent, newest first (on a terminal the newest 20): id, time, intake, user, command, what changed, outcome, " +
    "profile (when several) and reason (--user: for that user; --reason <text>: whose reason holds the text)",
  {
    globals: GLOBALS.journal,
    options: {
      intake: option("--intake <image_id>", "only changes of this intake", { parse: positiveNumber("--intake") }),
      since: option("--since <date>", "only entries from this date or time on (a date, an ISO 8601 time or words: `foodctl help dates`)"),
      until: option("--until <date>", "only entries up to this date or time (a day: up to its end)"),
      limit: option("--limit <n>", "at most this many entries (on a terminal, 20 unless given)", { parse: positiveNumber("--limit") }),
      batch: option("--batch <results>", "only the applied lines of one `intake apply` run (its results file or batch id)"),
    },
    examples: `
      foodctl journal
      foodctl journal --intake 1002 --limit 5
      foodctl journal --batch results.jsonl
      foodctl journal --user 102 --since 2026-11-01
      foodctl journal --since yesterday --until yesterday --tz Asia/Tokyo
      foodctl journal --reason TICKET-311
      foodctl journal --json | jq '.[0]'
    `,
    run: async (ctx, options) => (await import("./journal.js")).journalCommand(ctx, options),
  },
);

const show = verb("show", "one journal entry: who acted (profile, token's subject and role, user) and why, its before → after", {
  globals: GLOBALS.journalEntry,
  args: { id: arg("<id>", "a journal id (or its unique start)") },
  examples: `
    foodctl journal show mwthfvke01j6
    foodctl journal show mwthfvke01j6 --json
  `,
  run: async (ctx, { id }) => (await import("./journal.js")).journalShowCommand(ctx, id),
});

export const journal = commandNoun(list, [show]);
