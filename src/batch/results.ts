/**
 * Result lines of `intake apply`: what each change did, as JSON Lines on stdout and in the
 * `--results` file; read back by `--skip-applied` to resume a run.
 */
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { errorJson, usageError, type CliError, type ErrorJson } from "../errors.js";
import { notRegularFile } from "../files.js";
import { isPlainRecord } from "../intake/records.js";
import { readId } from "./jsonl.js";
import { splitLines } from "./lines.js";
import { ProblemList, type BatchProblem } from "./problems.js";

/**
 * Statuses of a result line; "skipped" always means "applied by an earlier run"; "overwritten":
 * applied, then another writer changed what it set before it was read back (docs/journal.md, concurrent writers);
 * "unchanged": the intake held every value already, so nothing was sent or journaled.
 */
export const RESULT_STATUSES = ["applied", "failed", "skipped", "dry_run", "overwritten", "unchanged"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** A failed line's error: the fields of the one JSON form of an error that docs/batch.md names. */
export type BatchResultError = Pick<ErrorJson, "code" | "exit_code" | "status" | "message">;

export function resultError(error: CliError): BatchResultError {
  const { code, exit_code, status, message } = errorJson(error);
  return { code, exit_code, status, message };
}

/** One field of one position that the change moved, read before and after it. */
export interface ResultChange {
  position: string | null;
  field: "grams" | "salt" | "sugar" | "oil" | "measures";
  before: number | string | null;
  after: number | string | null;
}

/** One line of the results. */
export interface BatchResult {
  line: number;
  image_id: number;
  status: ResultStatus;
  batch_id: string;
  /** The journal entry of the change, when the change pipeline keeps one. */
  journal_id?: string;
  /** False when the change was applied but reading it back failed ("applied, unverified"; `error` says why). */
  verified?: false;
  /** What this line's own change moved (verified changes only). */
  changed?: ResultChange[];
  error?: BatchResultError;
  ignored?: Array<{ position: string | null; field: string; requested: string; actual: string | null }>;
  /** --dry-run: the request that would be sent, token masked. */
  request?: unknown;
  /** The values the intake held already, not sent: every value of an "unchanged" line, some of an applied one. */
  unchanged?: Array<{ position: string | null; field: string; value: string | number }>;
}

/** docs/batch.md, results: one id per run, sortable by time: `20261123-160842-3f9a2c`. */
export function newBatchId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Key of a change in an earlier results file: line number and image_id together. */
export function resultKey(line: number, imageId: number): string {
  return `${line}:${imageId}`;
}

export const RESULT_LINE_EXAMPLE = '{"line":3,"image_id":1002,"status":"applied","batch_id":"…"}';

/** One line of an earlier run's results, for --skip-applied: its key when it was done, or a problem. */
export function parseResultLine(text: string, line: number): { done: string | null; problem: BatchProblem | null } {
  const fail = (what: string) => ({
    done: null,
    problem: { line, field: null, message: `not a result line of \`intake apply\` (${what})` },
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail("not JSON");
  }
  if (!isPlainRecord(value)) return fail("not a JSON object");
  if (value.status === undefined && value.line === undefined && value.image_id !== undefined)
    return fail("it looks like a change, not its result");
  const changeLine = readId(value.line);
  if (changeLine === null) return fail(value.line === undefined ? "no line" : "line is not a positive integer");
  const imageId = readId(value.image_id);
  if (imageId === null) return fail(value.image_id === undefined ? "no image_id" : "image_id is not a positive integer");
  if (typeof value.status !== "string" || !(RESULT_STATUSES as readonly string[]).includes(value.status)) {
    return fail(`status is not one of ${RESULT_STATUSES.join(", ")}`);
  }
  // An overwritten line was applied: sending it again would overwrite the other writer's value. An unchanged line needed nothing.
  const done = ["applied", "skipped", "overwritten", "unchanged"].includes(value.status);
  return { done: done ? resultKey(changeLine, imageId) : null, problem: null };
}

/** Reads an earlier run's results: the keys of the changes already applied. */
export async function readAppliedResults(
  chunks: AsyncIterable<Buffer | string>,
): Promise<{ done: Set<string>; problems: BatchProblem[]; problemCount: number }> {
  const done = new Set<string>();
  const problems = new ProblemList();
  for await (const input of splitLines(chunks)) {
    if (input.text === null) {
      problems.add({ line: input.line, field: null, message: input.problem ?? "unreadable line" });
      continue;
    }
    if (input.text.trim() === "") continue;
    const parsed = parseResultLine(input.text, input.line);
    if (parsed.problem) problems.add(parsed.problem);
    else if (parsed.done) done.add(parsed.done);
  }
  return { done, problems: problems.list, problemCount: problems.count };
}

/**
 * Refuses a results file that is not a regular file, before anything is sent: a FIFO would
 * block the read and a device never end it. A path that cannot be stat'ed is left to the read.
 */
export function refuseNonRegularResults(file: string): void {
  let kind: string | null;
  try {
    kind = notRegularFile(statSync(file));
  } catch {
    return;
  }
  if (kind) throw usageError(`${file} is ${kind}, not a results file: nothing was sent`);
}
