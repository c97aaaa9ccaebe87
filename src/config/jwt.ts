export interface TokenClaims {
  sub: string | undefined;
  role: string | undefined;
  exp: number | undefined;
  iat: number | undefined;
}

/** Reads the claims of a JWT without verifying it (only the server can); null if it is not a JWT. */
export function readTokenClaims(token: string): TokenClaims | null {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) return null;
  // The payload is base64url JSON: only its claims are read, so no JWT library is needed.
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) return null;
  const { sub, role, exp, iat } = claims as Record<string, unknown>;
  return {
    sub: typeof sub === "string" ? sub : sub === undefined ? undefined : String(sub),
    role: typeof role === "string" ? role : undefined,
    exp: typeof exp === "number" ? exp : undefined,
    iat: typeof iat === "number" ? iat : undefined,
  };
}

export function isExpired(claims: TokenClaims, nowSeconds: number): boolean {
  return claims.exp !== undefined && claims.exp <= nowSeconds;
}
