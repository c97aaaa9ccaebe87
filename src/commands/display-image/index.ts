/** `foodctl display-image`: the presentation image of a manual intake. */
import { GLOBALS } from "../globals.js";
import { arg, changeOptions, group, verb, YES_OPTION } from "../spec.js";

const IMAGE_ID = arg("<image_id>", "a manual intake's id");

const attach = verb("attach", "attach or replace the presentation image (no recognition, no nutrition change)", {
  globals: GLOBALS.change,
  args: { imageId: IMAGE_ID, file: arg("<file>", "JPEG, PNG, GIF or WebP of at most 1 MiB, or - for stdin") },
  options: changeOptions(),
  examples: `
    foodctl display-image attach 1003 photo.jpg
    curl -s https://example.com/p.png | foodctl display-image attach 1003 -
  `,
  run: async (ctx, options) => (await import("./attach.js")).attachCommand(ctx, options),
});

const remove = verb("remove", "remove the display image; the intake shows its normal image again", {
  globals: GLOBALS.change,
  args: { imageId: IMAGE_ID },
  options: { yes: YES_OPTION, ...changeOptions() },
  examples: `
    foodctl display-image remove 1005
    foodctl display-image remove 1005 --yes --json
  `,
  run: async (ctx, options) => (await import("./remove.js")).removeCommand(ctx, options),
});

export const displayImage = group("display-image", "attach or remove the display image of a manual intake", {
  examples: `
    foodctl display-image attach 1003 photo.jpg
    foodctl display-image remove 1005 --yes
  `,
  verbs: [attach, remove],
});
