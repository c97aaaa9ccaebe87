/**
 * Every noun of the command line, in the order `foodctl --help` lists them.
 * test/unit/commandSpecs.test.ts checks that the specs declare what the tree shows.
 */
import { apiNoun } from "./api/index.js";
import { auth } from "./auth/index.js";
import { completionNoun, completionValues } from "./completion/index.js";
import { config } from "./config/index.js";
import { displayImage } from "./display-image/index.js";
import { intake } from "./intake/index.js";
import { journal } from "./journal/index.js";
import { sandbox } from "./sandbox/index.js";
import { smoke } from "./smoke/index.js";
import type { Noun } from "./spec.js";
import { undoNoun } from "./undo/index.js";

export const NOUNS: readonly Noun[] = [
  auth,
  config,
  intake,
  displayImage,
  journal,
  undoNoun,
  sandbox,
  smoke,
  apiNoun,
  // The completion script lists every noun, itself included.
  completionNoun(async () => [...NOUNS]),
  completionValues,
];
