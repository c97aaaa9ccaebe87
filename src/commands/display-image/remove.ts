import { paths } from "../../api/paths.js";
import type { Context } from "../../context.js";
import { cancelledError, interruptedError, usageError } from "../../errors.js";
import { parseImageIdArg } from "../args.js";
import type { ChangeFlags } from "../spec.js";
import { finishChange } from "../intake/change.js";
import { reportChange } from "../intake/report.js";
import { checkDisplayImageEditable } from "./attach.js";
import { jsonBody } from "../../output/sanitize.js";

async function confirmRemoval(ctx: Context, imageId: number, url: string | null | undefined): Promise<boolean> {
  const { default: confirm } = await import("@inquirer/confirm");
  try {
    return await confirm(
      { message: `Remove the display image of intake ${imageId}${url ? ` (${url})` : ""}?`, default: false },
      { input: ctx.io.stdin as NodeJS.ReadableStream, output: ctx.io.stderr as unknown as NodeJS.WritableStream, signal: ctx.signal },
    );
  } catch (error) {
    const name = (error as Error).name;
    // Ctrl-C at the prompt is an interruption (130); answering no is a cancel (3).
    if (name === "ExitPromptError" || name === "AbortPromptError") throw interruptedError("interrupted at the prompt: nothing was sent");
    throw error;
  }
}

export interface RemoveOptions extends Pick<ChangeFlags, "dryRun" | "verify"> {
  imageId: string;
  yes: boolean;
}

export async function removeCommand(ctx: Context, options: RemoveOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const dryRun = options.dryRun;
  const interactive = ctx.io.stdin.isTTY === true && ctx.io.stderr.isTTY === true;
  if (!options.yes && !dryRun && !interactive) {
    throw usageError("not on a terminal: pass --yes to remove the display image", { hint: "nothing was sent" });
  }
  const client = await ctx.client();
  const read = await client.getIntake(imageId);
  const before = read.data.intake_info;
  checkDisplayImageEditable(before);

  const url = client.url(paths.displayImage(imageId));
  if (dryRun) {
    const request = { ...client.describe("DELETE", url), body: null };
    const outcome = { imageId, before, after: null, afterRaw: null, diff: null, ignored: [], response: null, dryRun: request };
    return reportChange(ctx, outcome, { strict: false, action: "display image removal" });
  }
  if (before.has_display_image === false) {
    ctx.info(`intake ${imageId} has no display image: nothing to remove`);
    if (ctx.json) ctx.io.stdout.write(jsonBody(read.raw));
    return 0;
  }
  if (!options.yes && !(await confirmRemoval(ctx, imageId, before.image_url))) {
    throw cancelledError("cancelled: nothing was sent");
  }
  const response = await client.removeDisplayImage(imageId);
  const outcome = await finishChange(client, imageId, before, response.data, options.verify, {}, response.raw);
  return reportChange(ctx, outcome, { strict: false, action: "display image removal" });
}
