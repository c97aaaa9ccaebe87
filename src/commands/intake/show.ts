import type { Context } from "../../context.js";
import { parseImageIdArg } from "../args.js";
import { jsonBody } from "../../output/sanitize.js";

export async function showCommand(ctx: Context, imageIdText: string): Promise<number> {
  const imageId = parseImageIdArg(imageIdText);
  const client = await ctx.client();
  const result = await client.getIntake(imageId);
  if (ctx.json) {
    ctx.io.stdout.write(jsonBody(result.raw));
    return 0;
  }
  const { renderIntake } = await import("../../output/intake.js");
  ctx.io.stdout.write(renderIntake(result.data.intake_info, ctx.io.stdout, ctx.io.color.stdout));
  return 0;
}
