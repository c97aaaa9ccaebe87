/**
 * Start-up stays cheap: which modules each path of the built bundle loads before it runs.
 * The static import graph of dist/ is read from the files (esbuild's `from "./chunks/…"`
 * lines) and their source maps (which sources each file holds). Speed itself is measured by
 * `npm run bench`, not here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBin, runCli } from "../helpers/cli.js";

const dist = join(dirname(cliBin()), "..", "dist");
const root = resolve(import.meta.dirname, "..", "..");
const jsFiles = [join(dist, "main.js"), ...readdirSync(join(dist, "chunks")).filter((name) => name.endsWith(".js")).map((name) => join(dist, "chunks", name))];

function sourcesOf(file: string): string[] {
  const map = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] };
  // Relative to the checkout ("src/program.ts", "node_modules/commander/…"), wherever the build
  // folder is and wherever node_modules really lives (it may be a link).
  return map.sources.map((source) => {
    const path = relative(root, resolve(dirname(file), source));
    const modules = path.indexOf("node_modules/");
    return modules === -1 ? path : path.slice(modules);
  });
}

/** The output file holding a module, e.g. "src/program.ts" (an entry of a dynamic import). */
function fileOf(source: string): string {
  const found = jsFiles.filter((file) => sourcesOf(file).includes(source));
  expect(found, `one output file holds ${source}`).toHaveLength(1);
  return found[0]!;
}

/** Everything a file loads before it runs: its static imports, transitively (not import()). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const [, path] of text.matchAll(/^(?:import|export)\s[^;]*?["'](\.\.?\/[^"']+)["'];?$/gm)) staticClosure(join(dirname(file), path!), seen);
  return seen;
}

/** The sources loaded when these output files (an entry and its dynamic imports) are loaded. */
function loadedSources(...files: string[]): string[] {
  const all = new Set<string>();
  for (const file of files) for (const loaded of staticClosure(file)) for (const source of sourcesOf(loaded)) all.add(source);
  return [...all];
}

const matching = (sources: string[], pattern: RegExp) => sources.filter((source) => pattern.test(source));

describe("start-up: what each path loads", () => {
  const main = join(dist, "main.js");

  it("answers --version from main.js and its small shared chunks alone", () => {
    const sources = loadedSources(main);
    expect(matching(sources, /node_modules\//)).toEqual([]);
    expect(matching(sources, /src\/(program|context)\.ts|src\/(api|config|commands|output|sandbox)\//)).toEqual([]);
  });

  it("builds --help from commander, program.ts and the command specs without config, zod, the client or a printer", () => {
    const sources = loadedSources(main, fileOf("src/program.ts"));
    expect(matching(sources, /node_modules\/commander\//).length).toBeGreaterThan(0);
    expect(matching(sources, /node_modules\/(?!commander\/)/)).toEqual([]);
    // The specs (src/commands/spec.ts, src/commands/<noun>/index.ts) and the constant lists they name are all the help needs.
    const allowed = /^src\/commands\/(spec|index)\.ts$|^src\/commands\/[^/]+\/index\.ts$|^src\/config\/keys\.ts$/;
    expect(matching(sources, /src\/context\.ts|src\/(api|config|commands|output|sandbox)\//).filter((source) => !allowed.test(source))).toEqual([]);
    expect(matching(sources, /src\/commands\/[^/]+\/index\.ts$/).length).toBeGreaterThan(3);
    // One file, not two: each file costs the ESM loader a round of its own.
    expect(sourcesOf(fileOf("src/program.ts"))).toContain("node_modules/commander/lib/command.js");
  });

  it("shows an intake as JSON without table, proxy, upload, prompt or sandbox code", () => {
    const sources = loadedSources(
      main,
      fileOf("src/program.ts"),
      fileOf("src/context.ts"),
      fileOf("src/commands/intake/show.ts"),
      fileOf("src/api/client.ts"),
      fileOf("src/api/nodeTransport.ts"),
    );
    expect(matching(sources, /node_modules\/(cli-table3|undici|form-data|conf|jose|@inquirer|fastify|@fastify)\//)).toEqual([]);
    expect(matching(sources, /src\/output\/(?!style\.ts)|src\/sandbox\/|src\/api\/undiciTransport\.ts/)).toEqual([]);
  });

  it("keeps the sandbox's modules out of every command but `foodctl sandbox`", () => {
    const commands = jsFiles.filter((file) => sourcesOf(file).some((source) => /^src\/commands\/(?!sandbox\.ts)/.test(source)));
    expect(commands.length).toBeGreaterThan(5);
    expect(matching(loadedSources(main, fileOf("src/program.ts"), fileOf("src/context.ts"), ...commands), /src\/sandbox\/|node_modules\/(fastify|@fastify|image-size)\//)).toEqual([]);
  });
});

describe("start-up: --version", () => {
  it("prints the same version alone (before commander loads) as after other flags (through commander)", async () => {
    const alone = await runCli(["--version"]);
    const short = await runCli(["-V"]);
    const withFlag = await runCli(["--no-color", "--version"]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(short).toMatchObject({ code: 0, stdout: alone.stdout, stderr: "" });
    expect(withFlag).toMatchObject({ code: 0, stdout: alone.stdout, stderr: "" });
  });
});
