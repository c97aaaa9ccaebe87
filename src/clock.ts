/**
 * Time as the CLI sees it: the current time and a wait. The process uses the system clock;
 * tests pass a fake one through `run(argv, deps)` so retries and Retry-After cost no real time.
 */
export interface Clock {
  now(): number;
  /** Waits (a retry's backoff, Retry-After); returns early when the signal is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A request's time limit: calls `onExpiry` once `ms` have passed, unless the returned cancel
   * comes first (the answer came). A plain timer: no promise or abort signal per request.
   */
  deadline(ms: number, onExpiry: () => void): () => void;
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

function deadline(ms: number, onExpiry: () => void): () => void {
  const timer = setTimeout(onExpiry, ms);
  return () => clearTimeout(timer);
}

export const systemClock: Clock = { now: () => Date.now(), sleep, deadline };

/** A wait in words, to the minute: "6 h 40 min", "2 h", "1 min" (a quota's reset). */
export function describeWait(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
