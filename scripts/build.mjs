// Bundles src/ into dist/ with esbuild: one ESM graph with code splitting, so each command
// loads only its own chunk. The sandbox's server framework stays external (loaded from
// node_modules only by `foodctl sandbox`).
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// `node scripts/build.mjs [outdir]`: tests build a private copy so parallel runs never share dist/.
const outdir = process.argv[2] ?? "dist";
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: "src/main.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  external: ["fastify", "@fastify/multipart"],
  mainFields: ["module", "main"],
  // CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
  banner: { js: "import { createRequire as __foodctlRequire } from 'node:module'; const require = __foodctlRequire(import.meta.url);" },
  define: { __FOODCTL_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
});
