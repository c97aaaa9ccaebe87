import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A fresh folder inside the run's folder (test/globalSetup.ts), so the run's teardown removes
 * it with all the others: config homes, input files, HOMEs.
 */
export function runTempDir(prefix = "foodctl-test-"): string {
  const bin = process.env.FOODCTL_TEST_BIN;
  const parent = bin ? join(dirname(dirname(bin)), "tmp") : tmpdir();
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, prefix));
}
