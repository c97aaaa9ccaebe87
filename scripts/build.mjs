// Bundles src/ into dist/ for the CommonJS bin (bin/foodctl.js), which compiles the hot and cold
// files itself (each is written inside Node's CommonJS wrapper):
//
//   dist/foodctl.cjs      the hot bundle: main, the command specs, context, config, the API client
//                         and `intake show`, with its printers, in one file
//                         that the bin compiles with a V8 code cache. Modules only some commands
//                         need are evaluated on first use (esbuild's lazy module initialisers).
//   dist/cold/<name>.cjs  what fewer runs need, each its own file loaded on first use (and code
//                         cached by the bin like the hot file): the sandbox, the commands that
//                         change intakes (with the change pipeline, the journal and the update
//                         validators), display images, `smoke`, `intake list`, the config, auth status,
//                         journal and undo commands, prompts, completion, the lock and the atomic writes,
//                         the image address rule, the proxy agents, conf, chalk. A cold file takes
//                         the hot file's modules from it (never a second copy: `instanceof
//                         CliError` holds across files). The fewer functions the hot file declares,
//                         the less a first run (no cache yet) parses.
//   dist/files.cjs        src/files.ts alone (the atomic whole-file write), which the bin loads only
//                         to write a code cache: one such helper for the journal, the sandbox and the cache.
//   dist/version.txt      what `foodctl --version` prints, read by the bin alone.
//
// Before bundling, src/records/validators/ is written from the records' zod schemas (scripts/records.mjs).
//
// fastify (the sandbox's server framework), open and @cwasm/webp (which reads its .wasm file beside
// it) stay external: loaded from node_modules.
//
//   node scripts/build.mjs [outdir] [--analyze] [--metafile]
//     --analyze: what each output file holds; --metafile: esbuild's graphs in <outdir>/metafile.json (for the start-up test)
import { analyzeMetafile, build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { writeValidators } from "./records.mjs";

const root = resolve(import.meta.dirname, "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const args = process.argv.slice(2);
const outdir = resolve(args.find((arg) => !arg.startsWith("--")) ?? "dist");
const analyze = args.includes("--analyze");

/** Source modules that start a cold file when a dynamic import() reaches them. */
const COLD_SOURCES = {
  "src/commands/sandbox/start.ts": "sandbox",
  "src/commands/sandbox/stop.ts": "sandbox-stop",
  "src/sandboxes/records.ts": "sandbox-records",
  "src/commands/intake/apply.ts": "apply",
  "src/commands/intake/setQuantity.ts": "set-quantity",
  "src/commands/intake/setModifiers.ts": "set-modifiers",
  "src/commands/intake/edit.ts": "edit",
  "src/commands/intake/showImage.ts": "show-image",
  "src/commands/intake/list.ts": "list",
  "src/imageAddress.ts": "image-address",
  "src/lock.ts": "lock",
  "src/files.ts": "files",
  "src/commands/display-image/attach.ts": "attach",
  "src/commands/display-image/remove.ts": "remove",
  "src/commands/auth/login.ts": "login",
  "src/commands/smoke/smoke.ts": "smoke",
  "src/commands/completion/scripts.ts": "completion",
  "src/commands/completion/values.ts": "completion-values",
  "src/commands/config/config.ts": "config",
  "src/commands/auth/status.ts": "auth-status",
  "src/commands/auth/logout.ts": "auth-logout",
  "src/commands/auth/token.ts": "auth-token",
  "src/commands/journal/journal.ts": "journal",
  "src/commands/undo/undo.ts": "undo",
  "src/api/proxy.ts": "proxy",
  "src/output/pager.ts": "pager",
  "src/commands/api/api.ts": "api",
  "src/output/curl.ts": "curl",
  "src/topics/index.ts": "help-topics",
  "src/commands/dateOption.ts": "dates",
  "src/intake/zoneNames.ts": "zone-names",
};
/** Packages a cold file of their own holds (loaded by import() or require() where they are used). */
const COLD_PACKAGES = [
  ...["conf", "chalk", "cli-table3", "form-data"],
  ...["@inquirer/confirm", "@inquirer/password", "jose", "image-size"],
  // The image decoders of `intake show --image`, each loaded for its own type only.
  ...["pngjs", "jpeg-js", "omggif"],
];
/** Loaded from node_modules as they are: the sandbox's server framework, and the WebP decoder (WebAssembly) and browser opener of `intake show`. */
const EXTERNAL = ["fastify", "@fastify/multipart", "@cwasm/webp", "open"];
/**
 * How a cold file names a module of the hot file: `require("foodctl-hot:src/errors.ts")`, which the
 * bin answers from the hot file's `hotModule` lookup, so each module has one copy (`instanceof
 * CliError` holds across files). An external require, not a module of the cold file: esbuild reads
 * named imports from it as they are, where a bundled stand-in would be copied into a namespace
 * object by every module importing it.
 */
const HOT_PREFIX = "foodctl-hot:";

const packageOf = (path) => COLD_PACKAGES.find((name) => path === name || path.startsWith(`${name}/`));
const coldFileName = (name) => `${name.replace(/^@/, "").replace(/\//g, "-")}.cjs`;
const sourceKey = (absolute) => relative(root, absolute).split("\\").join("/");

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // import() becomes require() in a promise: the code cache covers it, and vm.Script needs no dynamic-import hook.
  supported: { "dynamic-import": false },
  sourcemap: "linked",
  // Every start reads, hashes and decodes the hot file: no comments or indentation, and ASCII
  // only (the bin decodes it as Latin-1, V8's cheapest strings). Names stay, for readable stack traces.
  minifySyntax: true,
  minifyWhitespace: true,
  charset: "ascii",
  legalComments: "none",
  mainFields: ["module", "main"],
  define: { __FOODCTL_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
  metafile: true,
  absWorkingDir: root,
};

/**
 * Where an import goes: a cold source or package becomes `require("./cold/<file>")` (relative
 * to the file being built); with `hot`, a module the hot file holds becomes a lookup in it.
 */
function placement({ coldDir, hot }) {
  return {
    name: "foodctl-placement",
    setup(build) {
      // commander requires node:child_process at the top for executable subcommands, which foodctl
      // has none of: a stand-in loads it on first use, so a run that needs no HTTP (--help) loads
      // neither it nor node:net and node:dgram behind it.
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: args.path, namespace: "foodctl-lazy" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "foodctl-lazy" }, (args) => ({
        contents: `let loaded;\nmodule.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });\n`,
        loader: "js",
      }));
      build.onResolve({ filter: /^foodctl-package:/ }, (args) => ({
        path: args.path.slice("foodctl-package:".length),
        namespace: "foodctl-package",
      }));
      build.onLoad({ filter: /.*/, namespace: "foodctl-package" }, (args) => ({
        contents: packageWrapper(args.path),
        resolveDir: root,
        loader: "js",
      }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "inner" || args.kind === "entry-point" || args.namespace === "foodctl-package") return undefined;
        const cold = packageOf(args.path);
        if (cold) return { path: `${coldDir}${coldFileName(cold)}`, external: true };
        if (EXTERNAL.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return { path: args.path, external: true };
        if (!args.path.startsWith(".")) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "inner" });
        if (resolved.errors.length) return undefined;
        const key = sourceKey(resolved.path);
        if (COLD_SOURCES[key] && args.kind === "dynamic-import") return { path: `${coldDir}${COLD_SOURCES[key]}.cjs`, external: true };
        if (hot?.has(key)) return { path: `${HOT_PREFIX}${key}`, external: true };
        return undefined;
      });
    },
  };
}

