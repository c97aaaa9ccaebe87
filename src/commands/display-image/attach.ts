import { changeDisplayImage } from "../../change/displayImageChange.js";
import type { Context } from "../../context.js";
import { parseImageIdArg } from "../args.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";
import { readImageFile } from "./imageFile.js";

export interface AttachOptions extends Pick<ChangeFlags, "dryRun" | "curl" | "verify"> {
  imageId: string;
  file: string;
}

export async function attachCommand(ctx: Context, options: AttachOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const image = await readImageFile(options.file, ctx.io.stdin);
  const client = await ctx.client();
  const before = (await client.getIntake(imageId)).data.intake_info;
  const journal = await openJournal(ctx, "display-image attach");
  const changeOptions = { dryRun: options.dryRun, verify: options.verify, precheck: true, journal };
  const outcome = await changeDisplayImage(client, before, { kind: "attach", image }, changeOptions, (message) => ctx.warn(message));
  return reportChange(ctx, outcome, { strict: false, action: "display image", curl: options.curl, uploadPath: options.file });
}
