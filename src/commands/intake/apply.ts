/**
 * `intake apply`: many changes from JSON Lines or CSV. One streaming pass checks every line
 * and keeps only the parsed changes; nothing is sent unless all of them are valid. Then the
 * changes are sent (change/batch/) and each result printed (output/batchOutput.ts); the summary and
 * the exit code close the run.
 */
import { closeSync } from "node:fs";
import type { ChangeList } from "../../batch/changeList.js";
import type { BatchFormat } from "../../batch/format.js";
import type { BatchResult } from "../../batch/results.js";
import { readChanges, readEarlierResults, stdoutResultsFile } from "../../batch/read.js";
import { applyBatch, checkBatchQuota, type BatchOptions } from "../../change/batch/apply.js";
import { stopsEveryChange, type BatchRun } from "../../change/batch/run.js";
import type { Context } from "../../context.js";
import { CliError, EXIT, failure, interruptedError, usageError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import { renderResultLine, renderSummary, resultColumns } from "../../output/batch.js";
import { APPLY_PRINTER, createBatchOutput, openResultsFile, type ResultPrinter } from "../../output/batchOutput.js";
import { withCurlLines } from "../../output/curl.js";
import { shellQuote } from "../../sanitize.js";
import { openJournal } from "../journaled.js";
import { wouldBeRefused } from "../reportChange.js";
import { DEFAULT_CONCURRENCY, type ChangeFlags } from "../spec.js";

/** What `intake apply` runs with, flags read. */
export interface ApplyOptions extends Omit<BatchOptions, "done"> {
  /** Unset: from the file name, else from the content. */
  format: BatchFormat | undefined;
  skipApplied: string | undefined;
  results: string | undefined;
  /** With dryRun: each request as a curl command on stdout. */
  curl: boolean;
  /** Start although the calls left in the rate-limit window are fewer than the batch needs. */
  force: boolean;
}

/** `intake apply` as the command line gave it. */
export interface ApplyFlags extends ChangeFlags {
  file: string;
  format: string | undefined;
  concurrency: number | undefined;
  continueOnError: boolean;
  results: string | undefined;
  skipApplied: string | undefined;
  force?: boolean;
}

/** Flags, checked before anything is read (exit 2). */
export function readApplyOptions(file: string, options: Partial<Omit<ApplyFlags, "file">>): ApplyOptions {
  const { skipApplied, results } = options;
  if (skipApplied === "-" && file === "-")
    throw usageError("stdin cannot hold both the changes and the earlier results (--skip-applied -)");
  return {
    // One of BatchFormat: commander refuses any other (the option's choices).
    format: options.format as BatchFormat | undefined,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    continueOnError: options.continueOnError === true,
    skipApplied,
    results,
    strict: options.strict === true,
    dryRun: options.dryRun === true,
    curl: options.curl === true,
    verify: options.verify !== false,
    force: options.force === true,
  };
}

export async function applyCommand(ctx: Context, flags: ApplyFlags): Promise<number> {
  const file = flags.file;
  const options = readApplyOptions(file, flags);
  options.journal = await openJournal(ctx, "intake apply");
  // The API URL and token are checked before the (possibly long) read of the input.
  const client = await ctx.client();
  if (!options.dryRun) client.refuseQuantityChangeByRole();
  const done = options.skipApplied === undefined ? null : await readEarlierResults(ctx, options.skipApplied);
  const input = await readChanges(ctx, file, options.format);
  const resultsFd = options.results === undefined ? null : openResultsFile(options.results);
  const clock = ctx.clock;
  if (!options.dryRun && !options.force) {
    const role = ctx.token().claims?.role;
    const zone = async () => (await ctx.timeZone()) ?? "UTC";
    await checkBatchQuota(client, input.changes, { ...options, done, role, now: () => clock.now(), zone }).catch((error: unknown) => {
      if (resultsFd !== null) closeSync(resultsFd);
      throw error;
    });
  }
  const printer = options.curl ? withCurlLines(ctx, APPLY_PRINTER) : alignedLines(input.changes);
  const openOutput = (stop: () => void) => createBatchOutput(ctx, input.changes.length, resultsFd, stop, printer, options.results);
  const { run, output } = await applyBatch(client, input.changes, { ...options, done }, openOutput, { clock, signal: ctx.signal });
  const carried = [
    ...(options.format === undefined ? [] : [`--format ${options.format}`]),
    ...(options.concurrency === DEFAULT_CONCURRENCY ? [] : [`--concurrency ${options.concurrency}`]),
    ...(options.continueOnError ? ["--continue-on-error"] : []),
    ...(options.strict ? ["--strict"] : []),
    ...(options.verify ? [] : ["--no-verify"]),
  ];
  const applied = run.applied + run.unverified > 0;
  const journaled = options.journal !== undefined;
  const batch = { file, kept: options.results ?? stdoutResultsFile(ctx), flags: carried, applied, batchId: run.batchId, journaled };
  const code = finishBatch(ctx, run, batch, output.resultsLost());
  // A dry run ends as the real run would: refused for the token's role (exit 5).
  const refusal = options.dryRun ? client.quantityChangeRefusal() : null;
  if (refusal && run.dryRun > 0) throw wouldBeRefused(refusal);
  return code;
}

/** APPLY_PRINTER with a terminal's lines in columns: the widest line number and intake id of the input are known before the first line prints. */
function alignedLines(changes: ChangeList): ResultPrinter<BatchResult> {
  const columns = resultColumns(changes.length ? [changes.at(changes.length - 1), { line: 1, imageId: maxImageId(changes) }] : []);
  return {
    ...APPLY_PRINTER,
    stdout: (result, human, color, width) =>
      human ? renderResultLine(result, color, width, columns) : APPLY_PRINTER.stdout(result, human, color, width),
  };
}

function maxImageId(changes: ChangeList): number {
  let max = 0;
  for (let index = 0; index < changes.length; index++) max = Math.max(max, changes.imageIdAt(index));
  return max;
}

/** What a stopped batch knows of itself, for the command that goes on where it left off. */
interface StoppedBatch {
  file: string;
  /** Where its results were kept: the --results file, or the file stdout's JSON Lines went to (`> out.jsonl`). */
  kept: string | undefined;
  /** The run's own options that the resumed run keeps: `--format csv`, `--no-verify`. */
  flags: string[];
  /** Whether it applied any line before it stopped. */
  applied: boolean;
  batchId: string;
  journaled: boolean;
}

/**
 * How to go on where a stopped batch left off, as a command with the values at hand (its file
 * and options): from the file its results were kept in; when nothing was applied, the same run
 * again; else what it applied, and how to keep the results next time.
 */
export function resumeHint(batch: StoppedBatch): string {
  const command = (...more: string[]) => ["foodctl intake apply", shellQuote(batch.file), ...batch.flags, ...more].join(" ");
  if (batch.kept !== undefined)
    return `resume with: ${command(`--skip-applied ${shellQuote(batch.kept)}`, `--results ${shellQuote(batch.kept)}`)}`;
  if (!batch.applied) return `run it again, keeping its results: ${command("--results results.jsonl")}`;
  const listed = batch.journaled ? ` (\`foodctl journal --batch ${batch.batchId}\` lists what it applied)` : "";
  return `its results were not kept, so it cannot resume where it stopped${listed}: keep them next time with --results results.jsonl`;
}

function plural(count: number, noun: string): string {
  return `${thousands(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The summary on stderr, then the exit code: 130 when interrupted; 0 when nothing failed (9
 * when the --results file missed results);
 * the failure's own code when nothing was done (none applied now or earlier) and every
 * failure shares that code; else 9.
 */
function finishBatch(ctx: Context, run: BatchRun, batch: StoppedBatch, resultsLost: { count: number; error: Error } | null): number {
  ctx.io.stderr.write(renderSummary(run, ctx.json, ctx.io.color.stderr, ctx.io.stderr.isTTY === true ? ctx.io.stderr.columns : undefined));
  const resume = resumeHint(batch);
  if (run.stopped === "output_closed") {
    throw failure(
      `stdout was closed: stopped sending, ${plural(run.notSent, "change")} not sent; the results of the last changes were lost`,
      {
        hint: "keep the results in a file (--results results.jsonl) so a run can be resumed with --skip-applied",
      },
    );
  }
  if (run.stopped === "interrupted") {
    // True to what happened: the changes in flight were finished, or none had been sent.
    const sent = run.changes - run.notSent > 0 ? "the changes in flight were finished and reported" : "none had been sent";
    const message = `interrupted: ${plural(run.notSent, "change")} not sent; ${sent}`;
    throw interruptedError(message, { hint: run.notSent > 0 ? resume : undefined });
  }
  // An overwritten line did not take effect: it counts against the exit code as a failure does (docs/batch.md, exit codes).
  const problems = run.failed + run.overwritten;
  if (problems === 0 && run.unverified === 0) {
    if (run.changes === 0) ctx.info("no changes in the input");
    if (resultsLost) {
      const what = `${plural(resultsLost.count, "result")} could not be written to the --results file (${resultsLost.error.message})`;
      throw new CliError("partial", EXIT.partial, what, { hint: "every result went to stdout; resume from them with --skip-applied" });
    }
    return EXIT.ok;
  }
  const first = run.firstFailure!;
  if (first.status === 429 && run.notSent > 0) {
    // The window's reset is in the 429's message; the results so far are written, so the rest can follow it.
    const message = `stopped at the rate limit: ${appliedText(run)}, ${plural(run.notSent, "change")} not sent; ${first.message}`;
    const nothing = run.applied === 0 && run.unverified === 0 && run.skipped === 0 && run.unchanged === 0;
    throw new CliError(nothing ? first.code : "partial", nothing ? first.exitCode : EXIT.partial, message, {
      status: 429,
      hint: `after the reset, ${resume}`,
    });
  }
  const notSent = run.notSent > 0 ? `; stopped: ${plural(run.notSent, "change")} not sent` : "";
  const hint =
    run.notSent > 0
      ? stopsEveryChange(first)
        ? `fix the cause, then ${resume}`
        : `${resume} (add --continue-on-error to go past failing lines)`
      : undefined;
  const nothingDone = run.applied === 0 && run.unverified === 0 && run.skipped === 0 && run.unchanged === 0;
  if (nothingDone && !run.mixedFailures) {
    const prefix = problems === 1 ? "" : `all ${problems} changes sent failed or were overwritten: `;
    throw new CliError(first.code, first.exitCode, `${prefix}${first.message}${notSent}`, {
      status: first.status,
      hint: hint ?? first.hint,
    });
  }
  const overwritten = run.overwritten > 0 ? ` (${thousands(run.overwritten)} overwritten by another writer)` : "";
  const failed = problems > 0 ? `${thousands(problems)} of ${plural(run.changes, "change")} failed${overwritten}` : null;
  const unverified =
    run.unverified > 0 ? `${plural(run.unverified, "change")} applied but not read back (applied, unverified: see its result line)` : null;
  throw new CliError("partial", EXIT.partial, `${[failed, unverified].filter(Boolean).join("; ")}${notSent}`, { hint });
}

/** "3 changes applied (1 unverified)": applied now, read back or not. */
function appliedText(run: BatchRun): string {
  const unverified = run.unverified > 0 ? ` (${thousands(run.unverified)} unverified)` : "";
  return `${plural(run.applied + run.unverified, "change")} applied${unverified}`;
}
