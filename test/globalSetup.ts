/**
 * Builds the CLI once per test run into a private folder laid out like the package
 * (bin/foodctl.js beside dist/), so end-to-end tests run the real shim against current
 * sources, and parallel runs never rebuild each other's files. A run whose sources, build
 * script and locked dependencies are those of the run before copies that run's build instead.
 *
 * The folder is a world-readable one under the system's temp folder, not inside the checkout:
 * a test runs the CLI as another user (uid 65534), who may not reach a checkout under a 0700
 * folder. The tests' own temp folders live in it too (`runTempDir`), so teardown removes all.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { BUILD_FAILED, BUILD_READY } from "./helpers/buildState.js";

/** Every input of the build: the sources, the build script, tsconfig.json (esbuild reads it), the package and its locked dependencies. */
function buildKey(root: string, dist: string): string {
  // The source maps point from the build folder to the sources: builds are kept for one folder depth.
  const hash = createHash("sha256").update(`${relative(dist, root)}\0`);
  const files = ["scripts/build.mjs", "tsconfig.json", "package.json", "package-lock.json"].map((file) => join(root, file));
  for (const entry of readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  }
  for (const file of files.sort())
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Keeps a finished build for the next run, in place of the one kept before. */
function keep(builds: string, kept: string, dist: string): void {
  // Older builds go; one another run is still copying (its name ends in its PID) stays.
  mkdirSync(builds, { recursive: true });
  for (const old of readdirSync(builds)) if (/^[0-9a-f]{16}$/.test(old)) rmSync(join(builds, old), { recursive: true, force: true });
  const copy = `${kept}.${process.pid}`;
  cpSync(dist, copy, { recursive: true });
  try {
    renameSync(copy, kept);
  } catch {
    // Another run kept the same build first.
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The build of these sources: the one of the run before when nothing it reads changed (kept under
 * node_modules/.cache/foodctl-test/build/<key>, one at a time), else a fresh one, then kept.
 * Run folders sit side by side, so a kept build's source maps still lead to the sources.
 *
 * A fresh build runs while the tests start: in-process tests need none, and `cliBin()` waits
 * for BUILD_READY (or throws with the build's output from BUILD_FAILED). Resolves when it ends.
 */
function buildInto(root: string, dir: string): Promise<void> {
  const dist = join(dir, "dist");
  const builds = join(root, "node_modules", ".cache", "foodctl-test", "build");
  const kept = join(builds, buildKey(root, dist));
  if (existsSync(kept)) {
    cpSync(kept, dist, { recursive: true });
    writeFileSync(join(dir, BUILD_READY), "");
    return Promise.resolve();
  }
  const child = spawn(process.execPath, [join(root, "scripts", "build.mjs"), dist, "--metafile"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      if (code === 0) {
        keep(builds, kept, dist);
        writeFileSync(join(dir, BUILD_READY), "");
      } else {
        const why = `${Buffer.concat(output).toString("utf8")}\nscripts/build.mjs ended with ${signal ?? `exit ${code}`}`;
        writeFileSync(join(dir, BUILD_FAILED), why);
        process.stderr.write(`${why}\n`);
      }
      resolve();
    });
  });
}

export default function setup() {
  const root = resolve(import.meta.dirname, "..");
  const dir = mkdtempSync(join(tmpdir(), "foodctl-test-run-"));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "bin"), { recursive: true });
  mkdirSync(join(dir, "tmp"), { recursive: true });
  // The sandbox's server framework stays outside the bundle: `foodctl sandbox` finds it here.
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  // The bin is CommonJS by bin/package.json's say.
  for (const file of ["foodctl.js", "package.json"]) copyFileSync(join(root, "bin", file), join(dir, "bin", file));
  process.env.FOODCTL_TEST_BIN = join(dir, "bin", "foodctl.js");
  const built = buildInto(root, dir);
  return async () => {
    await built;
    rmSync(dir, { recursive: true, force: true });
  };
}
