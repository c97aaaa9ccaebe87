/**
 * The documentation holds together: every relative link of the README, the guides, the
 * generated manual and the other READMEs reaches a file (and a heading, when it names one); the
 * README stays a front door; every dependency is in its Dependencies table; the exit codes
 * docs/cli.md explains are the ones the code has.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/errors.js";
import { anchorsOf, DOC_FILES, readDoc, ROOT, type Doc } from "../helpers/readme.js";

const MARKDOWN = [
  ...DOC_FILES,
  ...readdirSync(join(ROOT, "docs", "manual")).map((name) => `docs/manual/${name}`),
  "bench/README.md",
  "test/README.md",
];
const docs = new Map(MARKDOWN.map((file) => [file, readDoc(file)]));

function docAt(file: string): Doc | undefined {
  if (!docs.has(file) && file.endsWith(".md") && existsSync(join(ROOT, file))) docs.set(file, readDoc(file));
  return docs.get(file);
}

describe("documentation links", () => {
  it.each(MARKDOWN)("every relative link of %s resolves", (file) => {
    const broken: string[] = [];
    for (const { target, line } of docs.get(file)!.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const resolved = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (resolved.startsWith("..") || !existsSync(join(ROOT, resolved))) {
        broken.push(`${file}:${line}: ${target} (no ${resolved})`);
        continue;
      }
      const doc = anchor === undefined ? undefined : docAt(resolved);
      if (doc && !anchorsOf(doc).has(anchor!)) broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });
});

describe("README.md", () => {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");

  it("is a front door: at most 250 lines, the set-up commands first", () => {
    expect(text.split("\n").length - 1).toBeLessThanOrEqual(250);
    const firstBlock = readDoc("README.md").blocks[0]!;
    expect(firstBlock.code).toMatch(/^npm install && npm run demo\b.*\nnpm test\b/);
  });

  it("names every dependency in its Dependencies table, with why", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string>>;
    const table = readDoc("README.md").sections.find((section) => section.heading === "Dependencies")!.body;
    const rows = table.split("\n").filter((line) => /^\| [^-]/.test(line) && !line.startsWith("| dependency"));
    const named = new Set(
      rows.flatMap((row) =>
        row
          .split("|")[1]!
          .replace(/\(dev\)/, "")
          .split(",")
          .map((name) => name.trim()),
      ),
    );
    const missing = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !named.has(name));
    expect(missing).toEqual([]);
    for (const row of rows) expect(row.split("|")[2]!.trim(), row).not.toBe("");
  });
});

describe("docs/cli.md", () => {
  it("explains each exit code the code has, and no other", () => {
    const section = readDoc("docs/cli.md").sections.find((entry) => entry.heading === "Exit codes")!.body;
    const codes = [...section.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual(Object.values(EXIT));
  });
});
