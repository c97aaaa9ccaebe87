/** The sandbox's rate limit (429 with Retry-After) and artificial latency. */
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../src/sandbox/rateLimit.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";
import { codeFor } from "./fixtures.js";

describe("rate limit", () => {
  const sb = withSandbox({ rateLimit: 5 });

  it("over the limit the API answers 429 with Retry-After: 1; stats and images stay reachable", async () => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })));
    const elapsed = performance.now() - started;
    const passed = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(passed.length + limited.length).toBe(8);
    // Within one second exactly 5 pass; a very slow machine may have let the window slide.
    if (elapsed < 1000) expect(passed).toHaveLength(5);
    expect(passed.length).toBeLessThanOrEqual(5 * Math.ceil(elapsed / 1000));
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.body).toEqual({ message: expect.any(String), code: codeFor(429) });
    expect((await fetchJson(sb.handle, "GET", "/sandbox/stats")).status).toBe(200);
  });
});

describe("the rate limiter's window, on a fake clock", () => {
  it("a sliding window per token: a slot frees exactly when its request leaves the window", () => {
    const limiter = createRateLimiter(2);
    expect(limiter.take("a", 0).allowed).toBe(true);
    expect(limiter.take("a", 400).headers).toMatchObject({ "ratelimit-remaining": "0", "ratelimit-reset": "1" });
    const limited = limiter.take("a", 999);
    expect(limited).toEqual({ allowed: false, headers: expect.objectContaining({ "retry-after": "1", "ratelimit-reset": "1" }) });
    expect(limiter.take("b", 999).allowed).toBe(true);
    expect(limiter.take(null, 999).allowed).toBe(true);
    expect(limiter.take("a", 1000).headers["ratelimit-remaining"]).toBe("0");
    expect(limiter.take("a", 1001).allowed).toBe(false);
    expect(limiter.take("a", 1400).allowed).toBe(true);
  });

  it("below one request per second the window widens: 0.5 per second is one request per 2 s", () => {
    const limiter = createRateLimiter(0.5);
    expect(limiter.take("a", 0).headers).toMatchObject({ "ratelimit-limit": "1", "ratelimit-reset": "2" });
    expect(limiter.take("a", 1999).allowed).toBe(false);
    expect(limiter.take("a", 2000).allowed).toBe(true);
  });
});

describe("latency", () => {
  const sb = withSandbox({ latencyMs: 300 });

  it("every /v2 answer is delayed, errors included; stats are not", async () => {
    let started = performance.now();
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);

    started = performance.now();
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001")).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);

    const finished: string[] = [];
    await Promise.all([
      fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" }).then(() => finished.push("api")),
      fetchJson(sb.handle, "GET", "/sandbox/stats").then(() => finished.push("stats")),
    ]);
    expect(finished).toEqual(["stats", "api"]);
  });
});
