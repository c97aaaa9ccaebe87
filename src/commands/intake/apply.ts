/**
 * `intake apply`: many changes from JSON Lines or CSV. One streaming pass checks every line
 * and keeps only the parsed changes; nothing is sent unless all of them are valid. Then each
 * change takes the single-change path (runIntakeUpdate: pre-check read, send, verify read,
 * ignored modifiers), a few at a time over one keep-alive pool, one JSON result per change.
 */
import { createReadStream, fstatSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { ApiClient } from "../../api/client.js";
import type { Context } from "../../context.js";
import { CliError, EXIT, failure, interruptedError, toCliError, usageError } from "../../errors.js";
import {
  formatFromFileName,
  readAppliedResults,
  readCsv,
  readJsonLines,
  resultKey,
  type BatchChange,
  type BatchFormat,
  type ChangeList,
  type BatchInput,
} from "../../intake/batch.js";
import { createProgressBar, renderProblems, renderResult, renderSummary, thousands, type BatchResult, type BatchResultError, type BatchSummary } from "../../output/batch.js";
import type { ChangeFlags } from "../spec.js";
import { describeIgnored, runIntakeUpdate } from "./change.js";

/** 429s one change may absorb before it fails (each waits out Retry-After). */
const BATCH_RATE_LIMIT_RETRIES = 20;

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

export interface ApplyOptions {
  format: BatchFormat;
  concurrency: number;
  continueOnError: boolean;
  skipApplied: string | undefined;
  strict: boolean;
  dryRun: boolean;
  verify: boolean;
}

/** `intake apply` as the command line gave it. */
export interface ApplyFlags extends ChangeFlags {
  file: string;
  format: string | undefined;
  concurrency: string | undefined;
  continueOnError: boolean;
  skipApplied: string | undefined;
}

/** Flags and the input's format, checked before anything is read (exit 2). */
export function readApplyOptions(file: string, options: Partial<Omit<ApplyFlags, "file">>): ApplyOptions {
  const formatFlag = options.format;
  let format: BatchFormat;
  if (formatFlag === "jsonl" || formatFlag === "csv") {
    format = formatFlag;
  } else if (formatFlag !== undefined) {
    throw usageError(`--format must be jsonl or csv, got "${String(formatFlag)}"`);
  } else if (file === "-") {
    throw usageError("reading changes from stdin: say their format with --format jsonl or --format csv");
  } else {
    const fromName = formatFromFileName(file);
    if (!fromName) {
      throw usageError(`cannot tell the format of "${file}" from its name`, { hint: "name it .jsonl, .ndjson, .json or .csv, or pass --format jsonl|csv" });
    }
    format = fromName;
  }
  const concurrencyText = options.concurrency ?? String(DEFAULT_CONCURRENCY);
  const concurrency = /^[0-9]{1,3}$/.test(concurrencyText) ? Number(concurrencyText) : NaN;
  if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY)) {
    throw usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${concurrencyText}"`);
  }
  const skipApplied = options.skipApplied;
  if (skipApplied === "-" && file === "-") throw usageError("stdin cannot hold both the changes and the earlier results (--skip-applied -)");
  return {
    format,
    concurrency,
    continueOnError: options.continueOnError === true,
    skipApplied,
    strict: options.strict === true,
    dryRun: options.dryRun === true,
    verify: options.verify !== false,
  };
}

export async function applyCommand(ctx: Context, flags: ApplyFlags): Promise<number> {
  const file = flags.file;
  const options = readApplyOptions(file, flags);
  // The API URL and token are checked before the (possibly long) read of the input.
  const client = await ctx.client();

  let done: Set<string> | null = null;
  if (options.skipApplied !== undefined) {
    const name = options.skipApplied;
    refuseEmptiedResults(ctx, name);
    const earlier = await readFrom(ctx, name, (chunks) => readAppliedResults(chunks));
    if (earlier.problemCount > 0) {
      ctx.io.stderr.write(renderProblems(earlier.problems, earlier.problemCount, displayName(name), ctx.json));
      throw usageError(`${displayName(name)} is not a results file of \`intake apply\`: nothing was sent`, {
        hint: "--skip-applied takes the JSON Lines an earlier run printed on stdout",
      });
    }
    done = earlier.done;
  }

  const read = options.format === "csv" ? readCsv : readJsonLines;
  const input: BatchInput = await readFrom(ctx, file, (chunks) => read(chunks, { signal: ctx.signal }));
  if (input.interrupted) throw interruptedError("interrupted while reading the changes: nothing was sent");
  if (input.problemCount > 0) {
    const source = displayName(file);
    ctx.io.stderr.write(renderProblems(input.problems, input.problemCount, source, ctx.json));
    const lines = new Set(input.problems.map((problem) => problem.line)).size;
    const what = input.problemCount === 1 ? "1 problem" : `${input.problemCount} problems`;
    throw usageError(`${what} in ${source}${input.problemCount > input.problems.length ? "" : ` (${lines === 1 ? "1 line" : `${lines} lines`})`}: nothing was sent`, {
      hint: "fix the lines above and run again",
    });
  }

  // Ctrl-C must not cancel requests in flight: the batch stops starting new ones instead.
  // A 429 pauses the whole batch and is retried on its own budget, so a busy API slows the
  // batch down instead of failing lines.
  const batchClient = client.derive({ signal: undefined, rateLimitRetries: BATCH_RATE_LIMIT_RETRIES });
  const summary = await runBatch(ctx, input.changes, batchClient, options, done);
  return finishBatch(ctx, summary);
}

