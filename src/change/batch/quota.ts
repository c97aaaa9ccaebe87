/**
 * `intake apply` plans with the quota (docs/batch.md, rate limits): one cheap request learns the
 * calls left in the rolling window, and a batch that needs more than are left before a reset it
 * would not wait for is refused before its first change.
 */
import type { ApiClient } from "../../api/client.js";
import { readQuota, type Quota } from "../../api/quota.js";
import { resultKey } from "../../batch/results.js";
import type { ChangeList } from "../../batch/changeList.js";
import { describeWait } from "../../clock.js";
import { CliError, usageError } from "../../errors.js";
import { thousands } from "../../intake/amounts.js";
import { formatApiDateTime } from "../../intake/dates.js";
import { formatClock } from "../../output/time.js";

export interface CallsNeeded {
  /** A read before each intake's first change (the next changes of one intake start from its read-back). */
  reads: number;
  updates: number;
  readBacks: number;
  total: number;
}

/** The calls the batch makes at most: its reads, updates and read-backs; lines applied earlier (--skip-applied) make none. */
export function callsNeeded(changes: ChangeList, done: Set<string> | null, verify: boolean): CallsNeeded {
  const intakes = new Set<string>();
  let updates = 0;
  for (let index = 0; index < changes.length; index++) {
    const change = changes.at(index);
    if (done?.has(resultKey(change.line, change.imageId))) continue;
    updates++;
    intakes.add(`${change.userId ?? ""}:${change.imageId}`);
  }
  const reads = verify ? intakes.size : 0;
  const readBacks = verify ? updates : 0;
  return { reads, updates, readBacks, total: reads + updates + readBacks };
}

/**
 * One cheap request (the history list over one second, one attempt) for the quota's headers; null
 * when the answer told none or none came. Its failures are left to the batch's own requests, which
 * report them per change; only Ctrl-C stops here.
 */
export async function probeQuota(client: ApiClient, instant: number): Promise<Quota | null> {
  let headers: Record<string, string | undefined> = {};
  const probe = client.derive({ onResponse: (info) => (headers = info.headers), retries: 0, rateLimitRetries: 0 });
  const now = formatApiDateTime(new Date(instant));
  try {
    await probe.listIntakes({ from: now, to: now });
  } catch (error) {
    if (!(error instanceof CliError) || error.code === "interrupted") throw error;
  }
  return readQuota(headers);
}

/**
 * Refuses (exit 2, nothing sent) a batch that needs more calls than the window has left, when the
 * window frees them later than the batch would wait (`holdMs`), or says no time at all: it would stop part-way.
 */
export function refuseOverQuota(
  needed: CallsNeeded,
  quota: Quota | null,
  context: { host: string; now: number; zone: string; holdMs: number },
): void {
  if (quota?.remaining === undefined || needed.total <= quota.remaining) return;
  // A reset of 0 names no time more calls come back (every one is back already): only a later reset frees calls to wait for.
  if (quota.resetMs !== undefined && quota.resetMs > 0 && quota.resetMs <= context.holdMs) return;
  const count = (n: number, noun: string) => `${thousands(n)} ${noun}${n === 1 ? "" : "s"}`;
  const parts = [count(needed.reads, "read"), count(needed.updates, "update"), count(needed.readBacks, "read-back")];
  const until =
    quota.resetMs === undefined || quota.resetMs === 0
      ? ""
      : ` until ${formatClock(context.now + quota.resetMs, context.zone)} (in ${describeWait(quota.resetMs)})`;
  throw usageError(
    `the batch needs ${thousands(needed.total)} calls (${parts.join(", ")}) but ${context.host} allows ${thousands(quota.remaining)} more${until}`,
    {
      hint: "nothing was sent; split the batch, run it after the reset, or --force to start anyway (it stops at the limit and says how to resume)",
    },
  );
}
