/** Reading a batch's input and an earlier run's results: from a file or stdin, format decided, checked. */
import { createReadStream, fstatSync, readlinkSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { readCsv } from "./csv.js";
import { decideFormat, lookOf, peekFirstLine, type BatchFormat } from "./format.js";
import type { BatchInput } from "./input.js";
import { readJsonLines } from "./jsonl.js";
import { readAppliedResults, refuseNonRegularResults, RESULT_LINE_EXAMPLE } from "./results.js";
import type { Context } from "../context.js";
import { CliError, interruptedError, usageError } from "../errors.js";
import { fileErrorReason } from "../files.js";
import { renderProblems } from "../output/batch.js";

export function displayName(file: string): string {
  return file === "-" ? "stdin" : file;
}

/** Streams a file (or stdin for "-") into a reader; a file that cannot be read is a usage error. */
async function readFrom<T>(ctx: Context, file: string, reader: (chunks: AsyncIterable<Buffer | string>) => Promise<T>): Promise<T> {
  if (file === "-") {
    if (ctx.io.stdin.isTTY === true)
      throw usageError("stdin is a terminal: pipe the changes into it (… | foodctl intake apply -), or give a file path");
    return reader(ctx.io.stdin as AsyncIterable<Buffer | string>);
  }
  const cannotRead = (error: unknown) => usageError(`cannot read ${file}: ${fileErrorReason(error, "no such file")}`);
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  } catch (error) {
    throw cannotRead(error);
  }
  try {
    return await reader(createReadStream(file));
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) throw cannotRead(error);
    throw error;
  }
}

/** The problems on stderr, then one usage error: nothing was sent. */
function refuseProblems(
  ctx: Context,
  source: string,
  input: { problems: BatchInput["problems"]; problemCount: number },
  what: string,
  hint: string,
): never {
  ctx.io.stderr.write(renderProblems(input.problems, input.problemCount, source, ctx.json));
  throw usageError(what, { hint });
}

/** The changes of the input, every line checked; refused as a whole (exit 2) when any is wrong. */
export async function readChanges(ctx: Context, file: string, flag: BatchFormat | undefined): Promise<BatchInput> {
  const source = displayName(file);
  const input = await readFrom(ctx, file, async (chunks) => {
    const { firstLine, input: replayed } = await peekFirstLine(chunks);
    const decision = decideFormat(source, file === "-" ? null : file, flag, lookOf(firstLine));
    if ("refuse" in decision) throw usageError(`${decision.refuse}: nothing was sent`, { hint: decision.hint });
    if (decision.format === "jsonl") return readJsonLines(replayed, { signal: ctx.signal });
    return readCsv(replayed, { signal: ctx.signal }, decision.format === "edit");
  });
  if (input.interrupted) throw interruptedError("interrupted while reading the changes: nothing was sent");
  if (input.problemCount > 0) {
    const lines = new Set(input.problems.map((problem) => problem.line)).size;
    const what = input.problemCount === 1 ? "1 problem" : `${input.problemCount} problems`;
    const where = input.problemCount > input.problems.length ? "" : ` (${lines === 1 ? "1 line" : `${lines} lines`})`;
    refuseProblems(ctx, source, input, `${what} in ${source}${where}: nothing was sent`, "fix the lines above and run again");
  }
  return input;
}

/**
 * --skip-applied: the keys an earlier run applied, from its results (a file it wrote, or its
 * stdout). A file that does not exist yet means no run has applied anything, so that one cron
 * line (`--skip-applied r.jsonl --results r.jsonl`) also makes the first run.
 */
export async function readEarlierResults(ctx: Context, file: string): Promise<Set<string>> {
  if (file !== "-" && (await missingFile(file))) {
    if (!ctx.json) ctx.info(`${file} does not exist yet: no change has been applied before`);
    return new Set();
  }
  if (file !== "-") refuseNonRegularResults(file);
  refuseEmptiedResults(ctx, file);
  const earlier = await readFrom(ctx, file, (chunks) => readAppliedResults(chunks));
  if (earlier.problemCount > 0) {
    const what = `${displayName(file)} is not a results file of \`intake apply\`: nothing was sent`;
    const hint = `--skip-applied takes the file --results wrote (or the JSON Lines a run printed); a result line looks like ${RESULT_LINE_EXAMPLE}`;
    refuseProblems(ctx, displayName(file), earlier, what, hint);
  }
  return earlier.done;
}

async function missingFile(file: string): Promise<boolean> {
  try {
    await stat(file);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * `apply x --skip-applied results.jsonl > results.jsonl`: the shell empties the file before the
 * command starts, so every change would be sent again. `>>` keeps it; only `>` is refused.
 */
function refuseEmptiedResults(ctx: Context, file: string): void {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (file === "-" || typeof fd !== "number") return;
  let same: boolean;
  try {
    const output = fstatSync(fd);
    const results = statSync(file);
    same = output.dev === results.dev && output.ino === results.ino && results.size === 0;
  } catch {
    return; // the read below reports a file it cannot read
  }
  if (same) {
    throw usageError(`${file} is also stdout, and was emptied before it could be read: nothing was sent`, {
      hint: `write the results with --results ${file} (or append with >> ${file})`,
    });
  }
}

/** The file stdout writes to (`apply x > out.jsonl`), which holds the piped results a resume reads; none for a terminal, a pipe or a device. */
export function stdoutResultsFile(ctx: Context): string | undefined {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (typeof fd !== "number" || ctx.io.stdout.isTTY === true) return undefined;
  try {
    const output = fstatSync(fd);
    if (!output.isFile()) return undefined;
    const path = readlinkSync(`/proc/self/fd/${fd}`);
    return isAbsolute(path) && statSync(path).ino === output.ino ? path : undefined;
  } catch {
    return undefined;
  }
}
