/**
 * HS256 tokens of the sandbox (api-contract §2): claims sub, role, iat, exp. Signing is a
 * plain HMAC with node:crypto (start-up signs one token per user and stays fast); verifying
 * uses jose, loaded on the first request.
 */
import { createHmac } from "node:crypto";

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

export function signToken(key: Uint8Array, claims: { sub: string; role: string; expiresInSeconds?: number }): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({ role: claims.role, sub: claims.sub, iat: now, exp: now + (claims.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS) }),
  );
  const signature = createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

export type VerifiedToken = { ok: true; sub: string; role: string } | { ok: false; reason: string };

export async function verifyToken(key: Uint8Array, token: string): Promise<VerifiedToken> {
  const { errors, jwtVerify } = await import("jose");
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "exp"] });
    if (typeof payload.sub !== "string" || typeof payload.role !== "string") {
      return { ok: false, reason: "the token lacks the sub or role claim" };
    }
    return { ok: true, sub: payload.sub, role: payload.role };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: "the token has expired" };
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: "the token's signature is not valid" };
    if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: `the token's ${error.claim} claim is missing or invalid` };
    return { ok: false, reason: "the token is not a valid HS256 JWT" };
  }
}
