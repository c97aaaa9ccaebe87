/**
 * Quotas as the public service's limitations page documents them (docs/api.md, rate limit and
 * credits): every answer to a known token carries User-ID, X-Account-Credits-Used and
 * X-Account-Credits-Remaining; for APIUser tokens only, a rolling 24-hour window with
 * RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until it resets), and a 429
 * (code 114) past the limit. The window runs on a clock the test moves.
 */
import { describe, expect, it } from "vitest";
import { createRateLimiter, DEFAULT_RATE_WINDOW_MS, describeWindow } from "../../src/sandbox/rateLimit.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";

const HOUR = 3_600_000;
const quotaHeaders = (headers: Headers) =>
  Object.fromEntries(
    [
      "user-id",
      "x-account-credits-used",
      "x-account-credits-remaining",
      "ratelimit-limit",
      "ratelimit-remaining",
      "ratelimit-reset",
      "retry-after",
    ]
      .map((name) => [name, headers.get(name)])
      .filter(([, value]) => value !== null),
  );

describe("the rolling window, on a fake clock", () => {
  it("24 hours by default, per APIUser: a request leaves the window exactly 24 h after it was made", () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: DEFAULT_RATE_WINDOW_MS });
    expect(limiter.take(101, 0).headers).toEqual({ "ratelimit-limit": "3", "ratelimit-remaining": "2", "ratelimit-reset": "86400" });
    expect(limiter.take(101, 1 * HOUR).headers["ratelimit-remaining"]).toBe("1");
    expect(limiter.take(101, 2 * HOUR).headers).toEqual({ "ratelimit-limit": "3", "ratelimit-remaining": "0", "ratelimit-reset": "79200" });
    const limited = limiter.take(101, 13 * HOUR);
    expect(limited).toEqual({
      allowed: false,
      headers: { "ratelimit-limit": "3", "ratelimit-remaining": "0", "ratelimit-reset": "39600", "retry-after": "39600" },
    });
    expect(limiter.take(102, 13 * HOUR).allowed).toBe(true);
    const freed = limiter.take(101, 24 * HOUR);
    expect(freed).toEqual({ allowed: true, headers: expect.objectContaining({ "ratelimit-remaining": "0", "ratelimit-reset": "3600" }) });
    expect(limiter.take(101, 24 * HOUR + 1).allowed).toBe(false);
  });

  it("an unused window tells its whole length, never 0: a call made now leaves it then", () => {
    const limiter = createRateLimiter({ limit: 5, windowMs: HOUR });
    expect(limiter.peek(101, 0).headers).toEqual({ "ratelimit-limit": "5", "ratelimit-remaining": "5", "ratelimit-reset": "3600" });
    limiter.take(101, 0);
    // Once its calls have left, the window is unused again.
    expect(limiter.peek(101, 2 * HOUR).headers).toEqual({ "ratelimit-limit": "5", "ratelimit-remaining": "5", "ratelimit-reset": "3600" });
  });

  it("a shorter window for tests: 2 per second", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000 });
    expect(limiter.take(101, 0).allowed).toBe(true);
    expect(limiter.take(101, 400).headers).toMatchObject({ "ratelimit-remaining": "0", "ratelimit-reset": "1" });
    expect(limiter.take(101, 999)).toEqual({ allowed: false, headers: expect.objectContaining({ "retry-after": "1" }) });
    expect(limiter.take(101, 1000).allowed).toBe(true);
    expect(limiter.take(101, 1001).allowed).toBe(false);
  });

  it("windows are named in their largest whole unit", () => {
    expect([DEFAULT_RATE_WINDOW_MS, 90 * 60_000, 1000, 1500].map(describeWindow)).toEqual(["24 h", "90 min", "1 s", "1500 ms"]);
  });
});

