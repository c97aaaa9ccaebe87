#!/usr/bin/env node
// Start-up by instruction count: each of the five timed commands run once under
// `valgrind --tool=callgrind` with `node --predictable` (V8 single-threaded and deterministic: runs
// repeat within 0.01%), from the current sources and, with BENCH_BASE, from that
// commit's build too (bench/base.mjs). Where a busy machine makes wall times wander, this compares
// two builds to a fraction of a percent; it counts work, not waiting or the system's share.
//
//   BENCH_BASE=20fbc42 node bench/instructions.mjs
//
// Needs valgrind. Children get the clean environment of bench/startup.mjs; each build has a code
// cache of its own (warmed by two runs), first runs a new empty folder.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPrivateCli, cleanEnv, countInstructions, fail, progress, startSandbox } from "../scripts/lib.mjs";
import { prepareBase } from "./base.mjs";

if (spawnSync("valgrind", ["--version"], { stdio: "ignore" }).status !== 0) fail("valgrind was not found");

const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, ".bench", "instructions");
progress("building the CLI into .bench/instructions ...");
const bin = buildPrivateCli(root, work);
mkdirSync(join(work, "config"));
const baseCommit = process.env.BENCH_BASE || undefined;
const base = baseCommit === undefined ? undefined : prepareBase(root, baseCommit);
const builds = [...(base ? [{ label: "base", bin: base.bin }] : []), { label: "new", bin }];

const env = cleanEnv({ XDG_CONFIG_HOME: join(work, "config") });
progress("starting the sandbox ...");
const sandbox = await startSandbox(bin, env, { log: join(work, "sandbox.log") }).catch((error) => fail(error.message));
Object.assign(env, { FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: sandbox.tokenFor("alice") });

let quantity = 150;
let firstRuns = 0;
const commands = [
  { name: "foodctl --help", args: () => ["--help"] },
  { name: "foodctl intake show 1002 --json", args: () => ["intake", "show", "1002", "--json"] },
  { name: "foodctl intake show 1002 (table)", args: () => ["intake", "show", "1002"] },
  { name: "first run, no cache: foodctl intake show 1002 --json", args: () => ["intake", "show", "1002", "--json"], fresh: true },
  {
    name: "foodctl intake set-quantity 1002 1=150 --json",
    args: () => ["intake", "set-quantity", "1002", `1=${(quantity = quantity === 150 ? 151 : 150)}`, "--json"],
  },
];

/** Runs one command of one build, under callgrind when `count`; returns the instructions it counted. */
function run(build, command, count) {
  const cache = command.fresh ? join(work, "fresh-cache", String(firstRuns++)) : join(work, `cache-${build.label}`);
  return countInstructions(build.bin, command.args(), { ...env, XDG_CACHE_HOME: cache }, count, `${command.name} [${build.label}]`);
}

const counts = new Map();
for (const command of commands) {
  for (const build of builds) {
    progress(`${command.name} [${build.label}] ...`);
    // Twice first: the code cache holds this command's functions, as in everyday runs.
    run(build, command, false);
    run(build, command, false);
    counts.set(`${build.label} ${command.name}`, run(build, command, true));
  }
}
await sandbox.stop();

const millions = (count) => (count / 1e6).toFixed(1);
const rows = commands.map((command) => {
  const now = counts.get(`new ${command.name}`);
  if (!base) return `| \`${command.name}\` | ${millions(now)} |`;
  const before = counts.get(`base ${command.name}`);
  return `| \`${command.name}\` | ${millions(before)} | ${millions(now)} | ${(now / before).toFixed(4)} |`;
});
const lines = [
  "Instructions (millions) of one run each, `valgrind --tool=callgrind`, `node --predictable`" +
    (base ? `; base ${base.short} (BENCH_BASE=${baseCommit}), new the working tree.` : "."),
  "",
  base ? "| command | base | new | new / base |" : "| command | instructions |",
  base ? "|---|---:|---:|---:|" : "|---|---:|",
  ...rows,
];
if (base) {
  const ratios = commands.map((command) => counts.get(`new ${command.name}`) / counts.get(`base ${command.name}`));
  const mean = Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length);
  lines.push("", `Geometric mean of new / base: ${mean.toFixed(4)}; highest ${Math.max(...ratios).toFixed(4)}.`);
}
process.stdout.write(`${lines.join("\n")}\n`);