/**
 * A cold file of a package. An ES module whose only export is its default exports that default
 * itself, so `import()` from the CommonJS bundles (which treats a CommonJS file as Node does:
 * `default` is `module.exports`) gets what the source asked for; others export their namespace.
 */
function packageWrapper(name) {
  return `const m = require(${JSON.stringify(name)});
const names = Object.keys(m);
module.exports = m.__esModule && names.length === 1 && names[0] === "default" ? m.default : m;
`;
}

const sourcesOf = (metafile) => Object.keys(metafile.inputs).filter((input) => input.startsWith("src/"));

// 0. The records' validators, compiled from their zod schemas (build output, like dist/).
await writeValidators();

// 1. What the hot file holds (everything main.ts reaches except the cold files).
const probe = await build({
  ...common,
  entryPoints: ["src/main.ts"],
  write: false,
  outfile: join(outdir, "foodctl.cjs"),
  plugins: [placement({ coldDir: "./cold/" })],
});
const hot = new Set(sourcesOf(probe.metafile));

// 2. The cold files, each taking the hot file's modules from it.
const coldEntries = [
  ...Object.entries(COLD_SOURCES).map(([source, name]) => ({ in: source, out: name })),
  ...COLD_PACKAGES.map((name) => ({ in: `foodctl-package:${name}`, out: coldFileName(name).slice(0, -".cjs".length) })),
];
const cold = await build({
  ...common,
  entryPoints: coldEntries,
  outdir: join(outdir, "cold"),
  outExtension: { ".js": ".cjs" },
  write: false,
  plugins: [placement({ coldDir: "./", hot })],
});
const fromHot = Object.values(cold.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path));
const shared = [...new Set(fromHot.filter((path) => path.startsWith(HOT_PREFIX)).map((path) => path.slice(HOT_PREFIX.length)))].sort();

