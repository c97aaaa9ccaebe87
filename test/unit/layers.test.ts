/**
 * Imports run down the layers (docs: commands → change → journal, batch, api, output → intake),
 * and a verb's spec and its module never import each other: read from the sources' import lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Each source (relative to src/) with the sources it imports: static, type-only and import(). */
const imports = new Map(
  sources(SRC).map((file) => {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"(\.[^"]+)\.js"/g)].map((match) =>
      relative(SRC, resolve(dirname(file), `${match[1]}.ts`)),
    );
    return [relative(SRC, file), targets] as const;
  }),
);

/** `from → to` for every import from a source under `from` into one under any of `to`. */
function importsInto(from: string, to: string[]): string[] {
  return [...imports].flatMap(([file, targets]) =>
    file.startsWith(`${from}/`)
      ? targets.filter((target) => to.some((folder) => target.startsWith(`${folder}/`))).map((target) => `${file} → ${target}`)
      : [],
  );
}

/** Import cycles among the sources under `folder` (each as the files on it, from its first). */
function cyclesUnder(folder: string): string[][] {
  const inside = [...imports.keys()].filter((file) => file.startsWith(`${folder}/`));
  const found: string[][] = [];
  const walk = (file: string, path: string[]) => {
    for (const target of imports.get(file) ?? []) {
      if (target === path[0]) found.push(path);
      else if (inside.includes(target) && !path.includes(target) && target > path[0]!) walk(target, [...path, target]);
    }
  };
  for (const file of inside) walk(file, [file]);
  return found;
}

describe("layers", () => {
  it("the change pipeline never imports a command", () => {
    expect(importsInto("change", ["commands"])).toEqual([]);
  });

  it("the domain (intake/) imports nothing of the layers above it", () => {
    expect(importsInto("intake", ["commands", "change", "journal", "batch", "output", "config"])).toEqual([]);
  });

  it("the API client imports no printer, and neither imports anything above it", () => {
    expect(importsInto("api", ["output", "commands", "change", "journal", "batch"])).toEqual([]);
    expect(importsInto("output", ["commands", "change"])).toEqual([]);
  });

  it("the journal and the batch reader import no command and no change", () => {
    expect([...importsInto("journal", ["commands", "change"]), ...importsInto("batch", ["commands", "change"])]).toEqual([]);
  });

  it("no command folder has an import cycle (a verb's spec loads its module; the module never imports the spec back)", () => {
    expect(cyclesUnder("commands")).toEqual([]);
    expect(cyclesUnder("change")).toEqual([]);
  });
});
