/**
 * Who is calling and for whom, in the order the sandbox checks them: the token (401), then the
 * `user_id` rules (400, 403), later the intake lookup (404, 403).
 */
import { badRequest, forbidden, notFound, unauthorized } from "./errors.js";
import { parseIdText } from "./request.js";
import { SEED_USERS, type SeedUser } from "./seed.js";
import type { StoredIntake } from "./state.js";
import { verifyToken } from "./tokens.js";

export interface Access {
  caller: SeedUser;
  /** The APIUser the request acts for. */
  target: SeedUser;
}

export function findUser(id: number): SeedUser | undefined {
  return SEED_USERS.find((user) => user.id === id);
}

export function mayActFor(caller: SeedUser, userId: number): boolean {
  return caller.role === "APIUser" ? caller.id === userId : caller.manages.includes(userId);
}

export async function authenticate(authorization: string | undefined, key: Uint8Array): Promise<SeedUser> {
  if (authorization === undefined || authorization === "") throw unauthorized("missing bearer token: send Authorization: Bearer <token>");
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
  if (!match) throw unauthorized("malformed Authorization header: expected Bearer <token>");
  const verified = await verifyToken(key, match[1]!);
  if (!verified.ok) throw unauthorized(`invalid token: ${verified.reason}`);
  const id = parseIdText(verified.sub);
  const user = id === null ? undefined : findUser(id);
  if (!user) throw unauthorized("invalid token: its subject is not a known user");
  if (verified.role !== user.role) throw unauthorized(`invalid token: user ${user.id} does not have the role ${verified.role}`);
  return user;
}

/** Applies the `user_id` rules (api-contract §1) to the raw query value. */
export function resolveTarget(caller: SeedUser, userIdValue: unknown): SeedUser {
  if (Array.isArray(userIdValue)) throw badRequest("query parameter user_id is given more than once");
  if (userIdValue === undefined) {
    if (caller.role === "APIUser") return caller;
    throw badRequest(`user_id is required when acting as ${caller.role === "APICompany" ? "a company" : "a manager"}`);
  }
  const id = typeof userIdValue === "string" ? parseIdText(userIdValue) : null;
  if (id === null) throw badRequest(`user_id must be a positive integer, not "${String(userIdValue)}"`);
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
