/**
 * The README and the guides in docs/ read as data: their sections and fenced blocks, with the
 * `<!-- not-run: reason -->` markers that exempt a shell block from running (see
 * test/README.md), and their links.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..", "..");

/** The files whose shell blocks run: README.md and docs/*.md (the generated docs/manual/ is not among them). */
export const DOC_FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

/** Fence languages that are shell scripts to run; `console` blocks are transcripts (prompt and output), not scripts. */
export const SHELL_LANGUAGES = new Set(["sh", "bash", "shell"]);

export interface Block {
  /** The file it is in, relative to the repository: `README.md`, `docs/batch.md`. */
  file: string;
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

export interface Link {
  target: string;
  line: number;
}

export interface Doc {
  file: string;
  blocks: Block[];
  sections: Section[];
  /** Markers that stand before no block (a typo, or a block that moved). */
  strayMarkers: number[];
  /** Links outside code: `[text](target)`. */
  links: Link[];
}

const MARKER = /^<!--\s*not-run\b(.*?)-->\s*$/;

/** `[text](target)` outside code spans; the target without an optional title. */
function linksIn(line: string, number: number): Link[] {
  const prose = line.replace(/`[^`]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => ({ target: match[1]!, line: number }));
}

export function readDoc(file: string, text = readFileSync(join(ROOT, file), "utf8")): Doc {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  const sections: Section[] = [];
  const strayMarkers: number[] = [];
  const links: Link[] = [];
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
        file,
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
    links.push(...linksIn(line, index + 1));
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
  return { file, blocks, sections, strayMarkers, links };
}

/** The anchors GitHub gives a file's headings: `## Batch corrections (\`intake apply\`)` → `batch-corrections-intake-apply`. */
export function anchorsOf(doc: Doc): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { heading } of doc.sections) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
