/**
 * `foodctl intake`: find, inspect and correct intakes.
 *
 * How a verb is declared (the same in every `src/commands/<noun>/index.ts`):
 *   - `args` and `options`, keyed by the field the verb reads each into, in commander's
 *     notation: `arg("<image_id>", …)` reads a string, `[id]` a string or undefined,
 *     `<values...>` a list; `option("--salt <level>", …)` reads its text, `--all-items` and
 *     `--no-verify` a boolean. An option's key is commander's name for it (`allItems`,
 *     `verify`). Shared groups come from `../spec.js` (`changeOptions()` for
 *     --strict/--dry-run/--no-verify, `YES_OPTION`, `forceOption()`); the global options
 *     are added once by `src/program.ts`.
 *   - `examples`: a shell transcript, one command a line as a user types it.
 *   - `complete` on an option or argument gives the shell its values (see `Completion`).
 *   - `parse` on an option turns its text into the value the verb reads, or refuses it with a
 *     usage error (commander's argParser): `--days 0` is refused where `--days` is declared.
 *   - `parse` (where a verb needs it) checks or reshapes what was read; a usage error there
 *     sends nothing.
 *   - `run` loads the command module with `await import(...)` and calls it with what was
 *     read: `--help` never loads it.
 * Adding an option: one entry in `options` (and the field in the command module's options).
 * Adding a verb: one `verb(name, description, {...})` and its name in the noun's `verbs` list.
 */
import { usageError } from "../../errors.js";
import { GLOBALS } from "../globals.js";
import { LEVELS, MEASURES } from "../../records/fields.js";
import { LANGUAGE_CODES } from "../../records/languages.js";
import { arg, changeOptions, forceOption, group, MAX_CONCURRENCY, option, parseConcurrency, parseResultsFile, verb } from "../spec.js";

/** What a window longer than a year needs (intake/dates.ts, MAX_WINDOW_DAYS). */
const LONG_WINDOWS = "windows over 366 days need both --from and --to";

function parseDays(text: string): number {
  if (!/^[1-9][0-9]{0,5}$/.test(text)) {
    // The hint only where the number was too large for a window at all.
    const tooLarge = /^[0-9]{7,}$/.test(text);
    throw usageError(`--days must be a whole number of days from 1, got "${text}"`, { ...(tooLarge && { hint: LONG_WINDOWS }) });
  }
  return Number(text);
}

/** `--nutrients all` prints every code of the answer; without it, the six totals. */
function parseNutrients(text: string): "all" {
  if (text === "all") return text;
  throw usageError(`--nutrients takes "all", got "${text}"`, { hint: "without it, the six main totals are shown" });
}

/** The answer's language (`language` of the profile when not given); the service's ten ISO 639-2/T codes. */
const languageOption = () =>
  option(
    "--language <code>",
    `dish names in this language: ${LANGUAGE_CODES.join(", ")} (default: the profile's language key, else the user's own)`,
    {
      complete: LANGUAGE_CODES,
    },
  );

const list = verb(
  "list",
  "the user's intakes in a window (default: the last 7 days), oldest first: id, time, occasion, kind, foods, kcal, display image",
  {
    globals: GLOBALS.read,
    options: {
      from: option(
        "--from <date>",
        "from this date or time on the user's clock (--tz): YYYY-MM-DD, ISO 8601, 3d, or words (yesterday, monday, last week); alone: up to now",
      ),
      to: option(
        "--to <date>",
        "up to this date or time, the same forms (a day, in digits or words, up to its end); alone: the 7 days before it",
      ),
      days: option("--days <n>", `the window's length in days (default 7; ${LONG_WINDOWS})`, { parse: parseDays }),
      language: languageOption(),
    },
    examples: `
      foodctl intake list                      # the last 7 days
      foodctl intake list --days 30
      foodctl intake list --from 2026-11-01 --to 2026-11-07
      foodctl intake list --tz Asia/Tokyo --from yesterday
      foodctl intake list --tz Europe/Berlin --from "last week" --to "last week"
      foodctl intake list --json | jq '.intakes_list[].image_id'
      foodctl intake list --language spa       # dish names in Spanish
      foodctl intake list --json | jq .total_intake
    `,
    run: async (ctx, options) => (await import("./list.js")).listCommand(ctx, options),
  },
);

const show = verb("show", "one intake: summary, items (position, food, grams, salt, sugar, oil, measures, kcal), totals", {
  globals: GLOBALS.read,
  args: { imageId: arg("<image_id>", "the intake's id (from `intake list`)") },
  options: {
    nutrients: option("--nutrients <which>", "all: every nutrient code of the answer, per intake and per item (default: the six)", {
      complete: ["all"],
      parse: parseNutrients,
    }),
    image: option("--image", "draw the intake's image below it (the display image when attached); piped: its URL"),
    web: option("--web", "open the intake's image in the browser"),
    language: languageOption(),
  },
  examples: `
    foodctl intake show 1002
    foodctl intake show 1002 --nutrients all
    foodctl intake show 1002 --image
    foodctl intake show 1002 --json | jq .intake_info.serving_size
    foodctl intake show 2001 --user 102
    foodctl intake show 1002 --language spa
  `,
  run: async (ctx, { imageId, nutrients, image, web, language }) =>
    (await import("./show.js")).showCommand(ctx, imageId, { nutrients, image, web, language }),
});

const IMAGE_ID = arg("<image_id>", "the intake's id");

