/**
 * `intake edit`'s text read back as an update (docs/cli.md, "The edit text"): once from `--file` or stdin, or from the
 * user's editor until it can be sent or the user gives up. Every refusal is a usage error or a cancel: nothing is sent.
 */
import { constants } from "node:fs";
import { open, writeFile } from "node:fs/promises";
import type { Context } from "../context.js";
import { cancelledError, interruptedError, usageError } from "../errors.js";
import {
  intakeNamedBy,
  problemHeaderLines,
  readEditText,
  renderEditText,
  withoutProblems,
  withProblems,
  type EditReading,
} from "../intake/editText.js";
import { fileErrorReason, notRegularFile } from "../files.js";
import { readAtMost } from "../io.js";
import { cleanForTerminal } from "../sanitize.js";
import type { Intake } from "../records/intake.js";
import { editorCommand, runEditor, withPrivateFile } from "./editor.js";

/** An edit text is a few lines per item: anything larger is not one. */
const MAX_EDIT_BYTES = 1024 * 1024;
const TOO_LARGE = "holds more than 1 MiB: not an edit text";

type Edit = Extract<EditReading, { kind: "edit" }>;

const interrupted = (what: string) => interruptedError(`interrupted while reading ${what}: nothing was sent`);

/** Stdin to its end (refused past the cap), given up on Ctrl-C or SIGTERM. */
async function readStdin(ctx: Context): Promise<string> {
  if (ctx.io.stdin.isTTY === true) throw usageError("stdin is a terminal: pipe the edited text into it, or give a file path");
  if (ctx.signal.aborted) throw interrupted("stdin");
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => (onAbort = () => reject(interrupted("stdin"))));
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const bytes = await Promise.race([readAtMost(ctx.io.stdin as AsyncIterable<Buffer | string>, MAX_EDIT_BYTES), aborted]);
    if (bytes.byteLength > MAX_EDIT_BYTES) throw usageError(`stdin ${TOO_LARGE}`);
    return bytes.toString("utf8");
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

/**
 * An edit text from a file (`--file`, or what the editor left): a regular file of at most 1 MiB,
 * opened without waiting (a FIFO is refused, not waited on), read in pieces that Ctrl-C and
 * SIGTERM stop. Every refusal is a usage error: nothing was sent.
 */
async function readEditFile(path: string, what: string, signal: AbortSignal, missing = "no such file"): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw usageError(`cannot read ${what}: ${fileErrorReason(error, missing)}: nothing was sent`);
  }
  try {
    const kind = notRegularFile(await handle.stat());
    if (kind) throw usageError(`${what} is ${kind}, not an edit text: nothing was sent`);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      if (signal.aborted) throw interrupted(what);
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_EDIT_BYTES) throw usageError(`${what} ${TOO_LARGE}`);
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Refuses a text whose `# intake <id>` line names another intake (as `intake apply` would send it there). */
function refuseOtherIntake(text: string, imageId: number, source: string): void {
  const named = text
    .split(/\r?\n/, 50)
    .map(intakeNamedBy)
    .find((id) => id !== null);
  if (named === undefined || named === imageId) return;
  const hint = `edit intake ${named} with \`foodctl intake edit ${named}\`, or change that line to "# intake ${imageId}"`;
  const message = `${source} is the edit text of intake ${named} (its "# intake ${named}" line), not of intake ${imageId}: nothing was sent`;
  throw usageError(message, { hint });
}

/** `--file`: one reading, no editor; only the rows given change; a problem is a usage error (exit 2). */
export async function editFromFile(ctx: Context, intake: Intake, file: string): Promise<Edit | null> {
  const source = file === "-" ? "stdin" : file;
  const text = file === "-" ? await readStdin(ctx) : await readEditFile(file, file, ctx.signal);
  refuseOtherIntake(text, intake.image_id, source);
  const reading = readEditText(text, intake, { partial: true });
  if (reading.kind === "empty") throw cancelledError("the edit text is empty: edit cancelled, nothing was sent");
  if (reading.kind === "problems") refuseProblems(ctx, source, reading.problems);
  return reading.changed === 0 ? null : reading;
}

/** Every problem: one alone is the error; several are listed on stderr (in the JSON error's message under --json) above it. */
function refuseProblems(ctx: Context, source: string, problems: readonly string[]): never {
  if (problems.length === 1) throw usageError(problems[0]!, { hint: "nothing was sent" });
  if (!ctx.json) ctx.io.stderr.write(problems.map((problem) => `${cleanForTerminal(`${source}: ${problem}`)}\n`).join(""));
  const listed = ctx.json ? `: ${problems.join("; ")}` : " (above)";
  throw usageError(`${problems.length} problems in ${source}${listed}`, { hint: "nothing was sent" });
}

/** The editor, again with the problems at the top after a save that cannot be sent, until it can be or the user gives up. */
export async function editInEditor(ctx: Context, intake: Intake, reopen: boolean): Promise<Edit | null> {
  const command = editorCommand(ctx.io.env);
  return withPrivateFile(ctx.io.env, `intake-${intake.image_id}.txt`, renderEditText(intake), async (file) => {
    for (;;) {
      const code = await runEditor(command, file, ctx.io.env);
      if (ctx.signal.aborted) throw interruptedError("interrupted while editing: nothing was sent");
      if (code !== 0) throw cancelledError(`the editor exited with ${code}: edit cancelled, nothing was sent`);
      const what = "the edited file";
      const text = withoutProblems(await readEditFile(file, what, ctx.signal, "the editor removed it"));
      refuseOtherIntake(text, intake.image_id, what);
      const reading = readEditText(text, intake);
      if (reading.kind === "empty") throw cancelledError("the file was emptied: edit cancelled, nothing was sent");
      if (reading.kind === "edit") return reading.changed === 0 ? null : reading;
      if (!reopen) refuseProblems(ctx, what, reading.problems);
      // Numbered as the reopened file shows them: below the problem lines written at its top.
      const renumbered = readEditText(text, intake, { lineOffset: problemHeaderLines(reading.problems.length) });
      const problems = renumbered.kind === "problems" ? renumbered.problems : reading.problems;
      await writeFile(file, withProblems(text, problems));
    }
  });
}
