// `npm test`: the type check, ESLint, Prettier and vitest run at the same time (vitest's tests
// often wait on sockets and child processes; the checks use the CPU meanwhile), each tool's
// output kept together and printed when it ends, vitest's last. Any tool that fails fails the
// run with its exit code (130 when interrupted); the last line names the ones that failed.
//
// The static checks keep caches under node_modules/.cache/foodctl-test/ (never committed):
// tsc's incremental build info, ESLint's and Prettier's results per file, by content. A clean
// clone has none and checks everything; the next run checks only what changed.
//
// `node scripts/test.mjs [vitest arguments]` passes the arguments to vitest (e.g. a test file).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeValidators } from "./records.mjs";

const root = join(import.meta.dirname, "..");
const cache = join(root, "node_modules", ".cache", "foodctl-test");

/** A dependency's command line entry, run with this Node (no shell, no PATH lookup). */
function bin(pkg, name = pkg) {
  const dir = join(root, "node_modules", pkg);
  const { bin: entries } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return join(dir, typeof entries === "string" ? entries : entries[name]);
}

const tools = [
  { name: "eslint", args: [bin("eslint"), "--cache", "--cache-strategy", "content", "--cache-location", join(cache, "eslint"), "."] },
  {
    name: "prettier",
    args: [bin("prettier"), "--check", "--cache", "--cache-strategy", "content", "--cache-location", join(cache, "prettier"), "."],
  },
  { name: "tsc", args: [bin("typescript", "tsc"), "--noEmit", "--incremental", "--tsBuildInfoFile", join(cache, "tsbuildinfo")] },
  { name: "vitest", args: [bin("vitest"), "run", ...process.argv.slice(2)] },
];

const children = new Set();
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    interrupted = true;
    for (const child of children) child.kill(signal);
  });
}

/** Runs one tool; resolves with its exit code (1 when a signal ended it) and its output, both streams in arrival order. */
function runTool({ name, args }) {
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const chunks = [];
  child.stdout.on("data", (chunk) => chunks.push(chunk));
  child.stderr.on("data", (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.on("error", (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code, signal) => {
      children.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve({ name, code: code ?? 1, signal, seconds, output: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

function print({ name, code, signal, seconds, output }) {
  const verdict = code === 0 ? "ok" : signal ? `stopped by ${signal}` : `failed, exit ${code}`;
  process.stdout.write(`\n── ${name}: ${verdict} (${seconds} s)\n`);
  if (output.trim() !== "") process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
}

// The records' validators are build output, written before tsc and vitest start so they see the
// schemas as they are now; ESLint and Prettier leave them out, and start meanwhile.
const runs = [];
for (const tool of tools) {
  if (tool.name === "tsc") await writeValidators();
  runs.push(runTool(tool));
}
const [vitest, ...checks] = [runs.at(-1), ...runs.slice(0, -1)];
const results = await Promise.all(checks.map((run) => run.then((result) => (print(result), result))));
results.push(await vitest);
print(results.at(-1));

const failed = results.filter((result) => result.code !== 0);
if (failed.length > 0) {
  process.stdout.write(`\nnpm test failed: ${failed.map((result) => `${result.name} (exit ${result.code})`).join(", ")}\n`);
  process.exitCode = interrupted ? 130 : failed[0].code;
}