const setQuantity = verb("set-quantity", "change quantities; the recipe is rescaled and nutrition recalculated", {
  globals: GLOBALS.change,
  args: {
    imageId: IMAGE_ID,
    values: arg("<values...>", "recognition-only: total grams (a positive integer); itemized: <pos>=<grams> per item"),
  },
  options: changeOptions(),
  examples: `
    foodctl intake set-quantity 1001 320
    foodctl intake set-quantity 1002 1=150 2=80.5
    foodctl intake set-quantity 1003 manual2=40 --dry-run
  `,
  run: async (ctx, options) => (await import("./setQuantity.js")).setQuantityCommand(ctx, options),
});

const level = (flags: `--${string} <level>`, description: string) => option(flags, description, { complete: LEVELS });

const setModifiers = verb(
  "set-modifiers",
  "change salt, sugar, oil levels and measures (item-level ones need the Monitor plan or higher)",
  {
    globals: GLOBALS.change,
    args: {
      imageId: IMAGE_ID,
      positions: arg("[positions...]", "item positions (1, 2, … or manual1, …); required for itemized intakes unless --all-items"),
    },
    options: {
      salt: level("--salt <level>", "none, low, medium or high"),
      sugar: level("--sugar <level>", "none, low, medium or high"),
      oil: level("--oil <level>", "none, low, medium or high (itemized intakes only)"),
      measures: option(
        "--measures <system>",
        "metric or imperial (itemized intakes only); the service's cooking measures and portions have no published names",
        { complete: MEASURES },
      ),
      allItems: option("--all-items", "apply to every item of the intake"),
      ...changeOptions({ strict: "exit 7 when a requested modifier did not take effect" }),
    },
    examples: `
      foodctl intake set-modifiers 1002 1 2 --salt none
      foodctl intake set-modifiers 1002 --all-items --oil low --measures imperial
      foodctl intake set-modifiers 1001 --sugar none
    `,
    parse: ({ salt, sugar, oil, measures, ...rest }) => ({ ...rest, levels: { salt, sugar, oil, measures } }),
    run: async (ctx, options) => (await import("./setModifiers.js")).setModifiersCommand(ctx, options),
  },
);

const edit = verb("edit", "change quantities and levels of an intake in your editor; sent as one update", {
  globals: GLOBALS.change,
  args: { imageId: IMAGE_ID },
  options: {
    file: option("--file <path>", "read the edited text from this file (- for stdin) instead of opening an editor"),
    reopen: option("--no-reopen", "exit 2 on a value that is not allowed, instead of opening the editor again"),
    ...changeOptions({ strict: "exit 7 when a requested modifier did not take effect" }),
  },
  examples: `
    foodctl intake edit 1002                     # opens $VISUAL, else $EDITOR, else vi
    EDITOR="code --wait" foodctl intake edit 1003
    foodctl intake edit 1002 --dry-run
    foodctl intake edit 1002 --file fixed.txt
  `,
  run: async (ctx, options) => (await import("./edit.js")).editCommand(ctx, options),
});

const apply = verb("apply", "apply many changes from JSON Lines or CSV; one result per change (JSON Lines when piped)", {
  globals: GLOBALS.batch,
  args: {
    file: arg(
      "<file>",
      "JSON Lines or CSV file of changes, or - for stdin. Keys of a JSON line: image_id, user_id (optional), quantity, salt, " +
        "sugar, oil, measures, reason (optional: recorded in the line's journal entry instead of --reason). CSV: a header line " +
        "naming the columns image_id, user_id, position, quantity, salt, sugar, oil, measures, reason (image_id and position " +
        "required), then one row an item",
    ),
  },
  options: {
    format: option("--format <format>", "input format (default: from the file extension, else from the content)", {
      choices: ["jsonl", "csv", "edit"],
    }),
    concurrency: option(
      "--concurrency <n>",
      `intakes changed at once, 1 to ${MAX_CONCURRENCY} (default 4); one intake's changes go in file order`,
      { parse: parseConcurrency },
    ),
    continueOnError: option(
      "--continue-on-error",
      "keep sending after a failed change (a 401 or an unreachable API still stops the batch)",
    ),
    results: option("--results <file>", "also append each result as a JSON line to this file (created 0600)", { parse: parseResultsFile }),
    skipApplied: option(
      "--skip-applied <results>",
      "skip lines whose result in this earlier results file was applied (same line and image_id); a file not written yet skips none",
    ),
    force: forceOption("start although the rate-limit window has fewer calls left than the batch needs (it stops at the limit)"),
    ...changeOptions({
      strict: "count a change whose modifiers did not take effect as failed",
      dryRun: "validate and print the requests without sending",
      verify: "skip the read before and after each change",
    }),
  },
  examples: `
    foodctl intake apply fixes.jsonl --results results.jsonl
    foodctl intake apply fixes.csv --continue-on-error > results.jsonl
    foodctl intake apply fixes.jsonl --skip-applied results.jsonl --results results.jsonl
    echo '{"image_id": 1002, "quantity": {"1": 150}, "salt": {"1": "low"}}' | foodctl intake apply -
    printf '%s\\n' image_id,position,quantity,salt 1002,1,150,low | foodctl intake apply -
    foodctl intake apply fixes.jsonl --reason "TICKET-311 portions of the week"
  `,
  run: async (ctx, options) => (await import("./apply.js")).applyCommand(ctx, options),
});

export const intake = group("intake", "find, inspect and correct intakes", {
  examples: `
    foodctl intake list --from 2026-11-01
    foodctl intake show 1002
    foodctl intake set-quantity 1002 1=150
  `,
  verbs: [list, show, setQuantity, setModifiers, edit, apply],
});
