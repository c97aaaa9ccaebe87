#!/usr/bin/env node
// Batch benchmark: `foodctl intake apply` on 1,000 changes (verified: read, update, read;
// concurrency 4) beside a shell loop of curl doing only the update for each change, and
// beside a shell loop of `foodctl intake set-quantity`; then `undo --batch` of 1,000 applied
// lines beside their `intake apply`, with the sandbox answering 40 ms late; then the peak RSS of
// `intake apply` on 100,000 lines. Prints a Markdown table with the ratios and the targets.
//
//   node bench/apply.mjs              BENCH_LOOP=200 BENCH_BIG=0 node bench/apply.mjs
//
// BENCH_LOOP: how many set-quantity runs are timed (default 100, scaled to 1,000);
// BENCH_BIG=0 skips the real 100,000-line run with --no-verify (the --dry-run one always runs).
// Every child runs without NODE_EXTRA_CA_CERTS, NODE_OPTIONS or proxy variables and with a
// private XDG_CONFIG_HOME. The CLI is built into .bench/apply/ first, so the numbers are those
// of the current sources and a concurrent `npm run build` cannot disturb them.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPrivateCli, cleanEnv, fail, positiveInt, progress, startSandbox } from "../scripts/lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, ".bench", "apply");
const node = process.execPath;
const CHANGES = 1000;
const BIG = 100_000;
const loopRuns = positiveInt("BENCH_LOOP", 100);
const bigReal = process.env.BENCH_BIG !== "0";
const applyRuns = 3;

// --- the CLI under test and a clean environment ----------------------------------------------------

progress("building the CLI into .bench/apply ...");
const bin = buildPrivateCli(root, work);
mkdirSync(join(work, "config"));

const env = cleanEnv({ XDG_CONFIG_HOME: join(work, "config"), XDG_CACHE_HOME: join(work, "cache") });

// --- the sandbox ----------------------------------------------------------------------------------

progress("starting the sandbox ...");
// Its log goes to a file and its stdout is drained: a full pipe would stall it mid-benchmark.
const sandbox = await startSandbox(bin, env, { log: join(work, "sandbox.log") }).catch((error) => fail(error.message));
const { url } = sandbox;
const token = sandbox.tokenFor("alice");
Object.assign(env, { FOODCTL_API_URL: url, FOODCTL_TOKEN: token });

// --- the changes: alice's recognition-only, segmentation and manual intakes in turn --------------

/** Change number i: a JSON Lines body, the curl body, and the set-quantity arguments. */
function change(i, offset) {
  const grams = 100 + ((i + offset) % 97);
  switch (i % 3) {
    case 0:
      return {
        line: { image_id: 1001, quantity: 200 + grams },
        body: { imageId: 1001, quantity: 200 + grams },
        args: ["1001", String(200 + grams)],
      };
    case 1:
      return {
        line: { image_id: 1002, quantity: { [String((i % 2) + 1)]: grams } },
        body: { imageId: 1002, quantity: { [String((i % 2) + 1)]: grams } },
        args: ["1002", `${(i % 2) + 1}=${grams}`],
      };
    default:
      return {
        line: { image_id: 1003, quantity: { manual2: grams / 2 } },
        body: { imageId: 1003, quantity: { manual2: grams / 2 } },
        args: ["1003", `manual2=${grams / 2}`],
      };
  }
}

function writeLines(path, count, render, offset = 0) {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(render(change(i, offset)));
  writeFileSync(path, `${lines.join("\n")}\n`);
}

const changesFile = (run) => join(work, `changes-${run}.jsonl`);
for (let run = 0; run < applyRuns; run++) writeLines(changesFile(run), CHANGES, (c) => JSON.stringify(c.line), run * 7);
const bodiesFile = join(work, "bodies.txt");
writeLines(bodiesFile, CHANGES, (c) => JSON.stringify(c.body), 3);
const argsFile = join(work, "set-quantity-args.txt");
writeLines(argsFile, loopRuns, (c) => c.args.join(" "), 5);
// The token goes to curl in a header file, not on its command line.
const headerFile = join(work, "curl-headers.txt");
writeFileSync(headerFile, `Authorization: Bearer ${token}\nContent-Type: application/json\n`, { mode: 0o600 });

