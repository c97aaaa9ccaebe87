/** The sandbox's rate limit (429 with Retry-After) and artificial latency. */
import { describe, expect, it } from "vitest";
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

    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })).status).toBe(200);
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
