/**
 * Start-up stays cheap: what each path of the built CLI loads and evaluates before it runs.
 * The graph is the build's own (esbuild's metafile, written beside the test build): a module
 * is evaluated when its importer is, along static imports; import() and require() are
 * evaluated on first use. What each output file holds comes from its source map. Speed itself
 * is measured by `npm run bench`, not here.
 */
import { copyFileSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect, expectExit, runCli, runTempDir } from "../helpers/cli.js";
import { withSandbox } from "../helpers/sandbox.js";

const dist = join(dirname(cliBin()), "..", "dist");
const root = resolve(import.meta.dirname, "..", "..");

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}
const graphs = JSON.parse(readFileSync(join(dist, "metafile.json"), "utf8")) as { hot: Metafile; cold: Metafile };

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

const hotFile = join(dist, "foodctl.cjs");
const coldFiles = readdirSync(join(dist, "cold"))
  .filter((name) => name.endsWith(".cjs"))
  .map((name) => join(dist, "cold", name));

/** The modules evaluated with these: their static imports, transitively (not import() or require()). */
function evaluatedWith(...modules: string[]): string[] {
  const seen = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module) || !graphs.hot.inputs[module]) return;
    seen.add(module);
    for (const imported of graphs.hot.inputs[module]!.imports)
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  modules.forEach(visit);
  return [...seen];
}

const matching = (sources: string[], pattern: RegExp) => sources.filter((source) => pattern.test(source));
const COLD_PACKAGES =
  /node_modules\/(cli-table3|cli-progress|csv-parse|proxy-from-env|https?-proxy-agent|agent-base|form-data|conf|jose|image-size|chalk|zod|@inquirer|fastify|@fastify)\//;
const COLD_COMMANDS =
  "sandbox\\/(?!index)\\w+|intake\\/(apply|edit|editor|showImage)|display-image\\/(attach|remove)|auth\\/(login|status|logout|token)|smoke\\/smoke|" +
  "completion\\/(scripts|values)|config\\/config|journal\\/journal|undo\\/undo";
const COLD_SOURCES = new RegExp(`src\\/sandbox\\/|src\\/api\\/proxy\\.ts|src\\/commands\\/(${COLD_COMMANDS})\\.ts`);

