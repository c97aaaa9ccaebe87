/**
 * The README read as data: its sections and fenced blocks, with the `<!-- not-run: reason -->`
 * markers that exempt a shell block from running (see test/README.md).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const README_PATH = join(resolve(import.meta.dirname, "..", ".."), "README.md");

/** Fence languages that are shell scripts to run; `console` blocks are transcripts (prompt and output), not scripts. */
export const SHELL_LANGUAGES = new Set(["sh", "bash", "shell"]);

export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** The `##` section it sits in, and the nearest heading of any level. */
  section: string;
  heading: string;
  /** The marker's text when one stands just before the block: `reason` is empty when none was given. */
  marker?: { text: string; reason: string; line: number };
}

export interface Section {
  heading: string;
  level: number;
  line: number;
  /** The section's own text, up to the next heading of any level. */
  body: string;
  /** Its text with its subsections', up to the next heading of its level or above. */
  text: string;
}

export interface Readme {
  blocks: Block[];
  sections: Section[];
  /** Markers that stand before no block (a typo, or a block that moved). */
  strayMarkers: number[];
}

const MARKER = /^<!--\s*not-run\b(.*?)-->\s*$/;

export function readReadme(text = readFileSync(README_PATH, "utf8")): Readme {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  const sections: Section[] = [];
  const strayMarkers: number[] = [];
  let section = "";
  let heading = "";
  let pending: Block["marker"] | undefined;
  let current: Section | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const start = index;
      const body: string[] = [];
      for (index++; index < lines.length && !/^```\s*$/.test(lines[index]!); index++) body.push(lines[index]!);
      blocks.push({
        line: start + 1,
        lang: fence[1] ?? "",
        code: `${body.join("\n")}\n`,
        section,
        heading,
        ...(pending ? { marker: pending } : {}),
      });
      if (current) current.body += `${[line, ...body, "```"].join("\n")}\n`;
      pending = undefined;
      continue;
    }
    const marker = MARKER.exec(line.trim());
    if (marker) {
      if (pending) strayMarkers.push(pending.line);
      const rest = (marker[1] ?? "").trim();
      pending = { text: line.trim(), reason: rest.startsWith(":") ? rest.slice(1).trim() : "", line: index + 1 };
      continue;
    }
    if (pending && line.trim() !== "") {
      strayMarkers.push(pending.line);
      pending = undefined;
    }
    const title = /^(#{1,6})\s+(.*)$/.exec(line);
    if (title) {
      const level = title[1]!.length;
      heading = title[2]!.trim();
      if (level <= 2) section = heading;
      current = { heading, level, line: index + 1, body: "", text: "" };
      sections.push(current);
      continue;
    }
    if (current) current.body += `${line}\n`;
  }
  if (pending) strayMarkers.push(pending.line);
  for (const [index, section] of sections.entries()) {
    const end = sections.findIndex((other, later) => later > index && other.level <= section.level);
    section.text = sections
      .slice(index, end === -1 ? undefined : end)
      .map((part) => `${"#".repeat(part.level)} ${part.heading}\n${part.body}`)
      .join("");
  }
  return { blocks, sections, strayMarkers };
}
