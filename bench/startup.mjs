#!/usr/bin/env node
// Start-up benchmark: how close each foodctl command comes to Node's own start (`node -e 0`)
// and to curl doing the same GET, against a local sandbox. Prints a Markdown table.
//
//   node bench/startup.mjs            BENCH_RUNS=50 node bench/startup.mjs
//   BENCH_BASE=<commit> node bench/startup.mjs
//
// With BENCH_BASE, that commit is built too (bench/base.mjs) and every foodctl command runs
// from both builds in the same interleaved rounds; the table gives each command's median for
// the base and the current sources and their ratio, and judges the five timed commands.
//
// Commands run interleaved (one run of each per round, after warm-up rounds), every child
// without NODE_EXTRA_CA_CERTS, NODE_OPTIONS or proxy variables and with a private
// XDG_CONFIG_HOME and XDG_CACHE_HOME (the code cache, written by the check run). "First run"
// rows get a new, empty cache folder every time: they compile without a cache and write one.
// The CLI is built into .bench/startup/ first, so the numbers are those of the current
// sources and a concurrent `npm run build` cannot disturb them.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPrivateCli, cleanEnv, fail, loadPngEncoder, positiveInt, progress, startSandbox } from "../scripts/lib.mjs";
import { prepareBase } from "./base.mjs";

const encodePng = await loadPngEncoder();

const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, ".bench", "startup");
const runs = positiveInt("BENCH_RUNS", 30);
const warmups = 3;
const rssRuns = 5;
const node = process.execPath;

// --- the CLI under test, a 700 kB image, a clean environment -------------------------------

progress("building the CLI into .bench/startup ...");
const bin = buildPrivateCli(root, work);
mkdirSync(join(work, "config"));
const baseCommit = process.env.BENCH_BASE || undefined;
const base = baseCommit === undefined ? undefined : prepareBase(root, baseCommit);

const imagePath = join(work, "display.png");
writeFileSync(imagePath, noisePng(480, 486));

const env = cleanEnv({ XDG_CONFIG_HOME: join(work, "config"), XDG_CACHE_HOME: join(work, "cache") });
/** The builds under test: the current sources ("new"), and with BENCH_BASE the base first. */
const builds = [...(base ? [{ label: "base", bin: base.bin }] : []), { label: "new", bin }];
/** Each build's code cache, written by its check run. */
const cacheOf = (build) => join(work, build.label === "new" ? "cache" : "cache-base");
let firstRuns = 0;
/** The environment of a first run: a cache folder nobody used yet. */
const fresh = () => ({ ...env, XDG_CACHE_HOME: join(work, "fresh-cache", String(firstRuns++)) });

/** A PNG of random RGB pixels: deflate cannot shrink noise, so the file is ~3 bytes a pixel. */
function noisePng(width, height) {
  const noise = randomBytes(3 * width * height);
  const png = encodePng(width, height, (x, y) => noise.subarray(3 * (y * width + x), 3 * (y * width + x) + 3));
  if (png.length < 700_000 || png.length > 1024 * 1024) fail(`the test image is ${png.length} bytes, expected 700 kB to 1 MiB`);
  return png;
}

// --- the sandbox -------------------------------------------------------------------------------

progress("starting the sandbox ...");
// Its request log goes to a file: the runs below block this process, so a pipe would fill up.
const sandbox = await startSandbox(bin, env, { log: join(work, "sandbox.log") }).catch((error) => fail(error.message));
const { url } = sandbox;
const token = sandbox.tokenFor("alice");
Object.assign(env, { FOODCTL_API_URL: url, FOODCTL_TOKEN: token });

// --- what is measured ---------------------------------------------------------------------------

const hasCurl = spawnSync("curl", ["--version"], { stdio: "ignore" }).status === 0;
let quantity = 150;
/**
 * The foodctl rows of one build. `timed`: the five commands whose ratios to a base are judged
 * together (issue 23: geometric mean ≤ 1.05, none over 1.10).
 */
