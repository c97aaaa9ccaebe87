/**
 * The account the seeded users share (acme's company) and its credits (docs/api.md, rate
 * limit): every answer to a known token says whose it is (User-ID) and how many credits
 * the account has used and has left. Each authenticated request within the rate limit uses one.
 */
import type { SeedUser } from "./seed.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Set on a route the service documents as limited per second only, with no credit and no
     * daily mark (docs/api.md, rate limit): it spends no credit and no call of the daily window.
     */
    unmetered?: true;
  }
}

/** Credits a sandbox's account starts with. */
export const DEFAULT_CREDITS = 100_000;

export interface Account {
  /** One request's credit. */
  charge(): void;
  /** User-ID and the account's credits, as the public service sends them on every answer. */
  headers(caller: SeedUser): Record<string, string>;
}

export function createAccount(credits: number): Account {
  let used = 0;
  return {
    charge() {
      used += 1;
    },
    headers(caller) {
      return {
        "user-id": String(caller.id),
        "x-account-credits-used": String(used),
        "x-account-credits-remaining": String(Math.max(0, credits - used)),
      };
    },
  };
}