/**
 * `apply x --skip-applied results.jsonl > results.jsonl`: the shell empties the file before the
 * command starts, so every change would be sent again. `>>` keeps it; only `>` is refused.
 */
function refuseEmptiedResults(ctx: Context, file: string): void {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (file === "-" || typeof fd !== "number") return;
  let same = false;
  try {
    const output = fstatSync(fd);
    const results = statSync(file);
    same = output.dev === results.dev && output.ino === results.ino && results.size === 0;
  } catch {
    return; // the read below reports a file it cannot read
  }
  if (same) {
    throw usageError(`${file} is also stdout, and was emptied before it could be read: nothing was sent`, {
      hint: `append the new results with >> ${file}, or write them to another file`,
    });
  }
}

function displayName(file: string): string {
  return file === "-" ? "stdin" : file;
}

/** Streams a file (or stdin for "-") into a reader; a file that cannot be read is a usage error. */
async function readFrom<T>(ctx: Context, file: string, reader: (chunks: AsyncIterable<Buffer | string>) => Promise<T>): Promise<T> {
  if (file === "-") return reader(ctx.io.stdin as AsyncIterable<Buffer | string>);
  const cannotRead = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
    return usageError(`cannot read ${file}: ${reason}`);
  };
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
    if (typeof (error as NodeJS.ErrnoException).code === "string" && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!)) throw cannotRead(error);
    throw error;
  }
}

/** Thrown from the pre-check hook when the batch stopped before this change's update was sent. */
class NotSent extends Error {}

/** A failure that no later change can escape: a refused token, an unreachable API. */
function stopsEveryChange(error: CliError): boolean {
  return error.code === "auth" || (error.code === "unavailable" && error.status === undefined);
}

function resultError(error: CliError): BatchResultError {
  return { code: error.code, exit_code: error.exitCode, status: error.status ?? null, message: error.message };
}

interface BatchRun extends BatchSummary {
  /** The first failure and whether all share its exit code: the exit code when nothing else was done. */
  firstFailure: CliError | null;
  mixedFailures: boolean;
}

