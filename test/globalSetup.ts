/**
 * Builds the CLI once per test run into a private folder laid out like the package
 * (bin/foodctl.js beside dist/), so end-to-end tests run the real shim against current
 * sources, and parallel runs never rebuild each other's files.
 *
 * The folder is a world-readable one under the system's temp folder, not inside the checkout:
 * a test runs the CLI as another user (uid 65534), who may not reach a checkout under a 0700
 * folder. The tests' own temp folders live in it too (`runTempDir`), so teardown removes all.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export default function setup() {
  const root = resolve(import.meta.dirname, "..");
  const dir = mkdtempSync(join(tmpdir(), "foodctl-test-run-"));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "bin"), { recursive: true });
  mkdirSync(join(dir, "tmp"), { recursive: true });
  // The sandbox's server framework stays outside the bundle: `foodctl sandbox` finds it here.
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), join(dir, "dist"), "--metafile"], { cwd: root, stdio: "inherit" });
  // The bin is CommonJS by bin/package.json's say.
  for (const file of ["foodctl.js", "package.json"]) copyFileSync(join(root, "bin", file), join(dir, "bin", file));
  process.env.FOODCTL_TEST_BIN = join(dir, "bin", "foodctl.js");
  return () => rmSync(dir, { recursive: true, force: true });
}