describe("the rate limit over HTTP", () => {
  let now = 0;
  const sb = withSandbox({ rateLimit: { limit: 3, windowMs: DEFAULT_RATE_WINDOW_MS }, now: () => now }, { perTest: true });
  const read = (options: Parameters<typeof fetchJson>[3] = { as: "alice" }) => fetchJson(sb.handle, "GET", "/v2/intake/1001", options);

  it("an APIUser's answers carry RateLimit-Limit, -Remaining and -Reset; its JWT and opaque token share one window", async () => {
    now = 0;
    const first = await read();
    expect(quotaHeaders(first.headers)).toMatchObject({ "ratelimit-limit": "3", "ratelimit-remaining": "2", "ratelimit-reset": "86400" });
    now = 6 * HOUR;
    const opaque = await read({ token: sb.handle.opaqueTokenFor("alice") });
    expect(quotaHeaders(opaque.headers)).toMatchObject({ "ratelimit-remaining": "1", "ratelimit-reset": "64800" });
    // An answer refused after the token check still counts, and still says so.
    const refused = await read({ as: "alice", query: { bad: "1" } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("past the limit: 429 with code 114, a message naming the window, Retry-After and RateLimit-Reset in seconds", async () => {
    now = 0;
    for (let i = 0; i < 3; i++) expect((await read()).status).toBe(200);
    now = 13 * HOUR;
    const limited = await read();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: "rate limit exceeded: at most 3 requests per rolling 24 h window; the next is allowed in 39600 s",
      code: 114,
    });
    expect(quotaHeaders(limited.headers)).toMatchObject({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "39600",
      "retry-after": "39600",
    });
    // The window rolls: once the first request is 24 h old, one more is allowed.
    now = 24 * HOUR + 1;
    expect((await read()).status).toBe(200);
    expect((await fetchJson(sb.handle, "GET", "/sandbox/stats")).status).toBe(200);
  });

  it("concurrent requests never pass the limit together", async () => {
    now = 0;
    const answers = await Promise.all(Array.from({ length: 8 }, () => read()));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    for (const answer of answers.filter((one) => one.status === 429)) expect(answer.body.code).toBe(114);
  });

  it("manager and company tokens are not limited and carry no RateLimit headers; one APIUser's limit is not another's", async () => {
    now = 0;
    for (let i = 0; i < 3; i++) await read();
    expect((await read()).status).toBe(429);
    for (const as of ["dave", "acme"]) {
      for (let i = 0; i < 5; i++) {
        const answer = await read({ as, query: { user_id: 101 } });
        expect([as, answer.status, answer.headers.get("ratelimit-limit")]).toEqual([as, 200, null]);
      }
    }
    const bob = await fetchJson(sb.handle, "GET", "/v2/intake/2001", { as: "bob" });
    expect([bob.status, bob.headers.get("ratelimit-remaining")]).toEqual([200, "2"]);
  });

  it("requests without a known token get a 401 with no quota headers and never use anyone's allowance", async () => {
    now = 0;
    for (const options of [{}, { token: "0".repeat(40) }, { token: "not-a-token" }]) {
      const answer = await read(options);
      expect([answer.status, quotaHeaders(answer.headers)]).toEqual([401, {}]);
    }
    expect((await read()).headers.get("ratelimit-remaining")).toBe("2");
  });
});

describe("User-ID and the account's credits", () => {
  const sb = withSandbox({ credits: 5 }, { perTest: true });

  it("every answer to a known token names its user and the credits the account has used and has left, errors included", async () => {
    const alice = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    expect(quotaHeaders(alice.headers)).toEqual({ "user-id": "101", "x-account-credits-used": "1", "x-account-credits-remaining": "4" });
    const missing = await fetchJson(sb.handle, "GET", "/v2/intake/9999", { as: "bob" });
    expect([missing.status, quotaHeaders(missing.headers)]).toEqual([
      404,
      { "user-id": "102", "x-account-credits-used": "2", "x-account-credits-remaining": "3" },
    ]);
    // A manager's token is its own user, whoever it acts for; the users share the account.
    const dave = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", {
      as: "dave",
      query: { user_id: 102 },
      body: { imageId: 2001 },
    });
    expect(quotaHeaders(dave.headers)).toEqual({ "user-id": "201", "x-account-credits-used": "3", "x-account-credits-remaining": "2" });
    // No rate limit was set: no RateLimit headers.
    expect(alice.headers.get("ratelimit-limit")).toBeNull();
  });

  it("the credits left stop at 0; the sandbox keeps answering (the service's answer at 0 is not documented)", async () => {
    for (let i = 0; i < 6; i++) await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    const answer = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    expect([answer.status, quotaHeaders(answer.headers)]).toEqual([
      200,
      { "user-id": "101", "x-account-credits-used": "7", "x-account-credits-remaining": "0" },
    ]);
  });

  it("a request refused for the rate limit uses no credit", async () => {
    const { startSandbox } = await import("../../src/sandbox/server.js");
    const limited = await startSandbox({ port: 0, rateLimit: { limit: 1, windowMs: DEFAULT_RATE_WINDOW_MS }, credits: 10 });
    try {
      expect((await fetchJson(limited, "GET", "/v2/intake/1001", { as: "alice" })).headers.get("x-account-credits-used")).toBe("1");
      const refused = await fetchJson(limited, "GET", "/v2/intake/1001", { as: "alice" });
      expect([refused.status, quotaHeaders(refused.headers)]).toMatchObject([429, { "user-id": "101", "x-account-credits-used": "1" }]);
      expect((await fetchJson(limited, "GET", "/v2/intake/2001", { as: "bob" })).headers.get("x-account-credits-used")).toBe("2");
    } finally {
      await limited.close();
    }
  });
});
