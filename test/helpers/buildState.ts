/**
 * The test build's state, as files in the run's folder (test/globalSetup.ts writes them): the
 * build runs while the first tests do, and `cliBin()` waits for it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const BUILD_READY = "build-ready";
export const BUILD_FAILED = "build-failed";

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Blocks until the build in `runDir` is done (it takes seconds, not minutes); throws its output when it failed. */
export function waitForBuild(runDir: string, limitMs = 120_000): void {
  const deadline = Date.now() + limitMs;
  while (!existsSync(join(runDir, BUILD_READY))) {
    if (existsSync(join(runDir, BUILD_FAILED)))
      throw new Error(`the test build failed:\n${readFileSync(join(runDir, BUILD_FAILED), "utf8")}`);
    if (Date.now() > deadline) throw new Error(`the test build did not finish within ${limitMs / 1000} s`);
    Atomics.wait(pause, 0, 0, 20);
  }
}