export async function runBatch(ctx: Context, changes: ChangeList, client: ApiClient, options: ApplyOptions, done: Set<string> | null): Promise<BatchRun> {
  const started = performance.now();
  const run: BatchRun = {
    changes: changes.length,
    applied: 0,
    failed: 0,
    skipped: 0,
    dryRun: 0,
    notSent: 0,
    ignoredModifiers: 0,
    changesWithIgnored: 0,
    elapsedMs: 0,
    stopped: null,
    firstFailure: null,
    mixedFailures: false,
  };
  const onAbort = () => {
    run.stopped = "interrupted";
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });

  const clients = new Map<number, ApiClient>();
  const clientFor = (userId: number | undefined) => {
    if (userId === undefined) return client;
    let derived = clients.get(userId);
    if (!derived) clients.set(userId, (derived = client.derive({ userId })));
    return derived;
  };
  const stdout = ctx.io.stdout as typeof ctx.io.stdout & Partial<Pick<NodeJS.WritableStream, "once" | "off" | "on">>;
  // Results that cannot be written cannot be resumed from: a closed stdout stops the batch.
  // The listener stays: a late EPIPE must not become an uncaught error.
  ctx.io.closedStdout?.takeOver(() => {
    if (run.stopped !== "interrupted") run.stopped = "output_closed";
  });
  const progress = await createProgressBar(ctx.io.stderr, ctx.io.stdout, changes.length);
  let finished = 0;
  const write = async (result: BatchResult) => {
    let flowing = true;
    progress.print(() => {
      flowing = stdout.write(renderResult(result)) !== false;
    });
    if (!flowing && typeof stdout.once === "function") await waitForDrain(stdout as NodeJS.WritableStream);
  };

  const applyChange = async (change: BatchChange): Promise<BatchResult | null> => {
    const base = { line: change.line, image_id: change.imageId };
    if (run.stopped !== null) return null;
    if (done?.has(resultKey(change.line, change.imageId))) return { ...base, status: "skipped" };
    const fail = (error: CliError): BatchResult => {
      run.firstFailure ??= error;
      if (error.exitCode !== run.firstFailure.exitCode) run.mixedFailures = true;
      if (!options.continueOnError || stopsEveryChange(error)) run.stopped ??= "failure";
      return { ...base, status: "failed", error: resultError(error) };
    };
    try {
      const outcome = await runIntakeUpdate(
        clientFor(change.userId),
        change.imageId,
        change.fields,
        { dryRun: options.dryRun, verify: options.verify, precheck: options.verify && !options.dryRun },
        () => {
          // Read before the update: a batch that stopped meanwhile sends no more updates.
          if (run.stopped !== null) throw new NotSent();
        },
      );
      if (outcome.dryRun) return { ...base, status: "dry_run", request: outcome.dryRun };
      if (outcome.ignored.length === 0) return { ...base, status: "applied" };
      if (!options.strict) return { ...base, status: "applied", ignored: outcome.ignored };
      const strictFailure = new CliError("rejected", EXIT.rejected, `${describeIgnored(change.imageId, outcome.ignored)} (--strict)`);
      return { ...fail(strictFailure), ignored: outcome.ignored };
    } catch (error) {
      if (error instanceof NotSent) return null;
      return fail(toCliError(error));
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < changes.length) {
      const change = changes.at(next++);
      const result = await applyChange(change);
      if (result === null) break;
      finished++;
      if (result.status === "applied") run.applied++;
      else if (result.status === "failed") run.failed++;
      else if (result.status === "skipped") run.skipped++;
      else run.dryRun++;
      if (result.ignored?.length) {
        run.ignoredModifiers += result.ignored.length;
        run.changesWithIgnored++;
      }
      await write(result);
      progress.update(finished, run.failed);
    }
  };
  // A dry run makes no requests: one worker keeps its output in input order.
  const workers = options.dryRun ? 1 : Math.min(options.concurrency, Math.max(1, changes.length));
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    progress.stop();
  }
  run.notSent = changes.length - finished;
  run.elapsedMs = performance.now() - started;
  return run;
}

function waitForDrain(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.once("drain", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

/**
 * The summary on stderr, then the exit code: 130 when interrupted; 0 when nothing failed;
 * the failure's own code when nothing was done (none applied now or earlier) and every
 * failure shares that code; else 9.
 */
function finishBatch(ctx: Context, run: BatchRun): number {
  ctx.io.stderr.write(renderSummary(run, ctx.json, ctx.io.color.stderr));
  const resume = "resume with --skip-applied <the results printed on stdout>";
  if (run.stopped === "output_closed") {
    throw failure(`stdout was closed: stopped sending, ${plural(run.notSent, "change")} not sent; the results of the last changes were lost`, {
      hint: "send the results to a file (> results.jsonl) so a run can be resumed with --skip-applied",
    });
  }
  if (run.stopped === "interrupted") {
    throw interruptedError(`interrupted: ${plural(run.notSent, "change")} not sent; the changes in flight were finished and reported`, { hint: run.notSent > 0 ? resume : undefined });
  }
  if (run.failed === 0) {
    if (run.changes === 0) ctx.info("no changes in the input");
    return EXIT.ok;
  }
  const first = run.firstFailure!;
  const notSent = run.notSent > 0 ? `; stopped: ${plural(run.notSent, "change")} not sent` : "";
  const hint = run.notSent > 0 ? (stopsEveryChange(first) ? `fix the cause, then ${resume}` : `${resume}, or use --continue-on-error`) : undefined;
  const nothingDone = run.applied === 0 && run.skipped === 0;
  if (nothingDone && !run.mixedFailures) {
    const prefix = run.failed === 1 ? "" : `all ${run.failed} changes sent failed: `;
    throw new CliError(first.code, first.exitCode, `${prefix}${first.message}${notSent}`, { status: first.status, hint: hint ?? first.hint });
  }
  throw new CliError("partial", EXIT.partial, `${run.failed} of ${plural(run.changes, "change")} failed${notSent}`, { hint });
}

function plural(count: number, noun: string): string {
  return `${thousands(count)} ${noun}${count === 1 ? "" : "s"}`;
}
