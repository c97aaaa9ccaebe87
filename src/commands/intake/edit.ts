import { runIntakeUpdate } from "../../change/intakeUpdate.js";
import { editFromFile, editInEditor } from "../../change/intakeEdit.js";
import { noChangeOutcome } from "../../change/pipeline.js";
import type { Context } from "../../context.js";
import { rejectedError, usageError } from "../../errors.js";
import { readIntakeKind } from "../../intake/kinds.js";
import { parseImageIdArg } from "../args.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";

export interface EditOptions extends ChangeFlags {
  imageId: string;
  file?: string | undefined;
  reopen: boolean;
}

export async function editCommand(ctx: Context, options: EditOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  if (options.file === undefined && ctx.io.stdin.isTTY !== true)
    throw usageError("not on a terminal: no editor can be opened", { hint: "give the edited text with --file <path> or --file -" });
  const client = await ctx.client();
  // Before the editor opens, even for --dry-run: edits the token cannot send would be lost.
  client.refuseQuantityChangeByRole();
  const before = (await client.getIntake(imageId)).data.intake_info;
  if (readIntakeKind(before) === "unknown")
    throw rejectedError(`intake ${imageId} does not tell its kind yet (not confirmed: no recipe, no per-item nutrition)`, {
      hint: "nothing to edit; nothing was sent",
    });
  const edit = options.file === undefined ? await editInEditor(ctx, before, options.reopen) : await editFromFile(ctx, before, options.file);
  if (edit === null) return reportChange(ctx, noChangeOutcome(imageId, before, [], options.dryRun), { strict: false, action: "edit" });
  const journal = await openJournal(ctx, "intake edit");
  const changeOptions = { dryRun: options.dryRun, verify: options.verify, precheck: true, before, journal };
  const outcome = await runIntakeUpdate(client, imageId, edit.fields, changeOptions);
  return reportChange(ctx, outcome, { strict: options.strict, action: "edit", curl: options.curl });
}
