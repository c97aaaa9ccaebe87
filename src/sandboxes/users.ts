/** The seeded users as the sandbox commands show them, and whose token `--env` and `--detach` export. */
import { failure, usageError } from "../errors.js";
import type { EnvExport, SandboxUserView } from "../output/sandbox.js";
import type { SeedUser } from "../sandbox/seed.js";
import type { SandboxCommandOptions } from "./options.js";

/** The seeded users with what the command prints about them: whom each manages. */
export function userViews(
  handle: { users: ReadonlyArray<Omit<SandboxUserView, "manages">> },
  seed: readonly SeedUser[],
): SandboxUserView[] {
  return handle.users.map((user) => ({ ...user, manages: seed.find((seeded) => seeded.name === user.name)?.manages ?? [] }));
}

/** Refuses an unknown `--as` before anything starts. */
export function checkUserName(seed: readonly SeedUser[], name: string | undefined): void {
  if (name !== undefined && !seed.some((user) => user.name === name)) {
    throw usageError(`unknown sandbox user "${name}" (known: ${seed.map((user) => user.name).join(", ")})`);
  }
}

/**
 * What `--env` exports for `--as`: that user's token; a manager or a company also gets
 * FOODCTL_USER for the first of its users (a manager's token alone cannot read intakes), and
 * a note saying which.
 */
export function chooseExport(
  url: string,
  users: SandboxUserView[],
  options: Pick<SandboxCommandOptions, "as" | "tokenKind">,
): { env: EnvExport; note?: string } {
  const chosen = users.find((user) => (options.as === undefined ? user.role === "APIUser" : user.name === options.as)) ?? users[0];
  if (!chosen) throw failure("the sandbox has no users");
  const token = options.tokenKind === "opaque" ? chosen.opaque_token : chosen.token;
  if (token === undefined) throw usageError("this sandbox has no opaque tokens; use --token-kind jwt");
  const actingFor = users.find((user) => user.id === chosen.manages[0]);
  if (!actingFor) return { env: { url, token } };
  const others = users.filter((user) => chosen.manages.includes(user.id) && user !== actingFor).map((user) => user.name);
  const also = others.length ? ` (also: ${others.join(", ")})` : "";
  return {
    env: { url, token, user: actingFor.id },
    note: `${chosen.name} is an ${chosen.role}: FOODCTL_USER=${actingFor.id} acts for ${actingFor.name}, one of ${chosen.name}'s users${also}`,
  };
}

/** The seeded users' names, which `sandbox --as` takes (a shell completing it asks: src/commands/completion/values.ts). */
export async function seededUserNames(): Promise<string[]> {
  return (await import("../sandbox/seed.js")).SEED_USERS.map((user) => user.name);
}
