import type { ApiClient, ApiResult } from "../../api/client.js";
import { paths } from "../../api/paths.js";
import type { Intake } from "../../api/schemas.js";
import type { Context } from "../../context.js";
import { rejectedError } from "../../errors.js";
import { KIND_LABELS, readIntakeKind } from "../../intake/kinds.js";
import { parseImageIdArg } from "../args.js";
import type { ChangeFlags } from "../spec.js";
import { finishChange } from "../intake/change.js";
import { reportChange } from "../intake/report.js";
import { readImageFile, type ImageFile } from "./imageFile.js";

/** Interface rule 4: only manual intakes take a display image. */
export function checkDisplayImageEditable(intake: Intake): void {
  if (intake.can_edit_display_image === false) {
    const kind = KIND_LABELS[readIntakeKind(intake)];
    throw rejectedError(`intake ${intake.image_id} is a ${kind} intake: only manual intakes have a display image`, { hint: "nothing was sent" });
  }
}

/** The upload: one multipart file field `image`, with its length (docs/api.md, display image). */
export async function sendDisplayImage(client: ApiClient, imageId: number, image: ImageFile): Promise<ApiResult<unknown>> {
  const { default: FormData } = await import("form-data");
  const form = new FormData();
  form.append("image", image.bytes, { filename: image.filename, contentType: image.contentType, knownLength: image.bytes.byteLength });
  return client.attachDisplayImage(imageId, form.getBuffer(), form.getHeaders()["content-type"] as string);
}

export interface AttachOptions extends Pick<ChangeFlags, "dryRun" | "verify"> {
  imageId: string;
  file: string;
}

export async function attachCommand(ctx: Context, options: AttachOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const image = await readImageFile(options.file, ctx.io.stdin);
  const client = await ctx.client();
  const before = (await client.getIntake(imageId)).data.intake_info;
  checkDisplayImageEditable(before);

  const url = client.url(paths.displayImage(imageId));
  if (options.dryRun) {
    const body = { image: { filename: image.filename, size: image.bytes.byteLength, content_type: image.contentType } };
    const dryRun = { ...client.describe("POST", url, { "content-type": "multipart/form-data" }), body };
    return reportChange(ctx, { imageId, before, after: null, afterRaw: null, diff: null, ignored: [], response: null, dryRun }, { strict: false, action: "display image" });
  }
  const response = await sendDisplayImage(client, imageId, image);
  const outcome = await finishChange(client, imageId, before, response.data, options.verify, {}, response.raw);
  return reportChange(ctx, outcome, { strict: false, action: "display image" });
}
