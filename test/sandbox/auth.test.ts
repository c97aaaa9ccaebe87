/** Tokens, the user_id rules and intake lookup, in the order docs/api.md (transport, acting for a user) gives them. */
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { fetchJson, withSandbox, ALL_TIME } from "../helpers/sandbox.js";
import { codeFor } from "./fixtures.js";

const sb = withSandbox({ secret: "auth-test-secret-0123456789abcdef" });

const intakePath = (id: number) => `/v2/intake/${id}`;

async function foreignToken(claims: Record<string, unknown>, secret: string, options: { exp?: number | null } = {}) {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt(now);
  if (options.exp !== null) jwt = jwt.setExpirationTime(options.exp ?? now + 600);
  return jwt.sign(new TextEncoder().encode(secret));
}

describe("401: token missing or invalid", () => {
  const headerCases: Array<[string, Record<string, string>]> = [
    ["no Authorization header", {}],
    ["an empty Authorization header", { authorization: "" }],
    ["a Basic scheme", { authorization: "Basic YWxpY2U6c2VjcmV0" }],
    ["Bearer without a token", { authorization: "Bearer" }],
    ["a token that is not a JWT", { authorization: "Bearer not-a-jwt" }],
    ["a JWT with a corrupted payload", { authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.!!!.abc" }],
    ["two tokens", { authorization: "Bearer a.b.c d.e.f" }],
  ];
  for (const [label, headers] of headerCases) {
    it(`${label} → 401 with a JSON error`, async () => {
      const answer = await fetchJson(sb.handle, "GET", intakePath(1001), { headers });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: expect.any(String), code: codeFor(401) });
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    });
  }

  it("a token signed with another secret → 401", async () => {
    const token = await foreignToken({ sub: "101", role: "APIUser" }, "some-other-secret-0123456789abcdef");
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("an expired token → 401", async () => {
    const token = await sb.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: -60 });
    const answer = await fetchJson(sb.handle, "GET", intakePath(1001), { token });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/expired/);
  });

  it("a token without exp → 401", async () => {
    const token = await foreignToken({ sub: "101", role: "APIUser" }, "auth-test-secret-0123456789abcdef", { exp: null });
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("an unsigned (alg none) token → 401", async () => {
    const token = new UnsecuredJWT({ sub: "101", role: "APIUser" }).setExpirationTime("10m").encode();
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("an unknown subject → 401", async () => {
    const token = await sb.handle.signToken({ sub: "999", role: "APIUser" });
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("a subject that is not a user id → 401", async () => {
    const token = await sb.handle.signToken({ sub: "alice", role: "APIUser" });
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("a role that does not match the user's → 401", async () => {
    const token = await sb.handle.signToken({ sub: "101", role: "APICompany" });
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(401);
  });

  it("a fresh token from signToken works like the seeded one", async () => {
    const token = await sb.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: 60 });
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { token })).status).toBe(200);
  });

  it("the scheme name is case-insensitive", async () => {
    const answer = await fetchJson(sb.handle, "GET", intakePath(1001), {
      headers: { authorization: `bearer ${sb.handle.tokenFor("alice")}` },
    });
    expect(answer.status).toBe(200);
  });

  it("401 comes before any check of the body, on every /v2 route", async () => {
    const calls: Array<[string, string]> = [
      ["GET", "/v2/intake/abc"],
      ["GET", "/v2/history/getIntakesList?date_from=bad"],
      ["POST", "/v2/nutrition/confirm/quantity"],
      ["POST", "/v2/intake/1003/display_image"],
      ["DELETE", "/v2/intake/1003/display_image"],
      ["POST", "/v2/nutrition/recipe/ingredients"],
      ["POST", "/v2/nutrition/recipe/nutritionalInfo"],
      ["POST", "/v2/image/confirm/dish"],
    ];
    for (const [method, path] of calls) {
      const body = method === "POST" ? { rawBody: "{not json", contentType: "application/json" } : {};
      const answer = await fetchJson(sb.handle, method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 401]);
    }
  });

  it("the seeded tokens carry sub, role, iat and exp", () => {
    const [, payload] = sb.handle.tokenFor("dave").split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    expect(claims).toEqual({ sub: "201", role: "APIUserManager", iat: expect.any(Number), exp: expect.any(Number) });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });
});

describe("user_id rules", () => {
  it("a manager without user_id → 400", async () => {
    const answer = await fetchJson(sb.handle, "GET", intakePath(1001), { as: "dave" });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("user_id");
  });

  it("a company without user_id → 400, on the list too", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { as: "acme" })).status).toBe(400);
    expect((await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "acme", query: ALL_TIME })).status).toBe(400);
  });

  for (const value of ["abc", "0", "-101", "1e2", "", "101.0", " 101", "0101"]) {
    it(`a malformed user_id ${JSON.stringify(value)} → 400 for a manager and for a user`, async () => {
      expect((await fetchJson(sb.handle, "GET", intakePath(1001), { as: "dave", query: { user_id: value } })).status).toBe(400);
      expect((await fetchJson(sb.handle, "GET", intakePath(1001), { as: "alice", query: { user_id: value } })).status).toBe(400);
    });
  }

  it("a manager for a user it does not manage → 403", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(3001), { as: "dave", query: { user_id: 103 } })).status).toBe(403);
    expect(
      (await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "dave", query: { ...ALL_TIME, user_id: 104 } })).status,
    ).toBe(403);
  });

  it("a manager naming a user that does not exist → 403", async () => {
    expect(
      (await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "dave", query: { ...ALL_TIME, user_id: 999 } })).status,
    ).toBe(403);
  });

  it("an APIUser with a foreign user_id → 403", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { as: "alice", query: { user_id: 102 } })).status).toBe(403);
  });

  it("an APIUser may name itself", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(1001), { as: "alice", query: { user_id: 101 } })).status).toBe(200);
  });

  it("the user_id rules come before body validation", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "alice",
      query: { user_id: 102 },
      rawBody: "{bad",
      contentType: "application/json",
    });
    expect(answer.status).toBe(403);
  });

  it("a manager acts for the users it manages", async () => {
    const answer = await fetchJson(sb.handle, "GET", intakePath(2001), { as: "dave", query: { user_id: 102 } });
    expect(answer.status).toBe(200);
    expect(answer.body.intake_info.image_id).toBe(2001);
  });

  it("a company acts for every one of its users", async () => {
    for (const [userId, imageId] of [
      [101, 1001],
      [102, 2001],
      [103, 3001],
      [104, 4001],
    ] as const) {
      expect((await fetchJson(sb.handle, "GET", intakePath(imageId), { as: "acme", query: { user_id: userId } })).status).toBe(200);
    }
    const list = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "acme", query: { ...ALL_TIME, user_id: 104 } });
    expect(list.body.intakes_list.map((intake: { image_id: number }) => intake.image_id)).toEqual([4001, 4002, 4003]);
  });
});

