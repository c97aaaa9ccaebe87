/**
 * `npm run docs` (scripts/docs.mjs): the manual generated from the command tree, as files keyed
 * by their path in the repository, and the `man` list of package.json. test/readme/manual.test.ts
 * generates it into memory and compares it with the committed files.
 */
import { markdownIndex, markdownPage } from "./markdown.js";
import { readPages } from "./pages.js";
import { manPage } from "./roff.js";

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
  const files = new Map<string, string>([[`${MANUAL_DIR}/README.md`, markdownIndex(pages)]]);
  for (const page of pages) files.set(`${MANUAL_DIR}/${page.name}.md`, markdownPage(page, titles));
  for (const page of pages) files.set(`${MAN_DIR}/${page.name}.1`, manPage(page));
  return { files, man: pages.map((page) => `./${MAN_DIR}/${page.name}.1`), titles };
}
