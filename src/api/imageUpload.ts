import { DISPLAY_IMAGE_FIELD } from "../records/fields.js";

/** The display image as the API takes it: one multipart file field (docs/api.md, display image). */
export interface ImageUpload {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** The multipart body, with its length known (form-data would go chunked otherwise). */
export async function encodeDisplayImage(image: ImageUpload): Promise<{ body: Buffer; contentType: string }> {
  const { default: FormData } = await import("form-data");
  const form = new FormData();
  form.append(DISPLAY_IMAGE_FIELD, image.bytes, {
    filename: image.filename,
    contentType: image.contentType,
    knownLength: image.bytes.byteLength,
  });
  return { body: form.getBuffer(), contentType: form.getHeaders()["content-type"] as string };
}

/** What --dry-run shows of an upload: the file's name, size and type, not its bytes. */
export function describeUpload(image: ImageUpload): Record<string, unknown> {
  return { [DISPLAY_IMAGE_FIELD]: { filename: image.filename, size: image.bytes.byteLength, content_type: image.contentType } };
}
