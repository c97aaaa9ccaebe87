// What the dev scripts share (scripts/demo.mjs, bench/startup.mjs, bench/apply.mjs): the
// product's PNG encoder, a private build of the CLI, a clean child environment and a sandbox to
// run against. Plain Node plus esbuild (a dev dependency): these scripts run before (or without)
// a build, so the one TypeScript file they need, src/png.ts, is compiled on the fly.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** How long a sandbox may take to print its first line. */
const SANDBOX_START_MS = 10_000;

/**
 * Prints `<prefix>: <message>` to stderr and exits with 1.
 * @param {string} message
 * @param {string} [prefix]
 * @returns {never}
 */
export function fail(message, prefix = "bench") {
  process.stderr.write(`${prefix}: ${message}\n`);
  process.exit(1);
}

/**
 * One line of progress on stderr, so stdout holds only the result.
 * @param {string} line
 */
export function progress(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * A positive whole number from the environment variable `name`; `fallback` when it is unset
 * or empty. Anything else ends the script with a message.
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function positiveInt(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  if (!/^[1-9][0-9]*$/.test(text)) fail(`${name} must be a positive whole number, got "${text}"`);
  return Number(text);
}

/**
 * The product's PNG encoder, `encodePng(width, height, pixel)` of src/png.ts: that file is
 * compiled here with esbuild's transform (it imports only node:zlib), so the tree has one encoder.
 * @returns {Promise<(width: number, height: number, pixel: (x: number, y: number) => ArrayLike<number>) => Buffer>}
 */
export async function loadPngEncoder() {
  const { transform } = await import("esbuild");
  const source = readFileSync(new URL("../src/png.ts", import.meta.url), "utf8");
  const { code } = await transform(source, { loader: "ts", format: "esm", target: "node20" });
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return module.encodePng;
}

/**
 * Builds the current sources into `<workDir>/dist` with scripts/build.mjs and copies
 * bin/foodctl.js beside it, so a concurrent `npm run build` cannot disturb the copy.
 * `workDir` is emptied first. Ends the script when the build fails.
 * @param {string} root the repository
 * @param {string} workDir
 * @returns {string} the path of the private bin/foodctl.js
 */
export function buildPrivateCli(root, workDir) {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(join(workDir, "bin"), { recursive: true });
  const built = spawnSync(process.execPath, [join(root, "scripts", "build.mjs"), join(workDir, "dist")], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) fail("build failed");
  const bin = join(workDir, "bin", "foodctl.js");
  // The bin is CommonJS by bin/package.json's say.
  for (const file of ["foodctl.js", "package.json"]) copyFileSync(join(root, "bin", file), join(workDir, "bin", file));
  return bin;
}

/**
 * This process's environment without what would change how a child foodctl behaves or how fast
 * it starts: NODE_EXTRA_CA_CERTS, NODE_OPTIONS, FOODCTL_* and the proxy variables; then `extra`.
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string | undefined>}
 */
export function cleanEnv(extra = {}) {
  /** @type {Record<string, string | undefined>} */
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name === "NODE_EXTRA_CA_CERTS" || name === "NODE_OPTIONS" || name.startsWith("FOODCTL_") || /^(https?|all|no)_proxy$/i.test(name))
      delete env[name];
  }
  const clean = { ...env, ...extra };
  // A private config gets a private journal beside it: a demo's or benchmark's changes never land in
  // the user's ~/.local/state/foodctl journal (where `foodctl journal` and `undo --last` would show them).
  if (extra.XDG_CONFIG_HOME && !("XDG_STATE_HOME" in extra)) clean.XDG_STATE_HOME = extra.XDG_CONFIG_HOME;
  return clean;
}

/**
 * @typedef {{ id: number, name: string, role: string, plan: string, token: string }} SandboxUser
 * @typedef {{ url: string, users: SandboxUser[], tokenFor: (name: string) => string, stop: () => Promise<void> }} RunningSandbox
 */

