/**
 * `foodctl intake`: find, inspect and correct intakes.
 *
 * How a verb is declared (the same in every `src/commands/<noun>/index.ts`):
 *   - `args` and `options` in commander's notation; shared groups come from `../spec.js`
 *     (`changeOptions()` for --dry-run/--no-verify/--strict, `YES_OPTION`); the global
 *     options are added once by `src/program.ts`.
 *   - `complete` on an option or argument gives the shell its values (see `Completion`).
 *   - `parse` reads the command line into the typed input the command module declares
 *     (`input.text("salt")`, `input.flag("allItems")`, `input.on("verify")` for `--no-verify`).
 *   - `run` loads the command module with `await import(...)` and calls it: `--help`
 *     never loads it.
 * Adding an option: one entry in `options` and one field in `parse`. Adding a verb: one
 * `verb({...})` and its name in the noun's `verbs` list.
 */
import { LEVELS, MEASURES } from "../../intake/levels.js";
import { changeOptions, readChangeFlags, verb, type Noun } from "../spec.js";

const list = verb({
  name: "list",
  description:
    "the user's intakes in a window (default: the last 7 days), oldest first: id, time, occasion, kind, foods, kcal, display image",
  options: [
    { flags: "--from <date>", description: "from this date or time (YYYY-MM-DD or ISO 8601, UTC); alone: up to now" },
    { flags: "--to <date>", description: "up to this date or time (a bare date includes the whole day); alone: the 7 days before it" },
    { flags: "--days <n>", description: "the window's length in days (default 7; over 366 needs both --from and --to)" },
  ],
  examples: [
    "foodctl intake list                      # the last 7 days",
    "foodctl intake list --days 30",
    "foodctl intake list --from 2026-11-01 --to 2026-11-07",
    "foodctl intake list --json | jq '.intakes_list[].image_id'",
  ],
  parse: (input) => ({ from: input.text("from"), to: input.text("to"), days: input.text("days") }),
  run: async (ctx, options) => (await import("./list.js")).listCommand(ctx, options),
});

const show = verb({
  name: "show",
  description: "one intake: summary, items (position, food, grams, salt, sugar, oil, measures, kcal), totals",
  args: [{ name: "<image_id>", description: "the intake's id (from `intake list`)" }],
  options: [
    {
      flags: "--nutrients <which>",
      description: "all: every nutrient code of the answer, per intake and per item (default: the six)",
      complete: ["all"],
    },
  ],
  examples: [
    "foodctl intake show 1002",
    "foodctl intake show 1002 --nutrients all",
    "foodctl intake show 1002 --json | jq .intake_info.serving_size",
    "foodctl intake show 2001 --user 102",
  ],
  parse: (input) => ({ imageId: input.arg(0), nutrients: input.text("nutrients") }),
  run: async (ctx, { imageId, nutrients }) => (await import("./show.js")).showCommand(ctx, imageId, { nutrients }),
});

const setQuantity = verb({
  name: "set-quantity",
  description: "change quantities; the recipe is rescaled and nutrition recalculated",
  args: [
    { name: "<image_id>", description: "the intake's id" },
    { name: "<values...>", description: "recognition-only: total grams (a positive integer); itemized: <pos>=<grams> per item" },
  ],
  options: changeOptions(),
  examples: [
    "foodctl intake set-quantity 1001 320",
    "foodctl intake set-quantity 1002 1=150 2=80.5",
    "foodctl intake set-quantity 1003 manual2=40 --dry-run",
  ],
  parse: (input) => ({ imageId: input.arg(0), values: input.list(1), ...readChangeFlags(input) }),
  run: async (ctx, options) => (await import("./setQuantity.js")).setQuantityCommand(ctx, options),
});

const level = (what: string) => ({ description: what, complete: LEVELS });

const setModifiers = verb({
  name: "set-modifiers",
  description: "change salt, sugar, oil levels and measures (item-level ones need the Monitor plan or higher)",
  args: [
    { name: "<image_id>", description: "the intake's id" },
    { name: "[positions...]", description: "item positions (1, 2, … or manual1, …); required for itemized intakes unless --all-items" },
  ],
  options: [
    { flags: "--salt <level>", ...level("none, low, medium or high") },
    { flags: "--sugar <level>", ...level("none, low, medium or high") },
    { flags: "--oil <level>", ...level("none, low, medium or high (itemized intakes only)") },
    { flags: "--measures <system>", description: "metric or imperial (itemized intakes only)", complete: MEASURES },
    { flags: "--all-items", description: "apply to every item of the intake" },
    ...changeOptions({ strict: "exit 7 when a requested modifier did not take effect" }),
  ],
  examples: [
    "foodctl intake set-modifiers 1002 1 2 --salt none",
    "foodctl intake set-modifiers 1002 --all-items --oil low --measures imperial",
    "foodctl intake set-modifiers 1001 --sugar none",
  ],
  parse: (input) => ({
    imageId: input.arg(0),
    positions: input.list(1),
    levels: { salt: input.text("salt"), sugar: input.text("sugar"), oil: input.text("oil"), measures: input.text("measures") },
    allItems: input.flag("allItems"),
    ...readChangeFlags(input),
  }),
  run: async (ctx, options) => (await import("./setModifiers.js")).setModifiersCommand(ctx, options),
});

const apply = verb({
  name: "apply",
  description: "apply many changes from JSON Lines or CSV; one result per change (JSON Lines when piped)",
  args: [{ name: "<file>", description: "JSON Lines or CSV file of changes, or - for stdin" }],
  options: [
    {
      flags: "--format <format>",
      description: "input format (default: from the file extension, else from the content)",
      choices: ["jsonl", "csv"],
    },
    { flags: "--concurrency <n>", description: "intakes changed at once, 1 to 64 (default 4); one intake's changes go in file order" },
    { flags: "--continue-on-error", description: "keep sending after a failed change (a 401 or an unreachable API still stops the batch)" },
    { flags: "--results <file>", description: "also append each result as a JSON line to this file (created 0600)" },
    {
      flags: "--skip-applied <results>",
      description: "skip lines whose result in this earlier results file was applied (same line and image_id)",
    },
    ...changeOptions({
      strict: "count a change whose modifiers did not take effect as failed",
      dryRun: "validate and print the requests without sending",
      verify: "skip the read before and after each change",
    }),
  ],
  examples: [
    "foodctl intake apply fixes.jsonl --results results.jsonl",
    "foodctl intake apply fixes.csv --continue-on-error > results.jsonl",
    "jq -c '.[]' fixes.json | foodctl intake apply - --results results.jsonl",
    "foodctl intake apply fixes.jsonl --skip-applied results.jsonl --results results.jsonl",
  ],
  parse: (input) => ({
    file: input.arg(0),
    format: input.text("format"),
    concurrency: input.text("concurrency"),
    continueOnError: input.flag("continueOnError"),
    results: input.text("results"),
    skipApplied: input.text("skipApplied"),
    ...readChangeFlags(input),
  }),
  run: async (ctx, options) => (await import("./apply.js")).applyCommand(ctx, options),
});

export const intake: Noun = {
  name: "intake",
  description: "find, inspect and correct intakes",
  examples: ["foodctl intake list --from 2026-11-01", "foodctl intake show 1002", "foodctl intake set-quantity 1002 1=150"],
  verbs: [list, show, setQuantity, setModifiers, apply],
};
