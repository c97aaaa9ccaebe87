/**
 * A rate-limited sandbox (its answers carry RateLimit-Remaining and RateLimit-Reset): the batch
 * holds new requests when the budget is spent instead of collecting 429s, and 429s that still
 * come slow it down instead of failing lines. The sandbox's window and the CLI's waits share one
 * fake clock, so a hold of RateLimit-Reset (1 s) costs no real time.
 */
import { describe, expect, it } from "vitest";
import { fakeClock } from "../../helpers/clock.js";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, countRequests, jsonl, POST_QUANTITY, results, writeInput } from "./harness.js";

const clock = fakeClock();
const sb = withSandbox({ rateLimit: { limit: 10, windowMs: 1000 }, now: () => clock.now() });

describe("intake apply: rate limit", () => {
  it("holds when RateLimit-Remaining is spent: every change applied, and no 429 collected", async () => {
    const intakes = [1002, 1003, 1004, 1005];
    const changes = Array.from({ length: 16 }, (_, index) => {
      const id = intakes[index % 4]!;
      return { image_id: id, quantity: { [id === 1002 ? "1" : "manual1"]: 100 + index } };
    });
    const file = writeInput("burst.jsonl", jsonl(...changes));
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--no-verify", "--concurrency", "4"], { clock });
    expect(run.stderr).toMatch(/applied 16 · failed 0/);
    expect(run.code).toBe(0);
    expect(results(run.stdout).map((result) => result.status)).toEqual(Array(16).fill("applied"));
    // Each update reached the API once: none was refused with 429 and sent again.
    expect(sent()[POST_QUANTITY]).toBe(16);
    // 16 updates at 10 a second: the batch held once at least (a wait on the fake clock).
    expect(clock.sleeps.length).toBeGreaterThan(0);
    // Held on the run's clock, as its retries wait: RateLimit-Reset's second, not the gap to the system's time.
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(1000);
  });

  it("gives 429s their own budget: with --retries 0 a rate-limited batch still applies every change", async () => {
    const changes = Array.from({ length: 24 }, (_, index) => ({ image_id: 1003, quantity: { manual1: 300 + index } }));
    const file = writeInput("burst-no-retries.jsonl", jsonl(...changes));
    const waits = clock.sleeps.length;
    const run = await apply(sb.handle, [file, "--no-verify", "--concurrency", "8", "--retries", "0"], { clock });
    expect(run.stderr).toMatch(/applied 24 · failed 0/);
    expect(run.code).toBe(0);
    // It got there by waiting out the window (on the fake clock), not by luck of timing.
    expect(clock.sleeps.length).toBeGreaterThan(waits);
  });
});