const foodctlCommands = (build) => {
  const foodctl = (...args) => [node, build.bin, ...args];
  const own = () => ({ ...env, XDG_CACHE_HOME: cacheOf(build) });
  return [
    { name: "foodctl --version", argv: () => foodctl("--version"), rss: true, target: 1.15 },
    { name: "foodctl --help", argv: () => foodctl("--help"), rss: true, target: 1.45, timed: true },
    {
      name: "foodctl intake show 1002 --json",
      argv: () => foodctl("intake", "show", "1002", "--json"),
      rss: true,
      target: 1.85,
      rssTarget: 60,
      timed: true,
    },
    {
      name: "foodctl intake show 1002 (table)",
      argv: () => foodctl("intake", "show", "1002"),
      rss: true,
      target: 1.95,
      rssTarget: 60,
      timed: true,
    },
    { name: "first run, no cache: foodctl --help", argv: () => foodctl("--help"), fresh: true },
    {
      name: "first run, no cache: foodctl intake show 1002 --json",
      argv: () => foodctl("intake", "show", "1002", "--json"),
      fresh: true,
      target: 2.4,
      timed: true,
    },
    {
      name: "foodctl intake set-quantity 1002 1=150 --json",
      // 150 and 151 in turn, so every run really changes the intake (read, update, read).
      argv: () => foodctl("intake", "set-quantity", "1002", `1=${(quantity = quantity === 150 ? 151 : 150)}`, "--json"),
      rss: true,
      target: 2.1,
      timed: true,
    },
    {
      name: "foodctl display-image attach 1003 <700 kB PNG>",
      argv: () => foodctl("display-image", "attach", "1003", imagePath),
      rss: true,
    },
  ].map((command) => ({ ...command, build: build.label, env: command.fresh ? fresh : own }));
};
const commands = [
  { name: "node -e 0", argv: () => [node, "-e", "0"], rss: true },
  hasCurl && {
    name: "curl -s GET /v2/intake/1002",
    argv: () => ["curl", "-q", "-s", "-f", "-H", `Authorization: Bearer ${token}`, `${url}/v2/intake/1002`],
  },
  ...builds.flatMap(foodctlCommands),
].filter(Boolean);
/** A command as the progress lines and errors name it. */
const label = (command) => (base && command.build ? `${command.name} [${command.build}]` : command.name);

function runOnce(argv, capture = false, childEnv = env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), {
    env: childEnv,
    stdio: ["ignore", capture ? "pipe" : "ignore", "pipe"],
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    const shown = argv.map((part) => (part.includes(token) ? part.replace(token, "****") : part)).join(" ");
    fail(`\`${shown}\` exited with ${result.status ?? result.signal}:\n${result.stderr}`);
  }
  return { ms, stdout: capture ? result.stdout.toString() : "" };
}

// One checked run of each first: a benchmark of a command that fails measures nothing.
for (const command of commands) {
  const { stdout } = runOnce(command.argv(), true, command.env?.());
  if (command.name.includes("--json") && !stdout.includes('"intake_info"')) fail(`${label(command)}: no intake in its output`);
}

const loadBefore = os.loadavg()[0];
progress(`measuring: ${warmups} warm-up and ${runs} measured rounds of ${commands.length} commands, interleaved ...`);
const times = new Map(commands.map((command) => [command, []]));
for (let round = 0; round < warmups + runs; round++) {
  // Each round starts one command later, so none always runs right after the upload.
  for (let index = 0; index < commands.length; index++) {
    const command = commands[(round + index) % commands.length];
    const { ms } = runOnce(command.argv(), false, command.env?.());
    if (round >= warmups) times.get(command).push(ms);
  }
}

// --- CPU time -----------------------------------------------------------------------------------

// A busy machine stretches wall times by the waits for a CPU; the CPU a process uses (user +
// system, from a preload that reads process.cpuUsage() at exit) stretches far less. Separate
// rounds, so the preload is not in the wall times above; curl has no such row.
const cpuRuns = positiveInt("BENCH_CPU_RUNS", 15);
const cpuFile = join(work, "cpu.txt");
const cpuPreload = join(work, "cpu-preload.cjs");
const writeCpu = `require("fs").writeFileSync(${JSON.stringify(cpuFile)}, String((u.user + u.system) / 1000))`;
// Read after every other exit listener (the bin writes the code cache in one): each time a listener
// is added, the preload's own moves back to the end.
writeFileSync(
  cpuPreload,
  `const report = () => { const u = process.cpuUsage(); ${writeCpu}; };
let moving = false;
process.on("newListener", (event) => {
  if (event !== "exit" || moving) return;
  queueMicrotask(() => { moving = true; process.removeListener("exit", report); process.on("exit", report); moving = false; });
});
process.on("exit", report);
`,
);
const nodeCommands = commands.filter((command) => command.argv()[0] === node);
progress(`CPU time: ${cpuRuns} rounds ...`);
const cpu = new Map(nodeCommands.map((command) => [command, []]));
for (let round = 0; round < cpuRuns; round++) {
  for (let index = 0; index < nodeCommands.length; index++) {
    const command = nodeCommands[(round + index) % nodeCommands.length];
    const argv = command.argv();
    rmSync(cpuFile, { force: true });
    runOnce([node, "--require", cpuPreload, ...argv.slice(1)], false, command.env?.());
    cpu.get(command).push(Number(readFileSync(cpuFile, "utf8")));
  }
}

