/** A fake clock for `run(argv, { clock })` and the API client: waits cost no real time and are recorded. */
import type { Clock } from "../../src/clock.js";

export interface FakeClock extends Clock {
  /** Every wait asked for, in ms, in order. */
  readonly sleeps: number[];
}

export function fakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) return;
      sleeps.push(ms);
      now += ms;
      // Let other work (requests in flight, the test) run, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
