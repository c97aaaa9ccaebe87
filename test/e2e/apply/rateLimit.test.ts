/** 429s slow the whole batch down instead of failing lines. */
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, countRequests, jsonl, POST_QUANTITY, results, writeInput } from "./harness.js";

const sb = withSandbox({ rateLimit: 10 });

describe("intake apply: rate limit", () => {
  it("absorbs 429 answers honouring Retry-After: every change applied, exit 0", async () => {
    const changes = Array.from({ length: 16 }, (_, index) => ({ image_id: 1002, quantity: { [String((index % 3) + 1)]: 100 + index } }));
    const file = writeInput("burst.jsonl", jsonl(...changes));
    const sent = countRequests(sb.handle);
    const run = await apply(sb.handle, [file, "--no-verify", "--concurrency", "8"]);
    expect(run.stderr).toMatch(/applied 16 · failed 0/);
    expect(run.code).toBe(0);
    expect(results(run.stdout).map((result) => result.status)).toEqual(Array(16).fill("applied"));
    // More updates reached the API than there were changes: some were refused with 429 and sent again.
    expect(sent()[POST_QUANTITY]).toBeGreaterThan(16);
  });

  it("gives 429s their own budget: with --retries 0 a rate-limited batch still applies every change", async () => {
    const changes = Array.from({ length: 24 }, (_, index) => ({ image_id: 1003, quantity: { manual1: 300 + index } }));
    const file = writeInput("burst-no-retries.jsonl", jsonl(...changes));
    const run = await apply(sb.handle, [file, "--no-verify", "--concurrency", "8", "--retries", "0"]);
    expect(run.stderr).toMatch(/applied 24 · failed 0/);
    expect(run.code).toBe(0);
  });
});