function timed(argv, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), {
    env: options.env ?? env,
    stdio: ["ignore", options.stdout ?? "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    fail(`\`${argv.join(" ")}\` exited with ${result.status ?? result.signal}:\n${String(result.stderr).slice(-4000)}`);
  return { ms, stdout: result.stdout ? result.stdout.toString() : "" };
}

function checkApplied(stdout, count, status = "applied") {
  const lines = stdout.trim().split("\n");
  const good = lines.filter((line) => JSON.parse(line).status === status).length;
  if (lines.length !== count || good !== count) fail(`expected ${count} results "${status}", got ${good} of ${lines.length} lines`);
}

// --- 1,000 changes three ways ----------------------------------------------------------------------

const hasCurl = spawnSync("curl", ["--version"], { stdio: "ignore" }).status === 0;
const hasBash = spawnSync("bash", ["-c", "true"], { stdio: "ignore" }).status === 0;
if (!hasBash) fail("bash is needed for the shell loops");

progress(`intake apply: ${applyRuns} runs of ${CHANGES} changes ...`);
const applyTimes = [];
for (let run = 0; run < applyRuns; run++) {
  const { ms, stdout } = timed([node, bin, "intake", "apply", changesFile(run), "--concurrency", "4"]);
  checkApplied(stdout, CHANGES);
  applyTimes.push(ms);
}
const applyMs = applyTimes.sort((a, b) => a - b)[Math.floor(applyTimes.length / 2)];

let curlMs;
if (hasCurl) {
  progress(`curl loop: ${CHANGES} updates ...`);
  const script = `while IFS= read -r body; do curl -q -s -f -o /dev/null -X POST -H @"$1" --data-binary "$body" "$2/v2/nutrition/confirm/quantity" || exit 1; done < "$3"`;
  curlMs = timed(["bash", "-c", script, "curl-loop", headerFile, url, bodiesFile]).ms;
}

progress(`set-quantity loop: ${loopRuns} runs (scaled to ${CHANGES}) ...`);
const loopScript = `while read -r id values; do "$1" "$2" intake set-quantity "$id" $values > /dev/null || exit 1; done < "$3"`;
const loopMs = (timed(["bash", "-c", loopScript, "set-quantity-loop", node, bin, argsFile]).ms * CHANGES) / loopRuns;

// --- undo --batch beside intake apply, the sandbox at 40 ms a request -----------------------------

const LATENCY_MS = 40;
progress(`undo --batch: ${CHANGES} changes applied, then undone, the sandbox at ${LATENCY_MS} ms a request ...`);
const slow = await startSandbox(bin, env, { log: join(work, "sandbox-slow.log"), args: ["--latency", String(LATENCY_MS)] }).catch((error) =>
  fail(error.message),
);
// A journal of its own: the runs above (and the 100,000 lines below) do not make the undo's read longer.
const undoState = join(work, "undo-state");
mkdirSync(undoState);
const slowEnv = { ...env, FOODCTL_API_URL: slow.url, FOODCTL_TOKEN: slow.tokenFor("alice"), XDG_STATE_HOME: undoState };
const undoResults = join(work, "undo-apply-results.jsonl");
const slowApply = timed([node, bin, "intake", "apply", changesFile(0), "--concurrency", "4", "--results", undoResults], {
  env: slowEnv,
});
checkApplied(slowApply.stdout, CHANGES);
const slowUndo = timed([node, bin, "undo", "--batch", undoResults, "--yes", "--concurrency", "4"], { env: slowEnv });
const undone = slowUndo.stdout.trim().split("\n").slice(1);
if (undone.length !== CHANGES || undone.some((row) => row.split("\t")[2] !== "undone"))
  fail(`expected ${CHANGES} entries "undone", got ${undone.filter((row) => row.split("\t")[2] === "undone").length} of ${undone.length}`);
await slow.stop();

// --- peak RSS on 100,000 lines --------------------------------------------------------------------

const bigFile = join(work, "big.jsonl");
{
  const out = createWriteStream(bigFile);
  for (let i = 0; i < BIG; i++) {
    if (!out.write(`${JSON.stringify(change(i, 11).line)}\n`)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

const timeReport = join(work, "time.txt");
const hasTime = (() => {
  if (!existsSync("/usr/bin/time")) return false;
  const probe = spawnSync("/usr/bin/time", ["-v", "-o", timeReport, "true"], { stdio: "ignore" });
  return probe.status === 0 && /Maximum resident set size/.test(readFileSync(timeReport, "utf8"));
})();
const rssMethod = hasTime ? "`/usr/bin/time -v`" : "polling `VmHWM` in /proc/<pid>/status";

/** Runs a command with stdout to /dev/null; its peak RSS in MB and its time in ms. */
async function peakRss(argv) {
  const devNull = openSync("/dev/null", "w");
  const started = process.hrtime.bigint();
  const full = hasTime ? ["/usr/bin/time", "-v", "-o", timeReport, ...argv] : argv;
  const child = spawn(full[0], full.slice(1), { env, stdio: ["ignore", devNull, "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let polled = 0;
  const poll = hasTime
    ? null
    : setInterval(() => {
        try {
          const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
          if (match) polled = Math.max(polled, Number(match[1]));
        } catch {
          // the process is gone: the last reading stands
        }
      }, 20);
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (poll) clearInterval(poll);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) fail(`\`${argv.join(" ")}\` exited with ${code}:\n${stderr.slice(-4000)}`);
  const kb = hasTime ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeReport, "utf8"))?.[1]) : polled;
  return { mb: kb / 1024, ms };
}

progress(`peak RSS: intake apply --dry-run on ${BIG.toLocaleString("en-US")} lines ...`);
const dryRun = await peakRss([node, bin, "intake", "apply", bigFile, "--dry-run"]);
let real;
if (bigReal) {
  progress(`peak RSS: intake apply --no-verify on ${BIG.toLocaleString("en-US")} lines (sends them all) ...`);
  real = await peakRss([node, bin, "intake", "apply", bigFile, "--no-verify"]);
}
await sandbox.stop();

// --- the report ------------------------------------------------------------------------------------

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const perChange = (ms) => `${(ms / CHANGES).toFixed(2)} ms`;
const ok = (pass) => (pass ? "✓" : "✗");
const rows = [
  [
    "`foodctl intake apply` (verified: read, update, read; concurrency 4), median of " + applyRuns,
    seconds(applyMs),
    perChange(applyMs),
    "1×",
    "",
    "",
  ],
];
if (curlMs !== undefined) {
  const ratio = curlMs / applyMs;
  rows.push([
    "shell loop of `curl` doing only the update (POST)",
    seconds(curlMs),
    perChange(curlMs),
    `apply ${ratio.toFixed(1)}× faster`,
    "≥ 5×",
    ok(ratio >= 5),
  ]);
}
const loopRatio = loopMs / applyMs;
rows.push([
  `shell loop of \`foodctl intake set-quantity\` (${loopRuns} timed, ×${CHANGES / loopRuns})`,
  seconds(loopMs),
  perChange(loopMs),
  `apply ${loopRatio.toFixed(1)}× faster`,
  "≥ 30×",
  ok(loopRatio >= 30),
]);

const undoRatio = slowUndo.ms / slowApply.ms;
const undoRows = [
  [`\`foodctl intake apply\` (concurrency 4)`, seconds(slowApply.ms), perChange(slowApply.ms), "1×", "", ""],
  [
    `\`foodctl undo --batch\` of its ${CHANGES.toLocaleString("en-US")} entries (concurrency 4)`,
    seconds(slowUndo.ms),
    perChange(slowUndo.ms),
    `${undoRatio.toFixed(2)}× apply's`,
    "≤ 1.2×",
    ok(undoRatio <= 1.2),
  ],
];

const rssRows = [
  [
    `\`intake apply --dry-run\`, ${BIG.toLocaleString("en-US")} lines`,
    `${dryRun.mb.toFixed(1)} MB`,
    seconds(dryRun.ms),
    "< 150 MB",
    ok(dryRun.mb < 150),
  ],
];
if (real)
  rssRows.push([
    `\`intake apply --no-verify\`, ${BIG.toLocaleString("en-US")} lines sent`,
    `${real.mb.toFixed(1)} MB`,
    seconds(real.ms),
    "< 150 MB",
    ok(real.mb < 150),
  ]);

const table = (head, body) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...body.map((row) => `| ${row.join(" | ")} |`)].join("\n");
const out = [
  `### ${CHANGES.toLocaleString("en-US")} changes against the sandbox (Node ${process.version}, ${process.platform})`,
  "",
  table(["run", "total", "per change", "ratio", "target", ""], rows),
  "",
  `The same ${CHANGES.toLocaleString("en-US")} changes applied and undone, the sandbox answering ${LATENCY_MS} ms late:`,
  "",
  table(["run", "total", "per entry", "ratio", "target", ""], undoRows),
  "",
  `Peak RSS measured with ${rssMethod}:`,
  "",
  table(["run", "peak RSS", "time", "target", ""], rssRows),
  "",
];
if (curlMs === undefined) out.push("curl is not installed: the curl row is left out.", "");
process.stdout.write(`${out.join("\n")}\n`);
