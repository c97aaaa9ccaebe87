import { decodeJwt } from "jose";

export interface TokenClaims {
  sub: string | undefined;
  role: string | undefined;
  exp: number | undefined;
  iat: number | undefined;
}

/** Reads the claims of a JWT without verifying it (only the server can); null if it is not a JWT. */
export function readTokenClaims(token: string): TokenClaims | null {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) return null;
  try {
    const claims = decodeJwt(token);
    const role = (claims as Record<string, unknown>).role;
    return {
      sub: typeof claims.sub === "string" ? claims.sub : claims.sub === undefined ? undefined : String(claims.sub),
      role: typeof role === "string" ? role : undefined,
      exp: typeof claims.exp === "number" ? claims.exp : undefined,
      iat: typeof claims.iat === "number" ? claims.iat : undefined,
    };
  } catch {
    return null;
  }
}

export function isExpired(claims: TokenClaims, nowSeconds: number = Date.now() / 1000): boolean {
  return claims.exp !== undefined && claims.exp <= nowSeconds;
}

/** What may be shown of a token anywhere but `auth token`: nothing of its secret parts. */
export const MASKED_TOKEN = "****";
