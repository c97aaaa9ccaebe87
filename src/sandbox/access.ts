/**
 * Who is calling and for whom, in the order the sandbox checks them: the token (401), then the
 * `user_id` rules (400, 403), later the intake lookup (404, 403).
 */
import { parsePositiveId } from "../intake/index.js";
import { badRequest, forbidden, notFound, SERVICE_CODES, unauthorized } from "./errors.js";
import { SEED_USERS, type Role, type SeedUser } from "./seed.js";
import type { StoredIntake } from "./state.js";
import { OPAQUE_TOKEN, verifyToken } from "./tokens.js";

export interface Access {
  caller: SeedUser;
  /** The APIUser the request acts for. */
  target: SeedUser;
}

/** What a bearer token is checked against: the JWT key and the opaque tokens of the seeded users. */
export interface TokenBook {
  key: Uint8Array;
  opaque: ReadonlyMap<string, SeedUser>;
}

export function findUser(id: number): SeedUser | undefined {
  return SEED_USERS.find((user) => user.id === id);
}

export function mayActFor(caller: SeedUser, userId: number): boolean {
  return caller.role === "APIUser" ? caller.id === userId : caller.manages.includes(userId);
}

/** The token of an Authorization header, or null when there is none or it is not `Bearer <token>`. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = authorization === undefined ? null : /^Bearer +([^\s]+) *$/i.exec(authorization);
  return match?.[1] ?? null;
}

export async function authenticate(authorization: string | undefined, tokens: TokenBook): Promise<SeedUser> {
  const C = SERVICE_CODES;
  if (authorization === undefined || authorization === "") {
    throw unauthorized("missing bearer token: send Authorization: Bearer <token>", C.tokenMissing);
  }
  const token = bearerToken(authorization);
  if (token === null) throw unauthorized("malformed Authorization header: expected Bearer <token>");
  if (OPAQUE_TOKEN.test(token)) {
    const user = tokens.opaque.get(token);
    if (!user) throw unauthorized("invalid token: no user has this token");
    return user;
  }
  const verified = await verifyToken(tokens.key, token);
  if (!verified.ok) throw unauthorized(`invalid token: ${verified.reason}`, verified.expired ? C.tokenExpired : C.tokenInvalid);
  const id = parsePositiveId(verified.sub);
  const user = id === null ? undefined : findUser(id);
  if (!user) throw unauthorized("invalid token: its subject is not a known user");
  if (verified.role !== user.role) throw unauthorized(`invalid token: user ${user.id} does not have the role ${verified.role}`);
  return user;
}

/** The roles a route is for, when it is not for every role (docs/api.md, users and tokens), and what it does. */
export interface RouteRoles {
  roles: readonly Role[];
  /** What the route does, as the refusal words it: "change quantities". */
  action: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Set on a route that not every role may call. */
    roles?: RouteRoles;
  }
}

/** A token of a role the route is not for: 403 (code 1204), whoever it would act for. */
export function requireRole(caller: SeedUser, route: string, allowed: RouteRoles | undefined): void {
  if (!allowed || allowed.roles.includes(caller.role)) return;
  const article = /^[AEIOU]/.test(caller.role) ? "an" : "a";
  throw forbidden(
    `${article} ${caller.role} token cannot ${allowed.action}: ${route} is for ${allowed.roles.join(" and ")} tokens`,
    SERVICE_CODES.roleForbidden,
  );
}

/** Applies the `user_id` rules (docs/api.md, acting for a user) to the raw query value. */
export function resolveTarget(caller: SeedUser, userIdValue: unknown): SeedUser {
  const C = SERVICE_CODES;
  if (Array.isArray(userIdValue)) throw badRequest("query parameter user_id is given more than once", C.userIdMalformed);
  if (userIdValue === undefined) {
    if (caller.role === "APIUser") return caller;
    throw badRequest(`user_id is required when acting as ${caller.role === "APICompany" ? "a company" : "a manager"}`, C.userIdRequired);
  }
  const id = typeof userIdValue === "string" ? parsePositiveId(userIdValue) : null;
  if (id === null) throw badRequest(`user_id must be a positive integer, not "${String(userIdValue)}"`, C.userIdMalformed);
  if (caller.role === "APIUser") {
    if (id !== caller.id) throw forbidden(`user ${caller.id} may act only for itself, not for user ${id}`);
    return caller;
  }
  const target = findUser(id);
  if (!target || !mayActFor(caller, id)) throw forbidden(`user ${caller.id} (${caller.role}) does not manage user ${id}`);
  return target;
}

/**
 * The intake a request may act on: unknown → 404; owned by a user the caller may not act for
 * → 403; owned by another of the caller's users than the one named → 404.
 */
export function lookupIntake(intakes: ReadonlyMap<number, StoredIntake>, access: Access, imageId: number): StoredIntake {
  const intake = intakes.get(imageId);
  if (!intake) throw notFound(`no intake ${imageId}`);
  if (!mayActFor(access.caller, intake.ownerId)) {
    throw forbidden(`user ${access.caller.id} may not act on intake ${imageId}`);
  }
  if (intake.ownerId !== access.target.id) throw notFound(`no intake ${imageId} for user ${access.target.id}`);
  return intake;
}