/**
 * Starts `node <bin> sandbox --port 0 --json` and reads its first stdout line,
 * `{"url", "users": [...]}`; `tokenFor(name)` gives a seeded user's token. Rejects when the process exits, prints something that is not JSON,
 * or prints nothing within 10 s. The sandbox is killed when this process exits.
 *
 * Its stderr (the request log) goes to `options.log` when given: a caller that blocks its own
 * event loop (spawnSync) needs that, or the full pipe would stall the sandbox. Without it,
 * stderr is read here and its end is shown when the sandbox fails to start.
 * @param {string} bin
 * @param {Record<string, string | undefined>} env
 * `options.args` are more options of `sandbox` (`["--latency", "40"]`).
 * @param {{ log?: string, cwd?: string, args?: string[] }} [options]
 * @returns {Promise<RunningSandbox>}
 */
export function startSandbox(bin, env, options = {}) {
  const stderrTo = options.log === undefined ? "pipe" : openSync(options.log, "w");
  const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", "--json", ...(options.args ?? [])], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", stderrTo],
  });
  const killOnExit = () => child.kill();
  process.once("exit", killOnExit);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (text) => (stderr = (stderr + text).slice(-4000)));
  const logTail = () => (options.log === undefined ? stderr : readFileSync(options.log, "utf8").slice(-4000)).trim();

  /** @returns {Promise<void>} */
  const stop = () =>
    new Promise((resolveStop) => {
      process.removeListener("exit", killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
      child.once("exit", () => resolveStop());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });

  return new Promise((resolveStart, reject) => {
    let settled = false;
    /** @param {RunningSandbox | Error} outcome */
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!(outcome instanceof Error)) return resolveStart(outcome);
      void stop();
      reject(outcome);
    };
    const timer = setTimeout(() => settle(new Error(`the sandbox printed nothing within ${SANDBOX_START_MS / 1000} s`)), SANDBOX_START_MS);
    // "close", not "exit": it comes after stdout has ended, so a first line already printed is read first.
    child.once("close", (code, signal) => {
      const tail = settled ? "" : logTail();
      settle(new Error(`the sandbox exited (${code ?? signal}) before printing its URL${tail ? `:\n${tail}` : ""}`));
    });
    child.once("error", (error) => settle(new Error(`the sandbox could not be started: ${error.message}`)));
    const lines = createInterface({ input: /** @type {import("node:stream").Readable} */ (child.stdout) });
    lines.once("line", (line) => {
      /** @type {{ url?: unknown, users?: unknown }} */
      let first;
      try {
        first = JSON.parse(line);
      } catch {
        // The line itself is not shown: it may hold tokens.
        return settle(new Error("the sandbox's first line is not JSON"));
      }
      if (typeof first.url !== "string" || !Array.isArray(first.users))
        return settle(new Error("the sandbox's first line has no url or no users"));
      // `lines` goes on reading (and dropping) whatever else it prints, so its stdout never fills up.
      const users = /** @type {SandboxUser[]} */ (first.users);
      const tokenFor = (/** @type {string} */ name) => {
        const user = users.find((candidate) => candidate.name === name);
        if (!user?.token) throw new Error(`the sandbox has no user ${name}`);
        return user.token;
      };
      settle({ url: first.url, users, tokenFor, stop });
    });
  });
}

/**
 * Runs a foodctl command line (`node --predictable <bin> ...args`), under valgrind's callgrind when
 * `count`; returns the instructions it counted (0 when not counting). A failed run ends the benchmark.
 */
export function countInstructions(bin, args, env, count, label) {
  const argv = [process.execPath, "--predictable", bin, ...args];
  const full = count ? ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", ...argv] : argv;
  const result = spawnSync(full[0], full.slice(1), { env, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  if (result.status !== 0) fail(`${label} exited with ${result.status ?? result.signal}:\n${result.stderr}`);
  return count ? Number(/Collected : (\d+)/.exec(result.stderr)?.[1]) : 0;
}
