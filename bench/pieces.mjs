#!/usr/bin/env node
// What each start-up piece saves, by instruction count (valgrind callgrind, `node --predictable`,
// as bench/instructions.mjs): the five timed commands run from three builds of the current sources.
//
//   full     the real build: the bin's --version, the hot and cold files, each with its V8 code cache
//   no cache the same build with FOODCTL_NO_CACHE=1
//   plain    one esbuild bundle of src/main.ts (same options, no hot/cold split), required by a
//            two-line bin: no --version shortcut, no code cache
//
//   node bench/pieces.mjs
//
// "no cache" minus "full" is the code cache's saving; "plain" minus "no cache" is the bin's and the
// hot/cold split's. Needs valgrind (takes a few minutes).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildPrivateCli, cleanEnv, countInstructions, fail, progress, startSandbox } from "../scripts/lib.mjs";

if (spawnSync("valgrind", ["--version"], { stdio: "ignore" }).status !== 0) fail("valgrind was not found");

const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, ".bench", "pieces");
progress("building the CLI into .bench/pieces ...");
const bin = buildPrivateCli(root, work);
mkdirSync(join(work, "config"));
const plain = join(work, "plain");
mkdirSync(join(plain, "bin"), { recursive: true });
await build({
  entryPoints: [join(root, "src", "main.ts")],
  absWorkingDir: root,
  outfile: join(plain, "dist", "plain.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  supported: { "dynamic-import": false },
  minifySyntax: true,
  minifyWhitespace: true,
  charset: "ascii",
  legalComments: "none",
  mainFields: ["module", "main"],
  define: { __FOODCTL_VERSION__: JSON.stringify("0.0.0") },
  external: ["fastify", "@fastify/multipart", "terminal-image", "open"],
  logLevel: "warning",
});
writeFileSync(
  join(plain, "bin", "foodctl.js"),
  'const { run, exit } = require("../dist/plain.cjs");\nrun(process.argv.slice(2)).then(exit);\n',
);
writeFileSync(join(plain, "bin", "package.json"), '{ "type": "commonjs" }\n');

const env = cleanEnv({ XDG_CONFIG_HOME: join(work, "config") });
progress("starting the sandbox ...");
const sandbox = await startSandbox(bin, env, { log: join(work, "sandbox.log") }).catch((error) => fail(error.message));
Object.assign(env, { FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: sandbox.tokenFor("alice") });

let quantity = 150;
const commands = [
  { name: "foodctl --version", args: () => ["--version"] },
  { name: "foodctl --help", args: () => ["--help"] },
  { name: "foodctl intake show 1002 --json", args: () => ["intake", "show", "1002", "--json"] },
  { name: "foodctl intake show 1002 (table)", args: () => ["intake", "show", "1002"] },
  {
    name: "foodctl intake set-quantity 1002 1=150 --json",
    args: () => ["intake", "set-quantity", "1002", `1=${(quantity = quantity === 150 ? 151 : 150)}`, "--json"],
  },
];
const builds = [
  { label: "full", bin, env: {} },
  { label: "nocache", bin, env: { FOODCTL_NO_CACHE: "1" } },
  { label: "plain", bin: join(plain, "bin", "foodctl.js"), env: {} },
];

/** Runs one command of one build, under callgrind when `count`; returns the instructions it counted. */
function run(variant, command, count) {
  const runEnv = { ...env, ...variant.env, XDG_CACHE_HOME: join(work, `cache-${variant.label}`) };
  return countInstructions(variant.bin, command.args(), runEnv, count, `${command.name} [${variant.label}]`);
}

const millions = (count) => (count / 1e6).toFixed(1).replace(/^-0\.0$/, "0.0");
const share = (saved, of) => `${millions(saved)} (${Math.round((100 * saved) / of)}%)`;
const rows = [];
for (const command of commands) {
  const counts = {};
  for (const variant of builds) {
    progress(`${command.name} [${variant.label}] ...`);
    // Twice first: the code cache holds this command's functions, as in everyday runs.
    run(variant, command, false);
    run(variant, command, false);
    counts[variant.label] = run(variant, command, true);
  }
  const { full, nocache, plain: bundle } = counts;
  rows.push(
    `| \`${command.name}\` | ${millions(bundle)} | ${millions(nocache)} | ${millions(full)} | ${share(nocache - full, nocache)} | ${share(bundle - nocache, bundle)} |`,
  );
}
await sandbox.stop();
const lines = [
  "Instructions (millions) of one run each, `valgrind --tool=callgrind`, `node --predictable`.",
  "",
  "| command | plain bundle | split, no cache | split + cache | the code cache saves | the bin and split save |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows,
];
process.stdout.write(`${lines.join("\n")}\n`);
