import { runIntakeUpdate } from "../../change/intakeUpdate.js";
import type { Context } from "../../context.js";
import { cancelledError, EXIT, interruptedError, rejectedError, usageError } from "../../errors.js";
import { readEditText, renderEditText, withProblems, type EditReading } from "../../intake/editText.js";
import { readIntakeKind } from "../../intake/kinds.js";
import { readAtMost } from "../../io.js";
import type { Intake } from "../../records/intake.js";
import { parseImageIdArg } from "../args.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";
import { editorCommand, readEdited, runEditor, withPrivateFile } from "./editor.js";

export interface EditOptions extends ChangeFlags {
  imageId: string;
  file?: string | undefined;
  reopen: boolean;
}

/** An edit text is a few lines per item: anything larger is not one. */
const MAX_EDIT_BYTES = 1024 * 1024;

type Edit = Extract<EditReading, { kind: "edit" }>;

async function readGivenText(ctx: Context, file: string): Promise<string> {
  const from = file === "-" ? "stdin" : file;
  let bytes: Buffer;
  if (file === "-") {
    if (ctx.io.stdin.isTTY === true) throw usageError("stdin is a terminal: pipe the edited text into it, or give a file path");
    bytes = await readAtMost(ctx.io.stdin as AsyncIterable<Buffer | string>, MAX_EDIT_BYTES);
  } else {
    const { readFile } = await import("node:fs/promises");
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw usageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (bytes.byteLength > MAX_EDIT_BYTES) throw usageError(`${from} holds more than 1 MiB: not an edit text`);
  return bytes.toString("utf8");
}

/** `--file`: one reading, no editor; a problem is a usage error (exit 2). */
async function editFromFile(ctx: Context, intake: Intake, file: string): Promise<Edit | null> {
  const reading = readEditText(await readGivenText(ctx, file), intake);
  if (reading.kind === "empty") throw cancelledError("the edit text is empty: edit cancelled, nothing was sent");
  if (reading.kind === "problems") throw editProblems(reading.problems);
  return reading.changed === 0 ? null : reading;
}

function editProblems(problems: string[]) {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return usageError(`${problems[0]}${more}`, { hint: "nothing was sent" });
}

/** The editor, again with the problems at the top after a save that cannot be sent, until it can be or the user gives up. */
async function editInEditor(ctx: Context, intake: Intake, reopen: boolean): Promise<Edit | null> {
  const command = editorCommand(ctx.io.env);
  return withPrivateFile(ctx.io.env, `intake-${intake.image_id}.txt`, renderEditText(intake), async (file) => {
    for (;;) {
      const code = await runEditor(command, file, ctx.io.env);
      if (ctx.signal.aborted) throw interruptedError("interrupted while editing: nothing was sent");
      if (code !== 0) throw cancelledError(`the editor exited with ${code}: edit cancelled, nothing was sent`);
      const text = await readEdited(file);
      const reading = readEditText(text, intake);
      if (reading.kind === "empty") throw cancelledError("the file was emptied: edit cancelled, nothing was sent");
      if (reading.kind === "edit") return reading.changed === 0 ? null : reading;
      if (!reopen) throw editProblems(reading.problems);
      const { writeFile } = await import("node:fs/promises");
      await writeFile(file, withProblems(text, reading.problems));
    }
  });
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
  if (edit === null) {
    ctx.info(`intake ${imageId}: no change, nothing was sent`);
    return EXIT.ok;
  }
  const journal = await openJournal(ctx, "intake edit");
  const changeOptions = { dryRun: options.dryRun, verify: options.verify, precheck: true, before, journal };
  const outcome = await runIntakeUpdate(client, imageId, edit.fields, changeOptions);
  return reportChange(ctx, outcome, { strict: options.strict, action: "edit" });
}
