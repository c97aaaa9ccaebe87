/** The sandbox's artificial latency (its rate limit: quotas.test.ts). */
import { describe, expect, it } from "vitest";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";

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
