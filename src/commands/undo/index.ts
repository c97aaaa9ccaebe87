/** `foodctl undo`: put an intake back as a journaled change found it. */
import { changeOptions, readChangeFlags, verb, YES_OPTION, type Noun } from "../spec.js";

const undo = verb({
  name: "undo",
  description: "put an intake back as a journaled change found it (refused, exit 7, if the intake changed since)",
  args: [{ name: "[id]", description: "the journal id of the change to undo (see `foodctl journal`)" }],
  options: [
    { flags: "--last", description: "undo the newest journal entry" },
    {
      flags: "--batch <results>",
      description: "every applied line of one `intake apply` run (its results file or batch id), last line first",
    },
    { flags: "--force", description: "undo even when the intake changed since, or the entry's after state is unknown" },
    YES_OPTION,
    ...changeOptions({ verify: "skip reading the intake again after the undo" }),
  ],
  examples: ["foodctl undo --last", "foodctl undo mwthfvke01j6 --dry-run", "foodctl undo --batch results.jsonl --yes"],
  parse: (input) => ({
    id: input.list(0)[0],
    last: input.flag("last"),
    batch: input.text("batch"),
    force: input.flag("force"),
    yes: input.flag("yes"),
    ...readChangeFlags(input),
  }),
  run: async (ctx, options) => (await import("./undo.js")).undoCommand(ctx, options),
});

export const undoNoun: Noun = { name: "undo", description: undo.description, examples: undo.examples, verbs: [], action: undo };