describe("roles: confirm/quantity is for APIUser and APIUserManager tokens (the ingredients-edition guide)", () => {
  const roles = withSandbox({}, { perTest: true });
  const change = (
    as: string,
    query: Record<string, number> = {},
    body: unknown = { imageId: 1002, quantity: { "1": 222 }, salt: { "1": "high" } },
  ) => fetchJson(roles.handle, "POST", "/v2/nutrition/confirm/quantity", { as, query, body });

  it("a company token is refused with 403 (code 1204) in the service's {message, code}, and nothing changes", async () => {
    const before = roles.handle.intake(1002);
    const answer = await change("acme", { user_id: 101 });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      message: "an APICompany token cannot change quantities: POST /v2/nutrition/confirm/quantity is for APIUser and APIUserManager tokens",
      code: 1204,
    });
    expect(roles.handle.intake(1002)).toEqual(before);
    expect(roles.handle.stats().nutrition_calculations).toBe(0);
  });

  it("the role comes before the user_id rules and the body: without user_id, or with a broken body, still 403", async () => {
    expect((await change("acme")).body.code).toBe(1204);
    const broken = await fetchJson(roles.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "acme",
      rawBody: "{bad",
      contentType: "application/json",
    });
    expect([broken.status, broken.body.code]).toEqual([403, 1204]);
    // The opaque token is the same company.
    const opaque = await fetchJson(roles.handle, "POST", "/v2/nutrition/confirm/quantity", {
      token: roles.handle.opaqueTokenFor("acme"),
      query: { user_id: 101 },
      body: { imageId: 1002 },
    });
    expect(opaque.body.code).toBe(1204);
  });

  it("the user's own token and a manager's change quantities as before", async () => {
    expect((await change("alice")).status).toBe(200);
    expect((await change("dave", { user_id: 101 }, { imageId: 1002, quantity: { "2": 77 } })).status).toBe(200);
    const intake = roles.handle.intake(1002) as { recipe_per_item: Array<{ serving_size: number }> };
    expect(intake.recipe_per_item.slice(0, 2).map((item) => item.serving_size)).toEqual([222, 77]);
  });

  it("a company still reads its users' intakes and their recipes", async () => {
    for (const [method, path, body] of [
      ["GET", "/v2/intake/1002", undefined],
      ["POST", "/v2/nutrition/recipe/nutritionalInfo", { imageId: 1002 }],
      ["POST", "/v2/nutrition/recipe/ingredients/v1.0", { imageId: 1002 }],
    ] as const) {
      expect([path, (await fetchJson(roles.handle, method, path, { as: "acme", query: { user_id: 101 }, body })).status]).toEqual([
        path,
        200,
      ]);
    }
  });
});

describe("intake lookup", () => {
  it("an unknown intake → 404", async () => {
    const answer = await fetchJson(sb.handle, "GET", intakePath(987654), { as: "alice" });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toEqual(codeFor(404));
  });

  it("another user's intake → 403", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(2001), { as: "alice" })).status).toBe(403);
  });

  it("a manager naming one managed user for another managed user's intake → 404", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(2001), { as: "dave", query: { user_id: 101 } })).status).toBe(404);
  });

  it("a manager naming a managed user for an unmanaged user's intake → 403", async () => {
    expect((await fetchJson(sb.handle, "GET", intakePath(3001), { as: "dave", query: { user_id: 101 } })).status).toBe(403);
  });

  it("the update operation follows the same lookup rules", async () => {
    const post = (as: string, imageId: number, query?: Record<string, number>) =>
      fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", { as, query, body: { imageId } });
    expect((await post("alice", 2002)).status).toBe(403);
    expect((await post("dave", 2002, { user_id: 101 })).status).toBe(404);
    expect((await post("dave", 3002, { user_id: 101 })).status).toBe(403);
    expect((await post("dave", 2002, { user_id: 102 })).status).toBe(200);
  });
});
