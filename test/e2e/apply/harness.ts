/**
 * What the `intake apply` end-to-end tests share: input files in a temp folder, foodctl (in
 * process, or the built CLI where a process matters) run against a sandbox as a seeded user, result lines parsed, and request counts by route.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { IntakeRecord, ItemRecipeRecord } from "../../../src/sandbox/render.js";
import type { SandboxHandle } from "../../../src/sandbox/server.js";
import { baseEnv, cliBin, collect, runEither, runTempDir, tempConfigHome, type AnyRunOptions, type CliResult } from "../../helpers/cli.js";

export const GET_INTAKE = "GET /v2/intake/:image_id";
export const POST_QUANTITY = "POST /v2/nutrition/confirm/quantity";
/** The one cheap request a batch makes first, for the calls left in the rate-limit window (docs/batch.md, rate limits). */
export const QUOTA_PROBE = "GET /v2/history/getIntakesList";

export interface ResultLine {
  line: number;
  image_id: number;
  status: "applied" | "failed" | "skipped" | "dry_run" | "unchanged";
  error?: { code: string; exit_code: number; status: number | null; message: string };
  ignored?: Array<{ position: string | null; field: string; requested: string; actual: string | null }>;
  request?: { method: string; url: string; headers: Record<string, string>; body: Record<string, unknown> };
}

/** Writes a file into a fresh temp folder (removed after the run) and returns its path. */
export function writeInput(name: string, text: string): string {
  const dir = runTempDir("foodctl-apply-");
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export const jsonl = (...lines: Array<Record<string, unknown> | string>) =>
  `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;

export const CSV_HEADER = "image_id,user_id,position,quantity,salt,sugar,oil,measures";

function envFor(handle: SandboxHandle, as: string, extra: Record<string, string | undefined> = {}) {
  return { FOODCTL_API_URL: handle.url, FOODCTL_TOKEN: handle.tokenFor(as), ...extra };
}

/** `foodctl intake apply <args>` as a seeded user (default alice) against the sandbox, in process unless asked otherwise. */
export function apply(handle: SandboxHandle, args: string[], options: AnyRunOptions & { as?: string } = {}): Promise<CliResult> {
  const { as = "alice", env, ...rest } = options;
  return runEither(["intake", "apply", ...args], { timeoutMs: 60_000, ...rest, env: envFor(handle, as, env) });
}

/** The same, as a child process the test can signal, with stdout to a pipe or to a file descriptor. */
export function spawnApply(handle: SandboxHandle, args: string[], as = "alice", stdout: "pipe" | number = "pipe") {
  const child = spawn(process.execPath, [cliBin(), "intake", "apply", ...args], {
    env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), ...envFor(handle, as) }),
    stdio: ["pipe", stdout, "pipe"],
  });
  return { child, done: collect(child, { timeoutMs: 120_000 }) };
}

/** Every stdout line parsed, as written; a line that is not complete JSON fails the test. */
export function fullResults(stdout: string): Array<ResultLine & { batch_id: string; changed?: unknown[]; journal_id?: string }> {
  const lines = stdout.split("\n");
  expect(lines.pop(), "stdout ends with a newline").toBe("");
  return lines.map((line) => JSON.parse(line) as ResultLine & { batch_id: string });
}

export const BATCH_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/**
 * The result lines without the batch_id and journal_id (their forms checked here) and without
 * the before/after of `changed`, for tests about status and errors.
 */
export function results(stdout: string): ResultLine[] {
  return fullResults(stdout).map(({ batch_id, journal_id, changed: _changed, ...rest }) => {
    if (batch_id !== undefined) expect(batch_id).toMatch(BATCH_ID);
    if (journal_id !== undefined) expect([rest.status, journal_id]).toEqual(["applied", expect.stringMatching(/^[0-9a-z]{12}$/)]);
    return rest;
  });
}

export function byLine(list: ResultLine[]): Map<number, ResultLine> {
  return new Map(list.map((result) => [result.line, result]));
}

/** Starts counting; the returned function gives the requests since, by route (zeros left out). */
export function countRequests(handle: SandboxHandle): () => Record<string, number> {
  const start = handle.stats().requests;
  return () => {
    const delta: Record<string, number> = {};
    for (const [route, count] of Object.entries(handle.stats().requests)) {
      const sent = count - (start[route] ?? 0);
      if (sent !== 0) delta[route] = sent;
    }
    return delta;
  };
}

export function intake(handle: SandboxHandle, imageId: number): IntakeRecord {
  return handle.intake(imageId) as IntakeRecord;
}

export function item(handle: SandboxHandle, imageId: number, position: number | string): ItemRecipeRecord {
  const found = intake(handle, imageId).recipe_per_item?.find((entry) => entry.food_item_position === position);
  if (!found) throw new Error(`intake ${imageId} has no position ${position}`);
  return found;
}