describe("start-up: what each path loads", () => {
  it("answers --version from the bin and dist/version.txt alone", () => {
    const copy = mkdtempSync(join(tmpdir(), "foodctl-version-"));
    try {
      mkdirSync(join(copy, "bin"));
      mkdirSync(join(copy, "dist"));
      for (const file of ["foodctl.js", "package.json"]) copyFileSync(join(dirname(cliBin()), file), join(copy, "bin", file));
      copyFileSync(join(dist, "version.txt"), join(copy, "dist", "version.txt"));
      const result = spawnSync(process.execPath, [join(copy, "bin", "foodctl.js"), "--version"], { encoding: "utf8" });
      expect(result).toMatchObject({ status: 0, stdout: readFileSync(join(dist, "version.txt"), "utf8"), stderr: "" });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("builds --help from commander, program.ts and the command specs without config, zod, the client or a printer", () => {
    // Each noun's spec is loaded by name (import() in src/commands/index.ts): the help loads them all.
    const specs = graphs.hot.inputs["src/commands/index.ts"]!.imports.filter((imported) => imported.kind === "dynamic-import");
    expect(specs.map((imported) => imported.path).filter((path) => !/^src\/commands\/[^/]+\/index\.ts$/.test(path))).toEqual([]);
    const sources = evaluatedWith("src/main.ts", "src/program.ts", ...specs.map((imported) => imported.path));
    expect(matching(sources, /node_modules\/commander\//).length).toBeGreaterThan(0);
    expect(matching(sources, /node_modules\/(?!commander\/)/)).toEqual([]);
    // The specs (src/commands/spec.ts, src/commands/<noun>/index.ts) and the constant lists they name (globals.ts: the
    // global options each command reads) are all the help needs.
    // output/style.ts: a small leaf main.ts prints errors with (no packages of its own; src/sanitize.ts is outside these folders).
    const allowed =
      /^src\/commands\/(spec|rawInput|globals|index)\.ts$|^src\/commands\/[^/]+\/index\.ts$|^src\/config\/keys\.ts$|^src\/output\/style\.ts$/;
    expect(
      matching(sources, /src\/context\.ts|src\/(api|config|commands|output|sandbox)\//).filter((source) => !allowed.test(source)),
    ).toEqual([]);
    expect(matching(sources, /src\/commands\/[^/]+\/index\.ts$/).length).toBeGreaterThan(3);
  });

  it("shows an intake as JSON without zod, table, proxy, upload, prompt, colour, sandbox or lock and file-writing code", () => {
    const entries = [
      "src/main.ts",
      "src/program.ts",
      "src/context.ts",
      "src/commands/intake/show.ts",
      "src/api/client.ts",
      "src/api/nodeTransport.ts",
    ];
    const sources = evaluatedWith(...entries);
    expect(matching(sources, COLD_PACKAGES)).toEqual([]);
    expect(matching(sources, /src\/output\/(?!style\.ts)|src\/sandbox\/|src\/api\/proxy\.ts|src\/(lock|files)\.ts/)).toEqual([]);
  });

  it("keeps zod, the sandbox, batch, upload, prompt and colour code and their packages out of the hot file", () => {
    const hot = sourcesOf(hotFile);
    expect(hot).toEqual(expect.arrayContaining(["src/program.ts", "src/context.ts", "src/api/client.ts", "src/commands/intake/show.ts"]));
    expect(matching(hot, COLD_PACKAGES)).toEqual([]);
    expect(matching(hot, COLD_SOURCES)).toEqual([]);
    // Reading an intake needs neither the change pipeline nor the update payloads' validators.
    expect(matching(hot, /^src\/(change|journal)\/|^src\/records\/validators\/update\.js$/)).toEqual([]);
    expect(coldFiles.map((file) => file.split("/").pop())).toEqual(
      expect.arrayContaining(["sandbox.cjs", "apply.cjs", "attach.cjs", "chalk.cjs", "proxy.cjs"]),
    );
  });

  it("loads the image decoders and open only from show's image code, on first use", () => {
    const importers = Object.entries({ ...graphs.hot.inputs, ...graphs.cold.inputs }).flatMap(([source, { imports }]) =>
      imports
        .filter((imported) => /^(\.\/(pngjs|jpeg-js|omggif)\.cjs|@cwasm\/webp|open)$/.test(imported.path))
        .map((imported) => `${source} ${imported.kind} ${imported.path}`),
    );
    expect(importers.sort()).toEqual([
      "src/output/browser.ts dynamic-import open",
      "src/output/intakeImage.ts dynamic-import ./jpeg-js.cjs",
      "src/output/intakeImage.ts dynamic-import ./omggif.cjs",
      "src/output/intakeImage.ts dynamic-import ./pngjs.cjs",
      "src/output/intakeImage.ts dynamic-import ./pngjs.cjs",
      "src/output/intakeImage.ts dynamic-import @cwasm/webp",
    ]);
    const sources = [...sourcesOf(hotFile), ...coldFiles.filter((file) => !/\/(pngjs|jpeg-js|omggif)\.cjs$/.test(file)).flatMap(sourcesOf)];
    expect(matching(sources, /node_modules\/(pngjs|jpeg-js|omggif|@cwasm|open)\//)).toEqual([]);
    // The drawing code is show-image's own: neither the hot file nor another command holds it.
    const drawing = /src\/output\/(terminalImage|intakeImage|browser)\.ts/;
    expect(matching(sourcesOf(hotFile), drawing)).toEqual([]);
    expect(coldFiles.filter((file) => matching(sourcesOf(file), drawing).length > 0).map((file) => file.split("/").pop())).toEqual([
      "show-image.cjs",
    ]);
    // Which image addresses may be fetched: a file of its own, which an image fetch loads when a remote API names it.
    const addresses = /src\/imageAddress\.ts/;
    expect(matching(sourcesOf(hotFile), addresses)).toEqual([]);
    expect(coldFiles.filter((file) => matching(sourcesOf(file), addresses).length > 0).map((file) => file.split("/").pop())).toEqual([
      "image-address.cjs",
    ]);
  });

  it("never copies a module of the hot file into a cold one (one CliError class for all)", () => {
    const hot = new Set(sourcesOf(hotFile).filter((source) => source.startsWith("src/")));
    for (const file of coldFiles)
      expect(
        sourcesOf(file).filter((source) => hot.has(source)),
        file,
      ).toEqual([]);
    const imports = Object.values(graphs.cold.inputs).flatMap((input) => input.imports.map((imported) => imported.path));
    expect(imports).toContain("foodctl-hot:src/errors.ts");
  });
});

describe("start-up: --version", () => {
  it("prints the same version alone (before the bundle loads) as after other flags (through commander)", async () => {
    const alone = await runCli(["--version"]);
    const short = await runCli(["-V"]);
    const withFlag = await runCli(["--no-color", "--version"]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(short).toMatchObject({ code: 0, stdout: alone.stdout, stderr: "" });
    expect(withFlag).toMatchObject({ code: 0, stdout: alone.stdout, stderr: "" });
  });
});

describe("start-up: the Node modules a run loads", () => {
  const sandbox = withSandbox({}, { perTest: false });

  /** Node's built-in modules a run of the built CLI loaded, read from `process.moduleLoadList` at exit. */
  async function builtinsLoaded(args: string[], stdoutFile?: string): Promise<string[]> {
    const folder = runTempDir("foodctl-modules-");
    const preload = join(folder, "modules.cjs");
    const out = join(folder, "modules.txt");
    writeFileSync(
      preload,
      `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join("\\n")));\n`,
    );
    const env = baseEnv({
      FOODCTL_API_URL: sandbox.handle.url,
      FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
      XDG_CACHE_HOME: join(folder, "cache"),
    });
    // Spawned, not spawnSync: the sandbox answers from this process.
    const stdout = stdoutFile === undefined ? "pipe" : openSync(join(folder, stdoutFile), "w");
    const result = await collect(
      spawn(process.execPath, ["--require", preload, cliBin(), ...args], { env, stdio: ["ignore", stdout, "pipe"] }),
    );
    expectExit(result, 0);
    return readFileSync(out, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("NativeModule "))
      .map((line) => line.slice("NativeModule ".length));
  }

  // What an HTTP request needs is loaded either way, node:crypto with the config store (the
  // random names of its atomic writes) and node:zlib with the bin (the code cache's checksum);
  // these are what an everyday run has no use for.
  const NEEDLESS = /^(child_process|dgram|perf_hooks|https|tls|internal\/fs\/rimraf|readline|worker_threads)$/;

  it.each([
    ["--help", ["--help"]],
    ["intake show --json", ["intake", "show", "1002", "--json"]],
    ["intake show (table)", ["intake", "show", "1002"]],
    ["intake set-quantity --json (journaled)", ["intake", "set-quantity", "1002", "1=150", "--json"]],
  ])("%s loads no child_process, perf_hooks, https or rimraf", async (_name, args) => {
    const loaded = await builtinsLoaded(args);
    expect(loaded).toContain("vm");
    expect(loaded.filter((name) => NEEDLESS.test(name))).toEqual([]);
  });

  it("--help written to a file opens neither stderr nor a socket (no node:net)", async () => {
    const loaded = await builtinsLoaded(["--help"], "help.txt");
    expect(loaded).not.toContain("net");
  });
});
