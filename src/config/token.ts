/**
 * What a token may look like before it is sent: a JWT (its claims are read, never verified) or
 * an opaque service token (sent as it is; only the server knows its subject and expiry).
 */
import { authError } from "../errors.js";
import { isExpired, readTokenClaims, type TokenClaims } from "./jwt.js";

export type TokenKind = "jwt" | "opaque";

export interface CheckedToken {
  value: string;
  kind: TokenKind;
  /** Only for a JWT. */
  claims: TokenClaims | null;
}

const BEARER_PREFIX = { message: 'starts with "Bearer "', hint: 'drop the "Bearer " prefix: give the token alone' };

/** Why a token text cannot be a token, or null: printable ASCII without spaces, no pasted `Bearer `. */
export function tokenTextProblem(text: string): { message: string; hint?: string } | null {
  if (text === "") return { message: "is empty" };
  if (/^bearer(\s|$)/i.test(text)) return BEARER_PREFIX;
  if (/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/.test(text)) {
    return { message: "holds control characters", hint: "copy the token again from where it was issued" };
  }
  if (/\s/.test(text)) return { message: "holds whitespace", hint: "a token is one word: copy it again without spaces or line breaks" };
  if (/[^\u0021-\u007e]/.test(text)) return { message: "holds characters outside printable ASCII" };
  return null;
}

/**
 * The token to send, refused (exit 4, nothing sent) when it cannot be one or is a JWT that has
 * expired. `where` names it in messages ("FOODCTL_TOKEN", "the token of profile \"x\""); `hint` replaces
 * the advice to log in where logging in cannot help (a token from the environment).
 */
/** `now` is the run's clock (ms). */
export function checkToken(
  text: string,
  where: string,
  now: number,
  options: { allowExpired?: boolean; hint?: string } = {},
): CheckedToken {
  const problem = tokenTextProblem(text);
  if (problem)
    throw authError(`${where} ${problem.message}`, {
      hint: problem.hint ?? options.hint ?? "run `foodctl auth login` with the token you were given",
    });
  const claims = readTokenClaims(text);
  if (claims && !options.allowExpired && isExpired(claims, now / 1000)) {
    const when = new Date((claims.exp ?? 0) * 1000).toISOString();
    throw authError(`${where} expired at ${when}`, { hint: options.hint ?? "run `foodctl auth login` with a fresh token" });
  }
  return { value: text, kind: claims ? "jwt" : "opaque", claims };
}
