import { checkUpdateFields, runIntakeUpdate } from "../../change/intakeUpdate.js";
import type { Context } from "../../context.js";
import { parseImageIdArg } from "../args.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";
import { parseQuantityArgs } from "./changeArgs.js";

export interface SetQuantityOptions extends Pick<ChangeFlags, "dryRun" | "curl" | "verify"> {
  imageId: string;
  values: string[];
}

export async function setQuantityCommand(ctx: Context, options: SetQuantityOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const fields = parseQuantityArgs(options.values);
  checkUpdateFields(imageId, fields);
  const client = await ctx.client();
  const journal = await openJournal(ctx, "intake set-quantity");
  const outcome = await runIntakeUpdate(client, imageId, fields, {
    dryRun: options.dryRun,
    verify: options.verify,
    precheck: true,
    checked: true,
    journal,
  });
  return reportChange(ctx, outcome, { strict: false, action: "quantity change", curl: options.curl });
}
