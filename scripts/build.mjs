// Bundles src/ into dist/ with esbuild: one ESM graph with code splitting, so each command
// loads only its own chunk. The sandbox's server framework stays external (loaded from
// node_modules only by `foodctl sandbox`).
//
//   node scripts/build.mjs [outdir] [--analyze]     --analyze: what each output file holds
import { analyzeMetafile, build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// `node scripts/build.mjs [outdir]`: tests build a private copy so parallel runs never share dist/.
const args = process.argv.slice(2);
const outdir = args.find((arg) => !arg.startsWith("--")) ?? "dist";
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: "src/main.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // Full minification measured no faster to start than this, and keeps stack traces readable.
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  external: ["fastify", "@fastify/multipart"],
  mainFields: ["module", "main"],
  define: { __FOODCTL_VERSION__: JSON.stringify(version) },
  metafile: args.includes("--analyze"),
  write: false,
  logLevel: "warning",
});

// CommonJS dependencies inside an ESM bundle still call require() for Node built-ins. Only the
// files that mention require get one: loading node:module costs ~1 ms that `--version` skips.
const REQUIRE_BANNER = "import { createRequire as __foodctlRequire } from 'node:module'; const require = __foodctlRequire(import.meta.url);\n";
const needsRequire = new Set(result.outputFiles.filter((file) => file.path.endsWith(".js") && /\brequire\b/.test(file.text)).map((file) => file.path));
for (const file of result.outputFiles) {
  let text = file.text;
  if (needsRequire.has(file.path)) text = REQUIRE_BANNER + text;
  else if (file.path.endsWith(".map") && needsRequire.has(file.path.slice(0, -".map".length))) {
    // The banner is one more generated line: in a source map a leading ";" says exactly that.
    const map = JSON.parse(text);
    map.mappings = `;${map.mappings}`;
    text = JSON.stringify(map);
  }
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, text);
}

if (result.metafile) process.stdout.write(await analyzeMetafile(result.metafile));
