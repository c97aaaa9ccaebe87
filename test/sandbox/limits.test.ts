/** The sandbox's rate limit (429 with Retry-After) and artificial latency. */
import { describe, expect, it } from "vitest";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";

describe("rate limit", () => {
  const sb = withSandbox({ rateLimit: 5 });

  it("over the limit the API answers 429 with Retry-After: 1; stats and images stay reachable", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(3);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.body).toEqual({ message: expect.any(String), code: 429 });
    expect((await fetchJson(sb.handle, "GET", "/sandbox/stats")).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })).status).toBe(200);
  });
});

describe("latency", () => {
  const sb = withSandbox({ latencyMs: 150 });

  it("every /v2 answer is delayed, errors included; stats are not", async () => {
    let started = performance.now();
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    started = performance.now();
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001")).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    started = performance.now();
    await fetchJson(sb.handle, "GET", "/sandbox/stats");
    expect(performance.now() - started).toBeLessThan(140);
  });
});
