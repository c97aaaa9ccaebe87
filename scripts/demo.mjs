#!/usr/bin/env node
// `npm run demo`: a short scripted tour of foodctl against a local sandbox. Starts
// `foodctl sandbox --port 0 --json`, runs the real CLI (bin/foodctl.js) step by step, printing
// each command before its output, then stops the sandbox. Tokens travel only in the child's
// environment (FOODCTL_TOKEN) and are never printed. Exit 0 when every step ended as expected.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanEnv, loadPngEncoder, startSandbox } from "./lib.mjs";

const encodePng = await loadPngEncoder();

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "bin", "foodctl.js");
const color = process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb";
const paint = (code, text) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = (text) => paint("1", text);
const dim = (text) => paint("2", text);
const cyan = (text) => paint("36", text);
const red = (text) => paint("31", text);

/** The newest modification time under a folder (for "is dist older than src?"). */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** bin/foodctl.js loads dist/: build it when missing or older than the sources. */
function ensureBuilt() {
  const entry = join(root, "dist", "main.js");
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestMtime(join(root, "src"))) return;
  process.stderr.write(dim("building dist/ (npm run build) ...\n"));
  const build = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("the build failed");
}

/** A small 8-bit RGB PNG of a plate on a table. */
function platePng(width, height) {
  const radius = Math.min(width, height) * 0.42;
  return encodePng(width, height, (x, y) => {
    const distance = Math.hypot(x - (width - 1) / 2, y - (height - 1) / 2);
    return distance < radius * 0.55 ? [214, 91, 52] : distance < radius ? [247, 245, 240] : [92, 140, 90];
  });
}

/** Runs one step with the real CLI, its output straight to this terminal. */
function runStep(args, env, cwd) {
  return new Promise((resolveStep) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", () => resolveStep(-1));
    child.once("exit", (code, signal) => resolveStep(code ?? (signal ? 128 : -1)));
  });
}

const tour = [
  { note: "alice (APIUser, Monitor plan): her intakes" },
  { as: "alice", args: ["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"] },
  { as: "alice", args: ["intake", "show", "1002"] },
  { note: "fix the quantities of two items: the recipe is rescaled and nutrition recalculated" },
  { as: "alice", args: ["intake", "set-quantity", "1002", "1=150", "3=180"] },
  { note: "salt and oil levels: Monitor or higher, so they take effect" },
  { as: "alice", args: ["intake", "set-modifiers", "1002", "3", "--salt", "none", "--oil", "medium"] },
  { note: "bob (APIUser, Analyse plan): item-level modifiers are ignored by the API, and foodctl warns" },
  { as: "bob", args: ["intake", "set-modifiers", "2002", "1", "2", "--salt", "high"] },
  { note: "--strict turns that warning into exit 7" },
  { as: "bob", args: ["intake", "set-modifiers", "2002", "2", "--sugar", "none", "--strict"], expect: 7 },
  { note: "a display image for alice's manual intake 1003 (plate.png, a generated 64×48 PNG)" },
  { as: "alice", args: ["display-image", "attach", "1003", "plate.png", "--dry-run"] },
  { as: "alice", args: ["display-image", "attach", "1003", "plate.png"] },
  { as: "alice", args: ["intake", "show", "1003"] },
  { as: "alice", args: ["display-image", "remove", "1003", "--yes"] },
];

async function main() {
  ensureBuilt();
  const work = mkdtempSync(join(tmpdir(), "foodctl-demo-"));
  writeFileSync(join(work, "plate.png"), platePng(64, 48));
  // A clean environment: no FOODCTL_*, NODE_OPTIONS or proxy settings from outside, a private config folder.
  const env = cleanEnv({ XDG_CONFIG_HOME: work });

  let sandbox;
  const stopOnSignal = () => void (sandbox ? sandbox.stop() : Promise.resolve()).then(() => process.exit(130));
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  const failures = [];
  try {
    sandbox = await startSandbox(bin, env, { cwd: root });
    const { url } = sandbox;
    process.stdout.write(`${bold("foodctl demo")}: a sandbox is running at ${url}\n`);
    process.stdout.write(dim("each step runs bin/foodctl.js with FOODCTL_API_URL and FOODCTL_TOKEN set for the user named\n"));
    for (const step of tour) {
      if (step.note) {
        process.stdout.write(`\n${dim(`# ${step.note}`)}\n`);
        continue;
      }
      const expected = step.expect ?? 0;
      process.stdout.write(`${cyan("$")} ${bold(`foodctl ${step.args.join(" ")}`)}  ${dim(`# as ${step.as}`)}\n`);
      const code = await runStep(step.args, { ...env, FOODCTL_API_URL: url, FOODCTL_TOKEN: sandbox.tokenFor(step.as) }, work);
      if (code !== expected) {
        failures.push(`foodctl ${step.args.join(" ")}: exit ${code}, expected ${expected}`);
        process.stdout.write(red(`(exit ${code}, expected ${expected})\n`));
      } else if (code !== 0) {
        process.stdout.write(dim(`(exit ${code}, as expected)\n`));
      }
    }
  } finally {
    await sandbox?.stop();
    rmSync(work, { recursive: true, force: true });
  }
  if (failures.length) {
    process.stderr.write(
      `\n${red("demo failed")}: ${failures.length} step(s) ended unexpectedly\n${failures.map((line) => `  ${line}\n`).join("")}`,
    );
    return 1;
  }
  process.stdout.write(`\n${bold("demo done")}: sandbox stopped, every step ended as expected\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${red("demo failed")}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
