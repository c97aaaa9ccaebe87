// `npm run docs`: writes the manual generated from the command specs (scripts/docs/manual.ts):
// docs/manual/*.md, man/*.1, and package.json's `man` list. Pages no command has any more are
// removed. The generator is TypeScript that imports src/, so it is bundled with esbuild (a dev
// dependency) into node_modules/.cache first; `npm test` checks that the files are up to date.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packagePath = join(root, "package.json");
const { version } = JSON.parse(readFileSync(packagePath, "utf8"));
const bundle = join(root, "node_modules/.cache/foodctl-docs/manual.cjs");

await build({
  entryPoints: [join(root, "scripts/docs/manual.ts")],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  packages: "external",
  // The version the build gives `foodctl --version`, for the pages' footer.
  define: { __FOODCTL_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
});
const { generateManual, MANUAL_DIR, MAN_DIR } = createRequire(import.meta.url)(bundle);
const { files, man } = await generateManual();

for (const [dir, suffix] of [
  [MANUAL_DIR, ".md"],
  [MAN_DIR, ".1"],
  [MAN_DIR, ".7"],
]) {
  mkdirSync(join(root, dir), { recursive: true });
  for (const name of readdirSync(join(root, dir))) {
    if (name.endsWith(suffix) && !files.has(`${dir}/${name}`)) rmSync(join(root, dir, name));
  }
}
let written = 0;
for (const [path, text] of files) {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  let old;
  try {
    old = readFileSync(target, "utf8");
  } catch {
    old = undefined;
  }
  if (old !== text) {
    writeFileSync(target, text);
    written++;
  }
}

// package.json's `man`, after `files` when it is new; the rest of the file as it was.
const pkg = JSON.parse(readFileSync(packagePath, "utf8"));
if (JSON.stringify(pkg.man) !== JSON.stringify(man)) {
  const entries = Object.entries(pkg).filter(([key]) => key !== "man");
  const at = entries.findIndex(([key]) => key === "files") + 1 || entries.length;
  entries.splice(at, 0, ["man", man]);
  writeFileSync(packagePath, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
  written++;
}
process.stderr.write(`docs: ${files.size} pages in ${MANUAL_DIR}/ and ${MAN_DIR}/, ${written} file(s) changed\n`);
