/**
 * Tokens of the sandbox (docs/api.md, users and tokens). HS256 JWTs with claims sub, role, iat,
 * exp: signing is a plain HMAC with node:crypto (start-up signs one token per user and stays
 * fast); verifying uses jose, loaded on the first request. Opaque tokens, as the public service
 * issues them: 40 hex characters, derived from the secret and the user id, so a state file keeps
 * them valid across restarts.
 */
import { createHmac } from "node:crypto";
import { systemClock } from "../clock.js";

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

export function signToken(key: Uint8Array, claims: { sub: string; role: string; expiresInSeconds?: number }): string {
  const now = Math.floor(systemClock.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      role: claims.role,
      sub: claims.sub,
      iat: now,
      exp: now + (claims.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS),
    }),
  );
  const signature = createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** The opaque token of a user: 40 lowercase hex characters. */
export function opaqueToken(key: Uint8Array, userId: number): string {
  return createHmac("sha256", key).update(`opaque-token:${userId}`).digest("hex").slice(0, 40);
}

export const OPAQUE_TOKEN = /^[0-9a-f]{40}$/;

export type VerifiedToken = { ok: true; sub: string; role: string } | { ok: false; reason: string; expired?: boolean };

/**
 * Tokens jose has already verified, with their expiry: a client sends the same token on every
 * request, and WebCrypto's asynchronous HMAC would otherwise add a thread-pool round trip to
 * each one. Per key, bounded, and expiry still checked on every use.
 */
const verifiedByKey = new WeakMap<Uint8Array, Map<string, { sub: string; role: string; exp: number }>>();
const MAX_CACHED_TOKENS = 1000;

export async function verifyToken(key: Uint8Array, token: string): Promise<VerifiedToken> {
  let cache = verifiedByKey.get(key);
  if (!cache) verifiedByKey.set(key, (cache = new Map()));
  const known = cache.get(token);
  if (known) {
    if (known.exp > systemClock.now() / 1000) return { ok: true, sub: known.sub, role: known.role };
    cache.delete(token);
  }
  const verified = await verifyWithJose(key, token);
  if (verified.ok) {
    if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value!);
    cache.set(token, { sub: verified.sub, role: verified.role, exp: verified.exp });
  }
  return verified.ok ? { ok: true, sub: verified.sub, role: verified.role } : verified;
}

type JoseResult = { ok: true; sub: string; role: string; exp: number } | { ok: false; reason: string; expired?: boolean };

async function verifyWithJose(key: Uint8Array, token: string): Promise<JoseResult> {
  const { errors, jwtVerify } = await import("jose");
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["sub", "exp"] });
    if (typeof payload.sub !== "string" || typeof payload.role !== "string") {
      return { ok: false, reason: "the token lacks the sub or role claim" };
    }
    return { ok: true, sub: payload.sub, role: payload.role, exp: payload.exp ?? 0 };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: "the token has expired", expired: true };
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: "the token's signature is not valid" };
    if (error instanceof errors.JWTClaimValidationFailed)
      return { ok: false, reason: `the token's ${error.claim} claim is missing or invalid` };
    return { ok: false, reason: "the token is not a valid HS256 JWT" };
  }
}
