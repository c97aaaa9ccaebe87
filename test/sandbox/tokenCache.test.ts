/** The sandbox remembers tokens it verified, and still refuses them once they expire. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";

const sb = withSandbox();

afterEach(() => {
  vi.useRealTimers();
});

describe("sandbox token verification", () => {
  it("accepts a verified token again, and refuses it with 401 once its exp has passed", async () => {
    const token = await sb.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: 60 });
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { token })).status).toBe(200);
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { token })).status).toBe(200);

    // Only Date moves: the server's sockets and timers stay real.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    const expired = await fetchJson<{ message: string; code: number }>(sb.handle, "GET", "/v2/intake/1001", { token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
  });

  it("never lets a tampered token ride on a cached one", async () => {
    const token = sb.handle.tokenFor("alice");
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { token })).status).toBe(200);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { token: `${header}.${payload}.${flipped}` })).status).toBe(401);
  });
});
