/**
 * Attaching and removing the display image of a manual intake (docs/api.md, display images). The
 * upload is read to its end before answering, so the connection stays usable whatever the
 * answer; no nutrition is calculated and nothing but the display image changes.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { KIND_LABELS } from "../../intake/index.js";
import { lookupIntake } from "../access.js";
import type { SandboxContext } from "../context.js";
import { badRequest, conflict, tooLarge, unsupportedMedia } from "../errors.js";
import { newImageName, readImage } from "../images.js";
import { readImageIdParam, readQuery } from "../request.js";
import type { StoredIntake } from "../state.js";
import { DISPLAY_IMAGE_FIELD, MAX_DISPLAY_IMAGE_BYTES } from "../../records/fields.js";
import { routes } from "../../records/routes.js";

interface Upload {
  bytes: Buffer | null;
  tooLarge: boolean;
  /** The first thing wrong with the form itself (a 400). */
  problem: string | null;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // discard
  }
}

/** Reads the whole multipart body, keeping the one file of the field `image`. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const upload: Upload = { bytes: null, tooLarge: false, problem: null };
  const note = (problem: string) => {
    upload.problem ??= problem;
  };
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file") {
        note(`unexpected form field "${part.fieldname}": send only the file field ${DISPLAY_IMAGE_FIELD}`);
      } else if (part.fieldname !== DISPLAY_IMAGE_FIELD) {
        note(`unexpected file field "${part.fieldname}": send the image in the file field ${DISPLAY_IMAGE_FIELD}`);
        await drain(part.file);
      } else if (upload.bytes !== null || upload.tooLarge) {
        note(`send exactly one file in the field ${DISPLAY_IMAGE_FIELD}`);
        await drain(part.file);
      } else {
        try {
          upload.bytes = await part.toBuffer();
        } catch (error) {
          if (errorCode(error) !== "FST_REQ_FILE_TOO_LARGE") throw error;
          upload.tooLarge = true;
        }
      }
    }
  } catch (error) {
    const code = errorCode(error);
    if (code === "FST_REQ_FILE_TOO_LARGE") upload.tooLarge = true;
    else if (code === "FST_FILES_LIMIT") note(`send exactly one file in the field ${DISPLAY_IMAGE_FIELD}`);
    else if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT")
      note(`too many form fields: send only the file field ${DISPLAY_IMAGE_FIELD}`);
    else if (code === "FST_PROTO_VIOLATION") note("a form field name is not allowed");
    else {
      const reason = error instanceof Error ? error.message : String(error);
      return { bytes: null, tooLarge: false, problem: `the multipart body is malformed (${reason})` };
    }
  }
  if (upload.bytes === null && !upload.tooLarge) note(`the display image is missing: send it as the file field ${DISPLAY_IMAGE_FIELD}`);
  return upload;
}

function requireManual(intake: StoredIntake): void {
  if (intake.kind !== "manual") {
    throw conflict(`intake ${intake.imageId} is a ${KIND_LABELS[intake.kind]} intake; only manual intakes accept a display image`);
  }
}

export function registerDisplayImageRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const onRequest = ctx.authenticate;

  app.post(routes.displayImage, { onRequest }, async (request) => {
    readQuery(request, ["user_id"]);
    const imageId = readImageIdParam(request.params);
    if (!request.isMultipart()) {
      throw unsupportedMedia(`send the display image as multipart/form-data with one file field named ${DISPLAY_IMAGE_FIELD}`);
    }
    const upload = await readUpload(request);
    if (upload.problem) throw badRequest(upload.problem);
    const image = upload.bytes === null ? null : await readImage(upload.bytes);

    // From here on no await: the checks and the change see the same intake.
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    requireManual(intake);
    if (upload.tooLarge || upload.bytes === null) {
      throw tooLarge(`the display image is larger than ${MAX_DISPLAY_IMAGE_BYTES} bytes (1 MiB)`);
    }
    if (!image) throw unsupportedMedia("the display image is not a readable JPEG, PNG, GIF or WebP image");

    const name = newImageName(image.contentType);
    ctx.state.images.set(name, { ...image, bytes: upload.bytes });
    if (intake.displayImage !== null) ctx.state.images.delete(intake.displayImage);
    intake.displayImage = name;
    ctx.commit();
    return { intake_info: ctx.render(request, intake) };
  });

  app.delete(routes.displayImage, { onRequest }, async (request) => {
    readQuery(request, ["user_id"]);
    const imageId = readImageIdParam(request.params);
    const intake = lookupIntake(ctx.state.intakes, ctx.accessOf(request), imageId);
    requireManual(intake);
    if (intake.displayImage !== null) {
      ctx.state.images.delete(intake.displayImage);
      intake.displayImage = null;
      ctx.commit();
    }
    return { intake_info: ctx.render(request, intake) };
  });
}
