/**
 * Every noun of the command line, in the order `foodctl --help` lists them.
 * test/unit/commandSpecs.test.ts checks that the specs declare what the tree shows.
 */
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

// Completion writes its scripts from this same list, handed in so it never imports this file back.
const completion = completionNoun(async () => [...NOUNS]);

export const NOUNS: readonly Noun[] = [auth, config, intake, displayImage, journal, undoNoun, sandbox, smoke, completion, completionValues];
