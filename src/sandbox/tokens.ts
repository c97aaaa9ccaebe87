/** HS256 tokens of the sandbox (api-contract §2): claims sub, role, iat, exp. */
import { errors, jwtVerify, SignJWT } from "jose";

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signToken(key: Uint8Array, claims: { sub: string; role: string; expiresInSeconds?: number }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: claims.role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS))
    .sign(key);
}

export type VerifiedToken = { ok: true; sub: string; role: string } | { ok: false; reason: string };

export async function verifyToken(key: Uint8Array, token: string): Promise<VerifiedToken> {
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
