/**
 * Runs a batch's changes `concurrency` at a time, but the changes of one intake one after
 * another in file order (docs/batch.md, order): a change starts only once the
 * previous change of its intake has finished, its read-after included. A lane hands what one
 * change learned (the intake as read after it) to the change of the same intake queued behind
 * it; a change that starts a new lane reads the intake afresh.
 */

interface Lane {
  queued: number[];
  head: number;
}

export interface LaneOptions<T> {
  count: number;
  concurrency: number;
  /** The intake a change belongs to. */
  keyOf: (index: number) => number;
  /** Runs one change; its answer is handed to the next change of the same lane. */
  work: (index: number, carried: T | undefined) => Promise<T | undefined>;
  /** True once no further change may start. */
  stopped: () => boolean;
}

export async function runInLanes<T>(options: LaneOptions<T>): Promise<void> {
  const { count, keyOf, work, stopped } = options;
  const lanes = new Map<number, Lane>();
  let next = 0;

  const drain = async (key: number, first: number) => {
    const lane = lanes.get(key)!;
    let carried: T | undefined;
    let index: number | undefined = first;
    while (index !== undefined && !stopped()) {
      carried = await work(index, carried);
      index = lane.head < lane.queued.length ? lane.queued[lane.head++] : undefined;
    }
    lanes.delete(key);
  };

  const worker = async () => {
    while (next < count && !stopped()) {
      const index = next++;
      const key = keyOf(index);
      const busy = lanes.get(key);
      if (busy) {
        busy.queued.push(index);
        continue;
      }
      lanes.set(key, { queued: [], head: 0 });
      await drain(key, index);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, count));
  await Promise.all(Array.from({ length: workers }, worker));
}
