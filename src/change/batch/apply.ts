/** A checked batch, sent: refused first when the rate-limit window has too few calls left (quota.ts), then run (run.ts), held while the window is spent. */
import type { ApiClient, ResponseInfo } from "../../api/client.js";
import { readQuota } from "../../api/quota.js";
import type { ChangeList } from "../../batch/changeList.js";
import { newBatchId } from "../../batch/results.js";
import type { Clock } from "../../clock.js";
import { runBatch, type BatchOutput, type BatchRun, type RunOptions } from "./run.js";

/** 429s one change may absorb before it fails (each waits out Retry-After). */
const BATCH_RATE_LIMIT_RETRIES = 20;
/** The longest a RateLimit-Reset holds the batch. */
const MAX_RATE_LIMIT_HOLD_MS = 120_000;

export type BatchOptions = Omit<RunOptions, "batchId">;

/**
 * docs/batch.md, rate limits. When an answer says no requests are left for the
 * requests the batch still has in flight and its next one (`RateLimit-Remaining` below the
 * changes in flight; 0 with one), every request of the batch waits `RateLimit-Reset` seconds
 * instead of running into 429s.
 */
export function holdOnRateLimit(
  client: () => ApiClient | undefined,
  inFlight: () => number,
  now: () => number,
): (info: ResponseInfo) => void {
  return (info) => {
    const quota = readQuota(info.headers);
    if (quota?.remaining === undefined || quota.remaining >= Math.max(1, inFlight())) return;
    // A reset beyond the hold is not waited for: the next request's 429 stops the batch and says when.
    if (quota.resetMs === undefined || quota.resetMs <= 0 || quota.resetMs > MAX_RATE_LIMIT_HOLD_MS) return;
    client()?.pauseUntil(now() + quota.resetMs);
  };
}

/**
 * Refuses, before the first change, a batch the rate-limit window has too few calls left for
 * (docs/batch.md). Only APIUser tokens are limited (docs/api.md, rate limit): a manager's or
 * company's (`role`) needs no probe.
 */
export async function checkBatchQuota(
  client: ApiClient,
  changes: ChangeList,
  options: { done: Set<string> | null; verify: boolean; role: string | undefined; now: () => number; zone: () => Promise<string> },
): Promise<void> {
  const { callsNeeded, probeQuota, refuseOverQuota } = await import("./quota.js");
  const needed = callsNeeded(changes, options.done, options.verify);
  if (needed.total === 0 || (options.role !== undefined && options.role !== "APIUser")) return;
  const quota = await probeQuota(client, options.now());
  const zone = await options.zone();
  refuseOverQuota(needed, quota, { host: client.host, now: options.now(), zone, holdMs: MAX_RATE_LIMIT_HOLD_MS });
}

/**
 * Sends the batch. Ctrl-C (`signal`) must not cancel requests in flight: the batch stops starting
 * new ones instead. A 429 pauses the whole batch and is retried on its own budget, so a busy API
 * slows the batch down instead of failing lines.
 */
export async function applyBatch<O extends BatchOutput>(
  client: ApiClient,
  changes: ChangeList,
  options: BatchOptions,
  openOutput: (stop: () => void) => O,
  context: { clock: Clock; signal: AbortSignal },
): Promise<{ run: BatchRun; output: O }> {
  const holder: { client?: ApiClient; run?: BatchRun } = {};
  // The run's clock (a test's fake one too), as the client's retries use: the hold and the wait share one time.
  const onResponse = holdOnRateLimit(
    () => holder.client,
    () => holder.run?.inFlight ?? 1,
    () => context.clock.now(),
  );
  const batchClient = client.derive({ signal: undefined, rateLimitRetries: BATCH_RATE_LIMIT_RETRIES, onResponse });
  holder.client = batchClient;
  const clients = new Map<number, ApiClient>();
  const clientFor = (userId: number | undefined) => {
    if (userId === undefined) return batchClient;
    let derived = clients.get(userId);
    if (!derived) clients.set(userId, (derived = batchClient.derive({ userId })));
    return derived;
  };
  const output = openOutput(() => {
    if (holder.run && holder.run.stopped !== "interrupted") holder.run.stopped = "output_closed";
  });
  try {
    const tools = { clientFor, write: output.write, progress: output.progress, started: (started: BatchRun) => (holder.run = started) };
    return {
      run: await runBatch(changes, { ...options, batchId: newBatchId(new Date(context.clock.now())) }, tools, context.signal),
      output,
    };
  } finally {
    output.close();
  }
}
