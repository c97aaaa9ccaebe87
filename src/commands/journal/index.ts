/** `foodctl journal`: the changes foodctl sent, and one entry's before → after. */
import { arg, commandNoun, option, verb } from "../spec.js";

const list = verb(
  "journal",
  "the changes foodctl sent, newest first (on a terminal the newest 20): id, time, intake, user, command, what changed, outcome, " +
    "profile (when several) and reason (--user: for that user; --reason <text>: whose reason holds the text)",
  {
    options: {
      intake: option("--intake <image_id>", "only changes of this intake"),
      since: option("--since <date>", "only entries from this date or time (YYYY-MM-DD or ISO 8601, UTC)"),
      limit: option("--limit <n>", "at most this many entries (on a terminal, 20 unless given)"),
      batch: option("--batch <results>", "only the applied lines of one `intake apply` run (its results file or batch id)"),
    },
    examples: `
      foodctl journal
      foodctl journal --intake 1002 --limit 5
      foodctl journal --batch results.jsonl
      foodctl journal --user 102 --since 2026-11-01
      foodctl journal --reason TICKET-311
      foodctl journal --json | jq '.[0]'
    `,
    run: async (ctx, options) => (await import("./journal.js")).journalCommand(ctx, options),
  },
);

const show = verb("show", "one journal entry: who acted (profile, token's subject and role, user) and why, its before → after", {
  args: { id: arg("<id>", "a journal id (or its unique start)") },
  examples: `
    foodctl journal show mwthfvke01j6
    foodctl journal show mwthfvke01j6 --json
  `,
  run: async (ctx, { id }) => (await import("./journal.js")).journalShowCommand(ctx, id),
});

export const journal = commandNoun(list, [show]);
