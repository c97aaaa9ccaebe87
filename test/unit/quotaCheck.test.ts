/** The quota check before a batch (src/change/batch/quota.ts): what the window's headers let a batch start. */
import { describe, expect, it } from "vitest";
import type { Quota } from "../../src/api/quota.js";
import { refuseOverQuota } from "../../src/change/batch/quota.js";
import { EXIT } from "../../src/errors.js";

const needed = { reads: 3, updates: 3, readBacks: 3, total: 9 };
const quota = (remaining: number, resetSeconds: number): Quota => ({
  limit: 5,
  remaining,
  resetMs: resetSeconds * 1000,
  creditsUsed: undefined,
  creditsRemaining: undefined,
  userId: undefined,
});
const context = { host: "api.example.com", now: Date.UTC(2026, 10, 28, 3, 10), zone: "UTC", holdMs: 120_000 };
const refusal = (given: Quota) => {
  try {
    refuseOverQuota(needed, given, context);
    return null;
  } catch (error) {
    return error as { message: string; exitCode: number };
  }
};

describe("refuseOverQuota", () => {
  it("starts a batch the window frees calls for within the hold", () => {
    expect(refusal(quota(5, 1))).toBeNull();
    expect(refusal(quota(9, 3600))).toBeNull();
  });

  it("refuses a batch whose calls come back later than the hold, with the reset time", () => {
    expect(refusal(quota(5, 3600))).toMatchObject({
      exitCode: EXIT.usage,
      message:
        "the batch needs 9 calls (3 reads, 3 updates, 3 read-backs) but api.example.com allows 5 more until 2026-11-28 04:10 UTC (in 1 h)",
    });
  });

  it("refuses a batch when RateLimit-Reset is 0: no time is named for more calls than those left", () => {
    expect(refusal(quota(5, 0))).toMatchObject({
      exitCode: EXIT.usage,
      message: "the batch needs 9 calls (3 reads, 3 updates, 3 read-backs) but api.example.com allows 5 more",
    });
  });
});
