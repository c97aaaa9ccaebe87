/**
 * What the public service does (docs/api.md, the public service), row by row, as the sandbox
 * reproduces it: opaque tokens, service error codes, gaps in positions. The history-date,
 * language and nutrient rows are in read.test.ts; the rate limit and credits in quotas.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SEED_USERS } from "../../src/sandbox/seed.js";
import { ALL_TIME, fetchJson, withSandbox } from "../helpers/sandbox.js";
import { getIntake, itemAt, update, type Json } from "./fixtures.js";

describe("§5 API tokens", () => {
  const sb = withSandbox({}, { perTest: true });

  it("§5 API tokens: every seeded user has an opaque 40-hex token besides its JWT", () => {
    for (const user of sb.handle.users) {
      expect(user.opaque_token).toMatch(/^[0-9a-f]{40}$/);
      expect(user.token.split(".")).toHaveLength(3);
      expect(sb.handle.opaqueTokenFor(user.name)).toBe(user.opaque_token);
    }
    expect(new Set(sb.handle.users.map((user) => user.opaque_token)).size).toBe(SEED_USERS.length);
  });

  it("§5 API tokens: the opaque token works on every endpoint, exactly as the JWT does", async () => {
    const token = sb.handle.opaqueTokenFor("alice");
    const calls: Array<[string, string, Parameters<typeof fetchJson>[3]]> = [
      ["GET", "/v2/intake/1002", { token }],
      ["GET", "/v2/history/getIntakesList", { token, query: ALL_TIME }],
      ["POST", "/v2/nutrition/recipe/ingredients", { token, body: { imageId: 1002 } }],
      ["POST", "/v2/nutrition/recipe/nutritionalInfo", { token, body: { imageId: 1002 } }],
      ["POST", "/v2/nutrition/confirm/quantity", { token, body: { imageId: 1002, quantity: { "1": 190 } } }],
      ["POST", "/v2/image/confirm/dish", { token, body: { imageId: 1002, confirmedClass: [513], food_item_position: [1] } }],
      ["DELETE", "/v2/intake/1005/display_image", { token }],
    ];
    for (const [method, path, options] of calls) {
      const answer = await fetchJson(sb.handle, method, path, options);
      expect([method, path, answer.status]).toEqual([method, path, 200]);
    }
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 1).serving_size).toBe(190);
  });

  it("§5 API tokens: a manager's opaque token acts for its users; an unknown 40-hex token is a 401 (code 1002)", async () => {
    const dave = sb.handle.opaqueTokenFor("dave");
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/2001", { token: dave, query: { user_id: 102 } })).status).toBe(200);
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/2001", { token: dave })).body.code).toBe(1201);
    const unknown = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { token: "0".repeat(40) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe(1002);
  });

  it("§5 API tokens: the opaque tokens survive a restart on the same secret and change with it", async () => {
    const { startSandbox } = await import("../../src/sandbox/server.js");
    const a = await startSandbox({ port: 0, secret: "one-secret-0123456789abcdef" });
    const b = await startSandbox({ port: 0, secret: "one-secret-0123456789abcdef" });
    const c = await startSandbox({ port: 0, secret: "two-secret-0123456789abcdef" });
    try {
      expect(b.opaqueTokenFor("alice")).toBe(a.opaqueTokenFor("alice"));
      expect(c.opaqueTokenFor("alice")).not.toBe(a.opaqueTokenFor("alice"));
      expect((await fetchJson(c, "GET", "/v2/intake/1001", { token: a.opaqueTokenFor("alice") })).status).toBe(401);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe("§5 error bodies", () => {
  const sb = withSandbox();
  const expired = () => sb.handle.signToken({ sub: "101", role: "APIUser", expiresInSeconds: -60 });

  it("§5 error bodies: code is the service's own number, one per rule, never the HTTP status", async () => {
    const cases: Array<[string, string, string, Parameters<typeof fetchJson>[3], number, number]> = [
      ["token missing", "GET", "/v2/intake/1001", {}, 401, 1001],
      ["token malformed", "GET", "/v2/intake/1001", { token: "not-a-token" }, 401, 1002],
      ["token expired", "GET", "/v2/intake/1001", { token: await expired() }, 401, 1003],
      ["user_id required", "GET", "/v2/intake/1001", { as: "dave" }, 400, 1201],
      ["user_id malformed", "GET", "/v2/intake/1001", { as: "dave", query: { user_id: "x" } }, 400, 1202],
      ["user_id not managed", "GET", "/v2/intake/4001", { as: "dave", query: { user_id: 104 } }, 403, 1203],
      ["no such intake", "GET", "/v2/intake/9999", { as: "alice" }, 404, 1301],
      ["unknown path", "GET", "/v2/intakes", { as: "alice" }, 404, 1302],
      ["method not allowed", "PUT", "/v2/intake/1001", { as: "alice" }, 405, 1303],
      ["malformed image id", "GET", "/v2/intake/abc", { as: "alice" }, 400, 1401],
      ["missing date", "GET", "/v2/history/getIntakesList", { as: "alice" }, 400, 1401],
      ["not JSON", "POST", "/v2/nutrition/confirm/quantity", { as: "alice", rawBody: "{", contentType: "application/json" }, 400, 1402],
      ["wrong shape", "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body: [1001] }, 400, 1402],
      ["invalid quantity", "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body: { imageId: 1001, quantity: 0 } }, 400, 1403],
      ["invalid level", "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body: { imageId: 1001, salt: "salty" } }, 400, 1404],
      [
        "invalid measures",
        "POST",
        "/v2/nutrition/confirm/quantity",
        { as: "alice", body: { imageId: 1002, measures: { "1": "cubits" } } },
        400,
        1404,
      ],
      [
        "unknown position",
        "POST",
        "/v2/nutrition/confirm/quantity",
        { as: "alice", body: { imageId: 1002, quantity: { "7": 10 } } },
        400,
        1405,
      ],
      ["not manual", "DELETE", "/v2/intake/1002/display_image", { as: "alice" }, 409, 1501],
      ["not multipart", "POST", "/v2/intake/1003/display_image", { as: "alice", body: {} }, 415, 1503],
    ];
    for (const [label, method, path, options, status, code] of cases) {
      const answer = await fetchJson(sb.handle, method, path, options);
      expect([label, answer.status, answer.body]).toEqual([label, status, { message: expect.any(String), code }]);
    }
  });

  it("§5 error bodies: salt per position on a recognition-only intake is a 400 that names salt, not quantity", async () => {
    const answer = await update(sb.handle, "alice", { imageId: 1001, salt: { "1": "high" } });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(1402);
    expect(answer.body.message).toMatch(/^salt /);
    expect(answer.body.message).not.toMatch(/quantity/);
    const sugar = await update(sb.handle, "alice", { imageId: 1002, sugar: "low" });
    expect(sugar.body.message).toMatch(/^sugar is one value/);
  });
});

describe("§5 positions", () => {
  const sb = withSandbox({}, { perTest: true });

  it("§5 positions: an intake with positions 1 and 3 changes at 3 and refuses 2 as unknown (code 1405)", async () => {
    expect((await update(sb.handle, "erin", { imageId: 4003, quantity: { "3": 120 }, salt: { "3": "high" } })).status).toBe(200);
    const intake: Json = await getIntake(sb.handle, 4003, "erin");
    expect(itemAt(intake, 3)).toMatchObject({ serving_size: 120, salt: "high" });
    expect(itemAt(intake, 1).serving_size).toBe(300);
    const gap = await update(sb.handle, "erin", { imageId: 4003, quantity: { "2": 50 } });
    expect(gap.body).toEqual({ message: "unknown position 2 (this intake has 1, 3)", code: 1405 });
  });
});
