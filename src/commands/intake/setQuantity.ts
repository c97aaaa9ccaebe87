import type { Context } from "../../context.js";
import { parseImageIdArg } from "../args.js";
import { runIntakeUpdate } from "./change.js";
import { parseQuantityArgs } from "./changeArgs.js";
import { reportChange } from "./report.js";

export async function setQuantityCommand(ctx: Context, imageIdText: string, values: string[], options: Record<string, unknown>): Promise<number> {
  const imageId = parseImageIdArg(imageIdText);
  const parsed = parseQuantityArgs(values);
  const fields = parsed.form === "total" ? { quantity: parsed.grams } : { quantity: parsed.quantities };
  const client = await ctx.client();
  const outcome = await runIntakeUpdate(client, imageId, fields, { dryRun: options.dryRun === true, verify: options.verify !== false, precheck: true });
  return reportChange(ctx, outcome, { strict: false, action: "quantity change" });
}