// 3. The hot file, with a lookup for the modules cold files take from it (each evaluated on first use).
const lookup = shared.map((key) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(`./${key}`)}),`).join("\n");
const hotEntry = `const modules = {\n${lookup}\n};
const loaded = {};
const { run, exit } = require("./src/main.ts");
module.exports = { run, exit, hotModule: (key) => (loaded[key] ??= modules[key]()) };
`;
const hotBuild = await build({
  ...common,
  stdin: { contents: hotEntry, resolveDir: root, sourcefile: "hot-entry.js", loader: "js" },
  outfile: join(outdir, "foodctl.cjs"),
  write: false,
  plugins: [placement({ coldDir: "./cold/" })],
});

// 4. The atomic write the bin's cache shares with the sources, on its own.
const filesBuild = await build({
  ...common,
  entryPoints: ["src/files.ts"],
  outfile: join(outdir, "files.cjs"),
  write: false,
});

const hotText = hotBuild.outputFiles.find((file) => file.path.endsWith(".cjs"))?.text ?? "";
if (/[^\x00-\x7f]/.test(hotText)) throw new Error("dist/foodctl.cjs must be ASCII: the bin decodes it as Latin-1");
/**
 * The files the bin compiles (the hot and the cold files) hold Node's CommonJS wrapper around their
 * code, so the bin compiles the text it read as it is, where wrapping it made a second copy of every
 * file at every start. The bin's stack traces take the wrapper's length off the first line.
 */
const WRAPPER = ["(function (exports, require, module, __filename, __dirname) { ", "\n});"];
const compiledByBin = new Set([...hotBuild.outputFiles, ...cold.outputFiles].filter((file) => file.path.endsWith(".cjs")));
rmSync(outdir, { recursive: true, force: true });
for (const file of [...hotBuild.outputFiles, ...cold.outputFiles, ...filesBuild.outputFiles]) {
  mkdirSync(resolve(file.path, ".."), { recursive: true });
  writeFileSync(file.path, compiledByBin.has(file) ? `${WRAPPER[0]}${file.text}${WRAPPER[1]}` : file.text);
}
writeFileSync(join(outdir, "version.txt"), `${version}\n`);
if (args.includes("--metafile"))
  writeFileSync(join(outdir, "metafile.json"), JSON.stringify({ hot: hotBuild.metafile, cold: cold.metafile }));

if (analyze) {
  process.stdout.write(await analyzeMetafile(hotBuild.metafile));
  process.stdout.write(await analyzeMetafile(cold.metafile));
}
