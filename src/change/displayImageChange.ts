/**
 * The one path of a display-image change, command or undo: refuse an intake that takes none,
 * keep a copy of the image it replaces or removes in the journal, then send through the shared
 * change pipeline.
 */
import type { ApiClient } from "../api/client.js";
import type { ImageUpload } from "../api/imageUpload.js";
import type { Intake } from "../records/intake.js";
import { CliError, rejectedError } from "../errors.js";
import { displayImageProblem } from "../intake/displayImageRule.js";
import type { ImageCopy } from "../journal/entry.js";
import type { JournalRecorder } from "../journal/recorder.js";
import { dryRunOutcome, sendChange, type ChangeOptions, type UpdateOutcome } from "./pipeline.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../records/fields.js";

export type DisplayImageAction = { kind: "attach"; image: ImageUpload } | { kind: "remove" };

/** docs/api.md, display image: only manual intakes take one. Exit 7; the intake was read, nothing sent. */
export function refuseUneditable(intake: Intake): void {
  const problem = displayImageProblem(intake);
  if (problem) throw rejectedError(problem.message, { hint: "nothing was sent" });
}

export async function changeDisplayImage(
  client: ApiClient,
  before: Intake,
  action: DisplayImageAction,
  options: ChangeOptions,
  warn: (message: string) => void,
): Promise<UpdateOutcome> {
  refuseUneditable(before);
  const imageId = before.image_id;
  const request = action.kind === "attach" ? client.describeAttach(imageId, action.image) : client.describeRemoval(imageId);
  if (options.dryRun) return dryRunOutcome(imageId, before, request);
  const send = () => (action.kind === "attach" ? client.attachDisplayImage(imageId, action.image) : client.removeDisplayImage(imageId));
  const journal = options.journal;
  const sent = { kind: "image" as const, attached: action.kind === "attach" };
  if (!journal || before.has_display_image !== true || !before.image_url)
    return sendChange(client, { imageId, before, request, fields: {}, sent, options, send });
  const journalId = journal.newId();
  const kept = await keepImageCopy(client, journal, journalId, before.image_url);
  if (kept.note) warn(`intake ${imageId}: ${kept.note}`);
  const notes = kept.note ? [kept.note] : [];
  return sendChange(client, { imageId, before, request, fields: {}, sent, options, send, journalId, imageCopy: kept.copy, notes });
}

/** Downloads the attached image (at most 1 MiB) into the journal's folder, so the change can be undone. */
async function keepImageCopy(
  client: ApiClient,
  journal: JournalRecorder,
  id: string,
  url: string,
): Promise<{ copy: ImageCopy | null; note: string | null }> {
  const source = URL.canParse(url) ? new URL(url) : null;
  // Only from the API's own host or over https: the server names the URL, and a plain-http fetch elsewhere goes where it says.
  if (!source || (source.protocol !== "https:" && !(source.protocol === "http:" && source.host === client.host))) {
    const where = source ? `${source.protocol}//${source.host}` : "an unreadable URL";
    return {
      copy: null,
      note: `the display image is at ${where}, neither the API's host nor https: it was not fetched, no copy was kept, undo cannot bring it back`,
    };
  }
  let bytes: Buffer | null;
  try {
    bytes = await client.downloadImage(source, MAX_DISPLAY_IMAGE_BYTES);
  } catch (error) {
    if (error instanceof CliError && error.code === "interrupted") throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return { copy: null, note: `no copy of the display image was kept (${reason}): undo cannot bring it back` };
  }
  if (bytes === null) return { copy: null, note: "the display image is larger than 1 MiB: no copy was kept, undo cannot bring it back" };
  return { copy: await journal.store.saveImage(id, bytes), note: null };
}
