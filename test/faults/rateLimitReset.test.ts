/** A 429 whose reset is beyond the retry budget stops at once and says when it resets (docs/api.md, rate limit). */
import { beforeAll, describe, expect, it } from "vitest";
import { fakeClock } from "../helpers/clock.js";
import { expectErrorLine, runFoodctl } from "../helpers/cli.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";
import { signTestToken } from "./fixtures.js";

let token: string;
beforeAll(async () => {
  token = await signTestToken();
});

const limited = (headers: Record<string, string>) =>
  faults.json(429, { message: "Rate limit exceeded", code: 114 }, { "ratelimit-limit": "50", "ratelimit-remaining": "0", ...headers });

describe("a 429 not worth waiting for", () => {
  it.each([
    [{ "ratelimit-reset": "40000" }, "11 h 7 min"],
    [{ "retry-after": "7200", "ratelimit-reset": "9" }, "2 h"],
  ])("%j: one attempt, no wait, and the reset in the error", async (headers, wait) => {
    const clock = fakeClock();
    const api = scriptedTransport().route("GET /v2/intake/1002", limited(headers));
    const result = await runFoodctl(["intake", "show", "1002"], {
      env: { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: token },
      transport: api.transport,
      clock,
    });
    expectErrorLine(
      result,
      8,
      new RegExp(`answered 429 \\(code 114\\): Rate limit exceeded; the limit resets in ${wait} \\(at .* UTC\\)$`),
    );
    expect(api.count()).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("names the reset on the user's clock: 2 h after 2026-01-01 00:00 UTC is 07:45 in Kathmandu (+05:45)", async () => {
    const api = scriptedTransport().route("GET /v2/intake/1002", limited({ "retry-after": "7200" }));
    const result = await runFoodctl(["intake", "show", "1002", "--tz", "Asia/Kathmandu"], {
      env: { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: token },
      transport: api.transport,
      clock: fakeClock(),
    });
    expectErrorLine(result, 8, "the limit resets in 2 h (at 2026-01-01 07:45 Asia/Kathmandu)");
  });

  it("still waits out a short reset and tries again", async () => {
    const clock = fakeClock();
    const api = scriptedTransport().route("GET /v2/intake/1002", limited({ "ratelimit-reset": "3" }), faults.intake({ image_id: 1002 }));
    const result = await runFoodctl(["intake", "show", "1002", "--json"], {
      env: { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: token },
      transport: api.transport,
      clock,
    });
    expect(result.code).toBe(0);
    expect(clock.sleeps).toEqual([3000]);
  });
});

describe("a reset or Retry-After no server means (N4)", () => {
  it.each([
    ["ratelimit-reset", "8600000000000"],
    ["ratelimit-reset", "8.6e12"],
    ["ratelimit-reset", "-5"],
    ["retry-after", "8600000000000"],
    ["retry-after", "Fri, 31 Dec 9999 23:59:59 GMT"],
    ["retry-after", "NaN"],
  ])("%s: %s is an unknown reset: one clear error, exit 8, no crash", async (header, value) => {
    const clock = fakeClock();
    const api = scriptedTransport().route("GET /v2/intake/1002", limited({ [header]: value }));
    const result = await runFoodctl(["intake", "show", "1002"], {
      env: { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: token, FOODCTL_RETRIES: "0" },
      transport: api.transport,
      clock,
    });
    expectErrorLine(result, 8, /answered 429 \(code 114\): Rate limit exceeded$/);
    expect(result.stderr).toMatch(/^hint: try again later$/m);
    // Unknown: the usual backoff between the 429's own retries, never the told wait.
    expect(clock.sleeps.every((ms) => ms <= 8000)).toBe(true);
  });

  it("a Retry-After of 8.6e12 s is not waited for: the 429 is retried after the usual backoff", async () => {
    const clock = fakeClock();
    const api = scriptedTransport().route(
      "GET /v2/intake/1002",
      limited({ "retry-after": "8600000000000" }),
      faults.intake({ image_id: 1002 }),
    );
    const result = await runFoodctl(["intake", "show", "1002", "--json"], {
      env: { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: token, FOODCTL_RETRIES: "1" },
      transport: api.transport,
      clock,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(8000);
  });
});
