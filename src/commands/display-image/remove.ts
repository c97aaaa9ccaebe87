import { changeDisplayImage, refuseUneditable } from "../../change/displayImageChange.js";
import type { Context } from "../../context.js";
import { cancelledError } from "../../errors.js";
import { parseImageIdArg } from "../args.js";
import { askYesNo, requireAnswerable } from "../confirm.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";

export interface RemoveOptions extends Pick<ChangeFlags, "dryRun" | "curl" | "verify"> {
  imageId: string;
  yes: boolean;
}

export async function removeCommand(ctx: Context, options: RemoveOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const dryRun = options.dryRun;
  requireAnswerable(ctx, options, "remove the display image");
  const client = await ctx.client();
  const read = await client.getIntake(imageId);
  const before = read.data.intake_info;
  refuseUneditable(before);
  if (!dryRun && before.has_display_image === false) {
    ctx.info(`intake ${imageId} has no display image: nothing to remove`);
    await ctx.print({ jsonBody: read.raw });
    return 0;
  }
  const question = `Remove the display image of intake ${imageId}${before.image_url ? ` (${before.image_url})` : ""}?`;
  if (!dryRun && !options.yes && !(await askYesNo(ctx, question))) throw cancelledError("cancelled: nothing was sent");
  const journal = await openJournal(ctx, "display-image remove");
  const changeOptions = { dryRun, verify: options.verify, precheck: true, journal };
  const outcome = await changeDisplayImage(client, before, { kind: "remove" }, changeOptions, (message) => ctx.warn(message));
  return reportChange(ctx, outcome, { strict: false, action: "display image removal", curl: options.curl });
}
