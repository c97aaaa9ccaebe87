// The build of another commit, for start-up runs side by side with the current sources
// (BENCH_BASE=<commit> node bench/startup.mjs). The commit is checked out once, detached, in
// .bench/base-<sha> (a git worktree kept for the next run); its node_modules is a link to this
// checkout's when its package-lock.json is this checkout's, else its own `npm ci`. Each run then
// builds it with its own scripts/build.mjs, as the current sources are built.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPrivateCli, fail, progress } from "../scripts/lib.mjs";

/**
 * Runs `command` in `cwd`; its output is shown only when it fails, which ends the script.
 * @param {string} cwd
 * @param {string[]} command
 * @returns {string} its stdout
 */
function run(cwd, command) {
  const result = spawnSync(command[0], command.slice(1), { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    fail(`\`${command.join(" ")}\` failed (${result.error?.message ?? result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * The base commit built into its worktree's .bench/startup: its full and short commit id and
 * the path of its bin. Ends the script when `commit` names no commit or the base cannot be built.
 * @param {string} root this checkout
 * @param {string} commit what BENCH_BASE says (a commit id, a branch, a tag)
 * @returns {{ sha: string, short: string, bin: string }}
 */
export function prepareBase(root, commit) {
  const found = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${commit}^{commit}`], { cwd: root, encoding: "utf8" });
  if (found.status !== 0) fail(`BENCH_BASE=${commit} names no commit of this repository`);
  const sha = found.stdout.trim();
  const short = sha.slice(0, 7);
  const dir = join(root, ".bench", `base-${sha}`);
  const ready = join(dir, ".bench-ready");
  if (!existsSync(ready)) {
    progress(`checking out ${short} into .bench/base-${sha} ...`);
    // What an interrupted run left behind, in the folder or in git's list of worktrees.
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: root, stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
    run(root, ["git", "worktree", "prune"]);
    run(root, ["git", "worktree", "add", "--detach", dir, sha]);
    writeFileSync(ready, "");
  }
  // Decided on every run: this checkout's locked dependencies may have changed since.
  const sameLock = readFileSync(join(dir, "package-lock.json")).equals(readFileSync(join(root, "package-lock.json")));
  const modules = join(dir, "node_modules");
  const installed = readFileSync(ready, "utf8");
  if (installed !== (sameLock ? "linked" : "installed")) {
    rmSync(modules, { recursive: true, force: true });
    if (sameLock) symlinkSync(join(root, "node_modules"), modules, "dir");
    else {
      progress(`installing the dependencies of ${short} (its package-lock.json differs) ...`);
      run(dir, ["npm", "ci", "--no-audit", "--no-fund"]);
    }
    writeFileSync(ready, sameLock ? "linked" : "installed");
  }
  progress(`building ${short} into .bench/base-${sha}/.bench/startup ...`);
  return { sha, short, bin: buildPrivateCli(dir, join(dir, ".bench", "startup")) };
}
