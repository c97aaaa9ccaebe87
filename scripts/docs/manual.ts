/**
 * `npm run docs` (scripts/docs.mjs): the manual generated from the command tree, as files keyed
 * by their path in the repository, and the `man` list of package.json. test/readme/manual.test.ts
 * generates it into memory and compares it with the committed files.
 */
import { HELP_TOPICS } from "../../src/topics/index.js";
import { markdownIndex, markdownPage, topicMarkdown } from "./markdown.js";
import { readPages } from "./pages.js";
import { manPage, topicManPage } from "./roff.js";

export const MANUAL_DIR = "docs/manual";
export const MAN_DIR = "man";

export interface Manual {
  /** Path in the repository → content. */
  files: Map<string, string>;
  /** package.json's `man`: every man page, so `npm install -g` installs them. */
  man: string[];
  /** Each page's name and its command: `foodctl-intake-show` → `foodctl intake show`. */
  titles: Map<string, string>;
}

export async function generateManual(): Promise<Manual> {
  const pages = await readPages();
  const titles = new Map(pages.map((page) => [page.name, page.title]));
  const files = new Map<string, string>([[`${MANUAL_DIR}/README.md`, markdownIndex(pages, HELP_TOPICS)]]);
  for (const page of pages) files.set(`${MANUAL_DIR}/${page.name}.md`, markdownPage(page, titles));
  for (const page of pages) files.set(`${MAN_DIR}/${page.name}.1`, manPage(page));
  // Topics are section 7 (overviews), as git's gitcli(7) is; `man foodctl-environment` finds them.
  for (const topic of HELP_TOPICS) {
    files.set(`${MANUAL_DIR}/foodctl-${topic.name}.md`, topicMarkdown(topic));
    files.set(`${MAN_DIR}/foodctl-${topic.name}.7`, topicManPage(topic));
  }
  const topicPages = HELP_TOPICS.map((topic) => `./${MAN_DIR}/foodctl-${topic.name}.7`);
  return { files, man: [...pages.map((page) => `./${MAN_DIR}/${page.name}.1`), ...topicPages], titles };
}
