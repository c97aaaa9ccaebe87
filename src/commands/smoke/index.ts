/** `foodctl smoke`: a CI smoke check of the intake API on one intake, which it leaves as it found it. */
import { verb, type Noun } from "../spec.js";

export interface SmokeInput {
  imageId: string;
  readOnly: boolean;
  displayImage: boolean;
  force: boolean;
  junit: string | undefined;
}

const check = verb<SmokeInput>({
  name: "smoke",
  description: "CI smoke check: auth, read, history, change, restore, display image; exit code of the first failed step",
  args: [{ name: "<image_id>", description: "the intake to check (left as it was found)" }],
  options: [
    { flags: "--read-only", description: "only auth, read and history: nothing but GET requests" },
    { flags: "--no-display-image", description: "skip the display image step" },
    { flags: "--junit <file>", description: "also write a JUnit XML report to this file" },
    { flags: "--force", description: "restore even when the intake was changed by someone else during the check" },
  ],
  examples: ["foodctl smoke 1002", "foodctl smoke 1003 --junit smoke.xml", "foodctl smoke 1001 --read-only --json"],
  parse: (input) => ({
    imageId: input.arg(0),
    readOnly: input.flag("readOnly"),
    displayImage: input.on("displayImage"),
    force: input.flag("force"),
    junit: input.text("junit"),
  }),
  run: async (ctx, options) => (await import("./smoke.js")).smokeCommand(ctx, options),
});

export const smoke: Noun = {
  name: "smoke",
  description: check.description,
  examples: check.examples,
  verbs: [],
  action: check,
};
