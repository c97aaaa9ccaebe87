/**
 * Time as the CLI sees it: the current time and a wait. The process uses the system clock;
 * tests pass a fake one through `run(argv, deps)` so retries and Retry-After cost no real time.
 */
export interface Clock {
  now(): number;
  /** Waits (a retry's backoff, Retry-After); returns early when the signal is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A request's time limit: resolves once `ms` have passed; returns early when the signal is aborted (the answer came). */
  deadline(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A wait that Ctrl-C cuts short, leaving no timer behind to hold the process open. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep, deadline: sleep };

/** Calls `onExpiry` when the clock's deadline passes, unless the returned cancel comes first. */
export function startDeadline(clock: Clock, ms: number, onExpiry: () => void): () => void {
  const cancel = new AbortController();
  void clock.deadline(ms, cancel.signal).then(() => {
    if (!cancel.signal.aborted) onExpiry();
  });
  return () => cancel.abort();
}
