import { describe, expect, it } from "vitest";
import { isExpired, readTokenClaims } from "../../src/config/jwt.js";
import { tokenTextProblem } from "../../src/config/token.js";

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (payload: unknown, signature = "c2lnbmF0dXJl") => `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}.${signature}`;

describe("readTokenClaims", () => {
  it("reads sub, role, iat and exp without verifying", () => {
    expect(readTokenClaims(jwt({ sub: "101", role: "APIUser", iat: 1_700_000_000, exp: 1_800_000_000 }))).toEqual({
      sub: "101",
      role: "APIUser",
      iat: 1_700_000_000,
      exp: 1_800_000_000,
    });
  });

  it("leaves missing claims undefined", () => {
    expect(readTokenClaims(jwt({}))).toEqual({ sub: undefined, role: undefined, iat: undefined, exp: undefined });
  });

  it("ignores claims of the wrong type", () => {
    expect(readTokenClaims(jwt({ role: 7, exp: "soon", iat: null }))).toMatchObject({ role: undefined, exp: undefined, iat: undefined });
  });

  it("accepts an unsigned token (empty third part)", () => {
    expect(readTokenClaims(jwt({ sub: "1" }, ""))?.sub).toBe("1");
  });

  it.each([
    ["an empty string", ""],
    ["a plain word", "secret"],
    ["two parts", `${part({ alg: "HS256" })}.${part({ sub: "1" })}`],
    ["four parts", `${jwt({ sub: "1" })}.extra`],
    ["a payload that is not base64url JSON", `${part({ alg: "HS256" })}.bm90IGpzb24.sig`],
    ["a payload that is a JSON array", jwt([1, 2])],
    ["standard base64 padding", `${part({ alg: "HS256" })}.${part({ sub: "1" })}==.sig`],
    ["whitespace inside", `${jwt({ sub: "1" })} `],
    ["a Bearer prefix", `Bearer ${jwt({ sub: "1" })}`],
  ])("refuses %s", (_name, token) => {
    expect(readTokenClaims(token)).toBeNull();
  });
});

describe("isExpired", () => {
  const claims = (exp: number | undefined) => ({ sub: "1", role: "APIUser", iat: undefined, exp });

  it("calls a token expired at or after its exp", () => {
    expect(isExpired(claims(1000), 1000)).toBe(true);
    expect(isExpired(claims(1000), 1001)).toBe(true);
  });

  it("calls a token valid before its exp", () => {
    expect(isExpired(claims(1000), 999)).toBe(false);
  });

  it("never expires a token without exp", () => {
    expect(isExpired(claims(undefined), Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it("reads expiry against the run's clock, not the machine's", () => {
    const now = Date.UTC(2030, 0, 1) / 1000;
    expect(isExpired(claims(now - 60), now)).toBe(true);
    expect(isExpired(claims(now + 3600), now)).toBe(false);
  });
});

describe("tokenTextProblem", () => {
  it.each(["Bearer abc.def", "bearer abc", "BEARER\tabc", "BeArEr", "bearer"])("refuses %j: a pasted Bearer prefix", (text) => {
    expect(tokenTextProblem(text)?.message).toBe('starts with "Bearer "');
  });

  it.each([
    ["", "is empty"],
    ["abc\u0007def", "holds control characters"],
    ["abc def", "holds whitespace"],
    ["abc\ndef", "holds whitespace"],
    ["abc\u00a0def", "holds whitespace"],
    ["abcdé", "holds characters outside printable ASCII"],
  ])("refuses %j: %s", (text, message) => {
    expect(tokenTextProblem(text)?.message).toBe(message);
  });

  it.each(["bearerish-token", "abc.Bearer", "eyJhbGciOiJIUzI1NiJ9.e30.c2ln", "opaque_token-123", "!~"])("accepts %j", (text) => {
    expect(tokenTextProblem(text)).toBeNull();
  });
});
