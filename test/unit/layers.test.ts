/**
 * Imports run down the layers (docs: commands → change → journal, batch, api, output → intake →
 * records): lint holds that (eslint.config.js), and these tests that lint says it. A verb's spec
 * and its module never import each other: read from the sources' import lines (lint cannot see cycles).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ESLint } from "eslint";
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

/** The restricted-import messages lint gives this import line in a file at `path`. */
async function lintImport(path: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from "${from}";\nexport const y = x;\n`, { filePath: resolve(path) });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

const eslint = new ESLint();

describe("layers (lint holds them: eslint.config.js)", () => {
  it.each([
    ["src/commands/undo/batch.ts", "../intake/applyRun.js", /a command folder imports no other/],
    ["src/commands/undo/targets.ts", "../journal/entries.js", /a command folder imports no other/],
    ["src/change/batch/run.ts", "../../commands/reportChange.js", /never import a command/],
    ["src/sandbox/routes/updates.ts", "../../api/paths.js", /never the client/],
    ["src/sandbox/network.ts", "../api/transport.js", /never the client/],
    ["src/records/update.ts", "../intake/levels.js", /records\/ is the contract/],
    ["src/intake/update.ts", "../change/intakeUpdate.js", /the domain imports nothing above it/],
    ["src/api/client.ts", "../output/table.js", /the client imports no printer/],
    ["src/output/undo.ts", "../change/undo/batch.js", /a printer imports no command/],
    ["src/journal/entries.ts", "../commands/journaled.js", /the journal and the batch readers/],
    ["src/batch/read.ts", "../change/batch/run.js", /the journal and the batch readers/],
    ["src/sandboxes/stop.ts", "../commands/sandbox/index.js", /the sandboxes' lifecycle imports no command/],
    ["src/sandbox/server.ts", "../sandboxes/records.js", /never the client's code/],
    ["src/api/retries.ts", "../sandboxes/records.js", /the client imports no printer and nothing above it/],
    ["src/commands/completion/values.ts", "../../sandbox/seed.js", /runs the emulator only from the sandbox's commands/],
    ["src/commands/globals.ts", "../sandbox/seed.js", /runs the emulator only from the sandbox's commands/],
    ["src/change/smoke/steps.ts", "../../sandbox/png.js", /nor the emulator/],
    ["src/output/sandbox.ts", "../sandbox/seed.js", /not the emulator/],
    ["src/context.ts", "./sandbox/server.js", /runs the emulator only from the sandbox's commands/],
    ["src/config/store.ts", "../sandbox/seed.js", /runs the emulator only from the sandbox's commands/],
    ["src/commands/intake/show.ts", "../api/index.js", /a command folder imports no other/],
  ])("refuses, in %s, an import of %s", async (path, from, message) => {
    expect(await lintImport(path, from)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ["src/commands/undo/undo.ts", "../confirm.js"],
    ["src/commands/undo/undo.ts", "../../change/undo/steps.js"],
    ["src/commands/undo/undo.ts", "./batch.js"],
    ["src/sandbox/routes/updates.ts", "../../records/routes.js"],
    ["src/intake/update.ts", "../records/fields.js"],
    ["src/api/client.ts", "../records/routes.js"],
    ["src/commands/sandbox/stop.ts", "../../sandboxes/records.js"],
    ["src/commands/sandbox/start.ts", "../../sandbox/server.js"],
    ["src/sandboxes/users.ts", "../sandbox/seed.js"],
    ["src/commands/index.ts", "./sandbox/index.js"],
  ])("lets %s import %s", async (path, from) => {
    expect(await lintImport(path, from)).toEqual([]);
  });

  it("no command folder has an import cycle (a verb's spec loads its module; the module never imports the spec back)", () => {
    expect(cyclesUnder("commands")).toEqual([]);
    expect(cyclesUnder("change")).toEqual([]);
  });
});

describe("one printer (lint holds it: eslint.config.js)", () => {
  /** The one-printer messages lint gives `code` in a file at `path`. */
  async function printerMessages(path: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${code}\n`, { filePath: resolve(path) });
    return result!.messages.filter((message) => /one printer/.test(message.message)).map((message) => message.message);
  }

  it.each([
    "export const f = (ctx: { io: { stdout: { write(t: string): void } } }) => ctx.io.stdout.write('x');",
    "export const f = (io: { stdout: { write(t: string): void } }) => io.stdout.write('x');",
    "export const f = (stdout: { write(t: string): void }) => stdout.write('x');",
    "export const f = () => process.stdout.write('x');",
  ])("refuses a command's own write to stdout: %s", async (code) => {
    expect(await printerMessages("src/commands/intake/show.ts", code)).toEqual([expect.stringMatching(/ctx\.print .* ctx\.printRaw/)]);
  });

  it("lets a command print through the context, write to stderr, and a printer in src/output/ write to its stream", async () => {
    const printing =
      "export const f = (ctx: { printRaw(t: string): boolean; io: { stderr: { write(t: string): void } } }) => { ctx.printRaw('x'); ctx.io.stderr.write('y'); };";
    expect(await printerMessages("src/commands/intake/show.ts", printing)).toEqual([]);
    const stream = "export const f = (stdout: { write(t: string): void }) => stdout.write('x');";
    expect(await printerMessages("src/output/batchOutput.ts", stream)).toEqual([]);
  });
});
