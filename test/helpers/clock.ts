/**
 * A fake clock for `run(argv, { clock })`, the API client and the transports: waits (backoff,
 * Retry-After, the 429 pause) cost no real time and are recorded. A request's time limit
 * passes when the test says: by default after the real time (answers come long before), or
 * when a fault server starts holding a request (`deadline: server.holdDeadline`).
 */
import { systemClock, type Clock } from "../../src/clock.js";

export interface FakeClock extends Clock {
  /** Every wait asked for, in ms, in order. */
  readonly sleeps: number[];
  /** Every request time limit started, in ms. */
  readonly deadlines: number[];
}

export function fakeClock(options: { start?: number; deadline?: Clock["deadline"] } = {}): FakeClock {
  let now = options.start ?? Date.UTC(2026, 0, 1);
  const sleeps: number[] = [];
  const deadlines: number[] = [];
  const deadline = options.deadline ?? systemClock.deadline;
  return {
    sleeps,
    deadlines,
    now: () => now,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) return;
      sleeps.push(ms);
      now += ms;
      // Let other work (requests in flight, the test) run, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
    },
    deadline(ms: number, onExpiry: () => void) {
      deadlines.push(ms);
      return deadline(ms, () => {
        now += ms;
        onExpiry();
      });
    },
  };
}

/** A request time limit that passes at once (on the next turn of the event loop) unless cancelled first: `fakeClock({ deadline: atOnce })`. */
export const atOnce: Clock["deadline"] = (_ms, onExpiry) => {
  const timer = setImmediate(onExpiry);
  return () => clearImmediate(timer);
};
