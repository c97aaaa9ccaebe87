/**
 * Builds the CLI once per test run into a private folder laid out like the package
 * (bin/foodctl.js beside dist/), so end-to-end tests run the real shim against current
 * sources, and parallel runs never rebuild each other's files.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

export default function setup() {
  const root = resolve(import.meta.dirname, "..");
  const dir = join(root, ".test-build", `run-${process.pid}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), join(dir, "dist")], { cwd: root, stdio: "inherit" });
  copyFileSync(join(root, "bin", "foodctl.js"), join(dir, "bin", "foodctl.js"));
  process.env.FOODCTL_TEST_BIN = join(dir, "bin", "foodctl.js");
  return () => rmSync(dir, { recursive: true, force: true });
}
