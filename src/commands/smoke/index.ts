/** `foodctl smoke`: a CI smoke check of the intake API on one intake, which it leaves as it found it. */
import { usageError } from "../../errors.js";
import { GLOBALS } from "../globals.js";
import { arg, commandNoun, forceOption, option, verb } from "../spec.js";

/** `--junit -` would mix the report into the steps on stdout. */
function parseReportFile(path: string): string {
  if (path === "" || path === "-") throw usageError(`--junit needs a file name, got "${path}"`);
  return path;
}

const check = verb("smoke", "CI smoke check: auth, read, history, change, restore, display image; exit code of the first failed step", {
  globals: GLOBALS.smoke,
  args: { imageId: arg("<image_id>", "the intake to check (left as it was found)") },
  options: {
    readOnly: option("--read-only", "only auth, read and history: nothing but GET requests"),
    displayImage: option("--no-display-image", "skip the display image step"),
    junit: option("--junit <file>", "also write a JUnit XML report to this file", { parse: parseReportFile }),
    force: forceOption("restore even when the intake was changed by someone else during the check"),
  },
  examples: `
    foodctl smoke 1002
    foodctl smoke 1003 --junit smoke.xml
    foodctl smoke 1001 --read-only --json
  `,
  run: async (ctx, options) => (await import("./smoke.js")).smokeCommand(ctx, options),
});

export const smoke = commandNoun(check);