// --- peak memory -------------------------------------------------------------------------------

// GNU time reports the child's peak RSS without touching the child; without it, a preload
// module records Node's own maxRSS at exit (the same number, plus the preload's few kB).
const rssFile = join(work, "rss.txt");
const hasTime = (() => {
  const probe = spawnSync("/usr/bin/time", ["-f", "%M", "-o", rssFile, "true"], { stdio: "ignore" });
  return probe.status === 0 && /^\d+\s*$/.test(readFileSync(rssFile, "utf8"));
})();
const preload = join(work, "rss-preload.mjs");
writeFileSync(
  preload,
  `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
);
const rssMethod = hasTime ? "`/usr/bin/time -f %M`" : "a `--import` preload writing `process.resourceUsage().maxRSS` at exit";

function peakRssMb(argv) {
  rmSync(rssFile, { force: true });
  if (hasTime) runOnce(["/usr/bin/time", "-f", "%M", "-o", rssFile, ...argv]);
  else runOnce([argv[0], "--import", preload, ...argv.slice(1)]);
  return Number(readFileSync(rssFile, "utf8").trim()) / 1024;
}

// Side by side with a base, the table compares times alone.
const rss = new Map();
if (!base) {
  progress(`peak RSS: ${rssRuns} rounds ...`);
  for (let round = 0; round < rssRuns; round++) {
    for (const command of commands.filter((entry) => entry.rss))
      rss.set(command, Math.max(rss.get(command) ?? 0, peakRssMb(command.argv())));
  }
}
await sandbox.stop();

// --- the report --------------------------------------------------------------------------------

function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

const stats = new Map(
  commands.map((command) => {
    const sorted = [...times.get(command)].sort((a, b) => a - b);
    return [command, { median: quantile(sorted, 0.5), p10: quantile(sorted, 0.1), p90: quantile(sorted, 0.9) }];
  }),
);
const floor = stats.get(commands[0]).median;
const cpuMedian = (command) =>
  cpu.has(command)
    ? quantile(
        [...cpu.get(command)].sort((a, b) => a - b),
        0.5,
      )
    : undefined;
const cpuFloor = cpuMedian(commands[0]);
const curl = hasCurl ? stats.get(commands[1]).median : undefined;

const cpus = os.cpus();
const loadAfter = os.loadavg()[0];
// Waiting for a CPU swells wall times on a busy machine: the target is judged on the CPU ratio then (bench/README.md).
const busy = Math.max(loadBefore, loadAfter) > cpus.length;

const machine = `Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${os.type()} ${os.release()}, Node ${process.version}; 1-minute load average ${loadBefore.toFixed(2)} before the runs, ${loadAfter.toFixed(2)} after.`;

/** The table of the current sources alone: each command beside node -e 0 and curl, with its target. */
function standaloneReport() {
  const rows = commands.map((command) => {
    const { median, p10, p90 } = stats.get(command);
    const ratio = median / floor;
    const cpuMs = cpuMedian(command);
    const cpuRatio = cpuMs === undefined ? undefined : cpuMs / cpuFloor;
    const peak = rss.get(command);
    const checks = [];
    if (command.target) {
      const byCpu = cpuRatio === undefined ? "" : ` (CPU ${cpuRatio <= command.target ? "pass" : "FAIL"})`;
      const judged = busy && cpuRatio !== undefined ? cpuRatio : ratio;
      checks.push({ text: `≤ ${command.target.toFixed(2)}×${byCpu}`, ok: judged <= command.target });
    }
    if (command.rssTarget) checks.push({ text: `≤ ${command.rssTarget} MB`, ok: peak <= command.rssTarget });
    const target = checks.length
      ? `${checks.map((check) => check.text).join(", ")}: ${checks.every((check) => check.ok) ? "pass" : "**FAIL**"}`
      : "";
    return [
      `\`${command.name}\``,
      median.toFixed(1),
      `${p10.toFixed(1)}–${p90.toFixed(1)}`,
      `${ratio.toFixed(2)}×`,
      curl ? `${(median / curl).toFixed(2)}×` : "–",
      cpuMs === undefined ? "–" : cpuMs.toFixed(1),
      cpuRatio === undefined ? "–" : `${cpuRatio.toFixed(2)}×`,
      peak === undefined ? "–" : peak.toFixed(1),
      target,
    ];
  });

  return [
    machine,
    `Runs: ${runs} measured per command after ${warmups} warm-up rounds, interleaved; spread = p10–p90; ` +
      `CPU = median user + system time of ${cpuRuns} more interleaved rounds (preload reading \`process.cpuUsage()\` at exit); ` +
      `peak RSS = highest of ${rssRuns} separate runs, by ${rssMethod}.`,
    ...(busy
      ? [
          `**The machine was busy (load above ${cpus.length}): the medians include waiting for a CPU, so each target is judged on its CPU ratio; a quieter rerun is better.**`,
        ]
      : []),
    ...(hasCurl ? [] : ["curl was not found: the curl row and the ratio to curl are left out."]),
    "",
    `| command | median ms | p10–p90 ms | × node -e 0 | × curl | CPU ms | CPU × node -e 0 | peak RSS MB | target (${busy ? "CPU" : "wall"} ratio) |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
}

/**
 * The table side by side with a base: each foodctl command's medians from both builds and their
 * ratio, then the geometric mean of the five timed commands' ratios, judged against issue 23's goal.
 */
function comparisonReport() {
  const pairs = commands
    .filter((command) => command.build === "new")
    .map((command) => {
      const before = commands.find((other) => other.build === "base" && other.name === command.name);
      return { command, before, wall: stats.get(command).median / stats.get(before).median, cpu: cpuMedian(command) / cpuMedian(before) };
    });
  const timed = pairs.filter((pair) => pair.command.timed);
  const geomean = (values) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
  const wallMean = geomean(timed.map((pair) => pair.wall));
  const worst = timed.reduce((high, pair) => (pair.wall > high.wall ? pair : high));
  const pass = wallMean <= 1.05 && worst.wall <= 1.1;
  const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout.trim();
  const current = `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " with uncommitted changes" : ""}`;
  const reference = [stats.get(commands[0]).median, hasCurl ? stats.get(commands[1]).median : undefined];
  return [
    machine,
    `Runs: ${runs} measured per command and build after ${warmups} warm-up rounds, both builds interleaved in the same rounds; ` +
      `CPU = median user + system time of ${cpuRuns} more interleaved rounds (preload reading \`process.cpuUsage()\` at exit).`,
    `Base: ${base.short} (BENCH_BASE=${baseCommit}); new: the working tree at ${current}. ` +
      `In the same rounds: \`node -e 0\` ${reference[0].toFixed(1)} ms${reference[1] === undefined ? "" : `, curl ${reference[1].toFixed(1)} ms`}.`,
    ...(busy
      ? [
          `The machine was busy (load above ${cpus.length}): both builds waited alike in the shared rounds; the goal is judged on the wall ratios.`,
        ]
      : []),
    "",
    "| command | timed | base ms | new ms | new / base | base CPU ms | new CPU ms | CPU new / base |",
    "|---|:-:|---:|---:|---:|---:|---:|---:|",
    ...pairs.map(
      ({ command, before, wall, cpu }) =>
        `| \`${command.name}\` | ${command.timed ? "✓" : ""} | ${stats.get(before).median.toFixed(1)} | ${stats.get(command).median.toFixed(1)} | ` +
        `${wall.toFixed(3)} | ${cpuMedian(before).toFixed(1)} | ${cpuMedian(command).toFixed(1)} | ${cpu.toFixed(3)} |`,
    ),
    "",
    `Geometric mean of new / base over the ${timed.length} timed commands: ${wallMean.toFixed(3)} (CPU ${geomean(timed.map((pair) => pair.cpu)).toFixed(3)}); ` +
      `highest ${worst.wall.toFixed(3)} (\`${worst.command.name}\`).`,
    `Goal (issue 23): geometric mean ≤ 1.05 and none over 1.10: ${pass ? "pass" : "**FAIL**"}.`,
  ];
}

process.stdout.write(`${(base ? comparisonReport() : standaloneReport()).join("\n")}\n`);
