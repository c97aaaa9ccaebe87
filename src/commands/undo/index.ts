/** `foodctl undo`: put an intake back as a journaled change found it. */
import { GLOBALS } from "../globals.js";
import {
  arg,
  changeOptions,
  commandNoun,
  DEFAULT_CONCURRENCY,
  forceOption,
  MAX_CONCURRENCY,
  option,
  parseConcurrency,
  parseResultsFile,
  verb,
  YES_OPTION,
} from "../spec.js";

const undo = verb("undo", "put an intake back as a journaled change found it (refused, exit 7, if the intake changed since)", {
  globals: GLOBALS.change,
  args: { id: arg("[id]", "the journal id of the change to undo (see `foodctl journal`)") },
  options: {
    last: option("--last", "undo the newest journal entry made with the profile in use (its name and API URL)"),
    batch: option(
      "--batch <results>",
      "every applied line of one `intake apply` run (its results file or batch id), last line first; different intakes at once",
    ),
    results: option("--results <file>", "with --batch: also append each entry's result to this file, as JSON Lines", {
      parse: parseResultsFile,
    }),
    concurrency: option(
      "--concurrency <n>",
      `with --batch: intakes undone at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY}); one intake's entries go last line first`,
      { parse: parseConcurrency },
    ),
    force: forceOption(
      "undo even when the intake changed since, another writer overwrote the entry's change, or its after state is unknown",
    ),
    yes: YES_OPTION,
    ...changeOptions({ verify: "skip reading the intake again after the undo" }),
  },
  examples: `
    foodctl undo --last
    foodctl undo mwthfvke01j6 --dry-run
    foodctl undo --batch results.jsonl --yes
    foodctl undo --batch results.jsonl --yes --json | jq .summary
    foodctl undo --batch results.jsonl --yes --concurrency 8
    foodctl undo --last --yes --reason "TICKET-311 customer asked to revert"
  `,
  run: async (ctx, options) => (await import("./undo.js")).undoCommand(ctx, options),
});

export const undoNoun = commandNoun(undo);
