import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { parseImageIdArg } from "../args.js";

export interface ShowOptions {
  /** `all`, or the six totals when not given. */
  nutrients?: "all" | undefined;
  image?: boolean;
  web?: boolean;
  language?: unknown;
}

export async function showCommand(ctx: Context, imageIdText: string, options: ShowOptions = {}): Promise<number> {
  const imageId = parseImageIdArg(imageIdText);
  if (ctx.json && (options.image || options.web))
    throw usageError(`--${options.image ? "image" : "web"} shows the picture; --json prints the record`, {
      hint: "its URL: foodctl intake show <image_id> --json | jq -r .intake_info.image_url",
    });
  const language = await ctx.language(options.language);
  const client = language === undefined ? await ctx.client() : (await ctx.client()).derive({ language });
  const result = await client.getIntake(imageId);
  const intake = result.data.intake_info;
  await ctx.print({
    jsonBody: result.raw,
    text: async (stream, color) => {
      const zone = await ctx.timeZone();
      const { renderIntake } = await import("../../output/intake.js");
      const shown = renderIntake(intake, stream, color, { zone, now: ctx.now() });
      if (options.nutrients !== "all") return shown;
      const { renderAllNutrients } = await import("../../output/nutrients.js");
      return shown + renderAllNutrients(intake, stream, color);
    },
    // Not when the picture is drawn below it.
    paged: !options.image,
  });
  if (options.image || options.web) {
    const { drawIntakeImage, openIntakeImage } = await import("./showImage.js");
    if (options.image) await drawIntakeImage(ctx, client, intake);
    if (options.web) await openIntakeImage(ctx, intake);
  }
  return 0;
}
