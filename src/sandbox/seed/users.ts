import type { Plan } from "../../records/fields.js";
/** The sandbox's accounts: fixed ids and names that tests, docs and `--user` completion use. */
import type { LanguageCode } from "../../records/languages.js";

export type Role = "APIUser" | "APIUserManager" | "APICompany";

export interface SeedUser {
  id: number;
  name: string;
  role: Role;
  plan: Plan | null;
  /** The APIUsers a manager or company may act for; empty for an APIUser. */
  manages: readonly number[];
  /** The IANA zone the user lives in: the history list reads an APIUser's dates in it (docs/api.md, the history list). */
  timeZone: string;
  /** The profile language answers use when a request names none (docs/api.md, language). */
  language: LanguageCode;
}

export const SEED_USERS: readonly SeedUser[] = [
  { id: 101, name: "alice", role: "APIUser", plan: "Monitor", manages: [], timeZone: "UTC", language: "eng" },
  { id: 102, name: "bob", role: "APIUser", plan: "Analyse", manages: [], timeZone: "America/New_York", language: "eng" },
  { id: 103, name: "carol", role: "APIUser", plan: "Recommend", manages: [], timeZone: "Asia/Tokyo", language: "eng" },
  { id: 104, name: "erin", role: "APIUser", plan: "Monitor", manages: [], timeZone: "Europe/Berlin", language: "eng" },
  { id: 201, name: "dave", role: "APIUserManager", plan: null, manages: [101, 102], timeZone: "Europe/Madrid", language: "eng" },
  { id: 301, name: "acme", role: "APICompany", plan: null, manages: [101, 102, 103, 104], timeZone: "UTC", language: "eng" },
];
