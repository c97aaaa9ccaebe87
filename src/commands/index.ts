/**
 * Every noun of the command line, in the order `foodctl --help` lists them, each loaded on first
 * use: a run that names a noun loads that one's spec (`foodctl intake show` never evaluates the
 * sandbox's or config's declarations); the top-level help, a near miss and completion load all.
 * test/unit/commandSpecs.test.ts checks that each name is the one its spec declares.
 */
import type { Noun } from "./spec.js";

export interface NounEntry {
  name: string;
  load(): Promise<Noun>;
}

export const NOUNS: readonly NounEntry[] = [
  { name: "auth", load: async () => (await import("./auth/index.js")).auth },
  { name: "config", load: async () => (await import("./config/index.js")).config },
  { name: "intake", load: async () => (await import("./intake/index.js")).intake },
  { name: "display-image", load: async () => (await import("./display-image/index.js")).displayImage },
  { name: "journal", load: async () => (await import("./journal/index.js")).journal },
  { name: "undo", load: async () => (await import("./undo/index.js")).undoNoun },
  { name: "sandbox", load: async () => (await import("./sandbox/index.js")).sandbox },
  { name: "smoke", load: async () => (await import("./smoke/index.js")).smoke },
  { name: "completion", load: async () => (await import("./completion/index.js")).completionNoun(() => loadNouns()) },
  { name: "__complete", load: async () => (await import("./completion/index.js")).completionValues },
];

/** The specs of these nouns (all of them by default), in the same order. */
export function loadNouns(entries: readonly NounEntry[] = NOUNS): Promise<Noun[]> {
  return Promise.all(entries.map((entry) => entry.load()));
}
