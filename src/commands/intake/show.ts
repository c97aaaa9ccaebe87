import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { parseImageIdArg } from "../args.js";
import { jsonBody } from "../../sanitize.js";

/** `--nutrients all` prints every code of the answer; without it, the six totals. */
function parseNutrients(value: unknown): "six" | "all" {
  if (value === undefined) return "six";
  if (value === "all") return "all";
  throw usageError(`--nutrients takes "all", got "${String(value)}"`, { hint: "without it, the six main totals are shown" });
}

export interface ShowOptions {
  nutrients?: unknown;
  image?: boolean;
  web?: boolean;
  language?: unknown;
}

export async function showCommand(ctx: Context, imageIdText: string, options: ShowOptions = {}): Promise<number> {
  const imageId = parseImageIdArg(imageIdText);
  const nutrients = parseNutrients(options.nutrients);
  if (ctx.json && (options.image || options.web))
    throw usageError(`--${options.image ? "image" : "web"} shows the picture; --json prints the record`, {
      hint: "its URL: foodctl intake show <image_id> --json | jq -r .intake_info.image_url",
    });
  const language = await ctx.language(options.language);
  const client = language === undefined ? await ctx.client() : (await ctx.client()).derive({ language });
  const result = await client.getIntake(imageId);
  if (ctx.json) {
    ctx.io.stdout.write(jsonBody(result.raw));
    return 0;
  }
  const zone = await ctx.timeZone();
  const { renderIntake } = await import("../../output/intake.js");
  const intake = result.data.intake_info;
  ctx.io.stdout.write(renderIntake(intake, ctx.io.stdout, ctx.io.color.stdout, { zone, now: ctx.now() }));
  if (nutrients === "all") {
    const { renderAllNutrients } = await import("../../output/nutrients.js");
    ctx.io.stdout.write(renderAllNutrients(intake, ctx.io.stdout, ctx.io.color.stdout));
  }
  if (options.image || options.web) {
    const { drawIntakeImage, openIntakeImage } = await import("./showImage.js");
    if (options.image) await drawIntakeImage(ctx, client, intake);
    if (options.web) await openIntakeImage(ctx, intake);
  }
  return 0;
}
