/**
 * Documentation examples are tests: every shell block of README.md and docs/*.md runs, as
 * written, with `bash -euo pipefail`, in a temp HOME and working folder, against a sandbox of its
 * own, bounded in time. The blocks of one `##` section run in order in one shell (a later block
 * uses what an earlier one set up), each section in its own, with a fresh sandbox: sections run
 * at once and change the same intakes. A block marked `<!-- not-run: reason -->` (a real API
 * host, an interactive prompt, ...) is left out; a marker must say why.
 *
 * `foodctl` and `npx foodctl` run the test build. `foodctl sandbox` without `--port` listens on
 * a free port instead of 8787, so parallel runs on one machine cannot collide.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";
import { baseEnv, cliBin, runTempDir } from "../helpers/cli.js";
import { DOC_FILES, readDoc, SHELL_LANGUAGES, type Block } from "../helpers/readme.js";

/** A section that takes longer than this is stopped and fails (an `until` loop that never ends); sections share two busy cores. */
const SECTION_LIMIT_MS = 60_000;

const docs = DOC_FILES.map((file) => readDoc(file));
const blocks = docs.flatMap((doc) => doc.blocks);
const shellBlocks = blocks.filter((block) => SHELL_LANGUAGES.has(block.lang));
const runnable = shellBlocks.filter((block) => !block.marker);
const sections = [...new Set(runnable.map((block) => `${block.file}: ${block.section}`))].map((name) => ({
  name,
  blocks: runnable.filter((block) => `${block.file}: ${block.section}` === name),
}));

describe("not-run markers", () => {
  it("every marker gives a reason", () => {
    const bare = blocks
      .filter((block) => block.marker && block.marker.reason === "")
      .map((block) => `${block.file}:${block.marker!.line} ${block.marker!.text}`);
    expect(bare, "write `<!-- not-run: why this block cannot run in the suite -->`").toEqual([]);
  });

  it("every marker stands just before a shell block", () => {
    const misplaced = blocks
      .filter((block) => block.marker && !SHELL_LANGUAGES.has(block.lang))
      .map((block) => `${block.file}:${block.marker!.line}`);
    const stray = docs.flatMap((doc) => doc.strayMarkers.map((line) => `${doc.file}:${line}`));
    expect([...stray, ...misplaced]).toEqual([]);
  });

  it("most shell blocks run, in the README and in every guide that has any", () => {
    expect(runnable.length).toBeGreaterThan(shellBlocks.length / 2);
    for (const file of ["README.md", "docs/cli.md", "docs/batch.md", "docs/journal.md", "docs/sandbox.md", "docs/smoke.md"])
      expect(runnable.filter((block) => block.file === file).length, file).toBeGreaterThan(0);
  });
});

/**
 * The README's commands run twice: with the sandbox's JWT, and as against the public service (an
 * opaque token, a base URL ending in /v2). The guides' run with the JWT: half of their sections
 * start sandboxes of their own, and the client's handling of either is the README's to show.
 */
const VARIANTS = [
  { name: "a JWT", token: (handle: SandboxHandle) => handle.tokenFor("alice"), apiUrl: (handle: SandboxHandle) => handle.url, kind: "" },
  {
    name: "an opaque token and a base URL ending in /v2",
    token: (handle: SandboxHandle) => handle.opaqueTokenFor("alice"),
    apiUrl: (handle: SandboxHandle) => `${handle.url}/v2`,
    kind: "opaque",
  },
] as const;
type Variant = (typeof VARIANTS)[number];

describe.concurrent("documentation shell blocks", () => {
  const cases = VARIANTS.flatMap((variant) =>
    sections
      .filter((entry) => variant === VARIANTS[0] || entry.blocks[0]!.file === "README.md")
      .map((entry) => [entry.name, variant.name, entry.blocks, variant] as const),
  );
  it.each(cases)(
    "%s runs as written, with %s",
    async (_section, _name, blocks, variant) => {
      const sandbox = await startSandbox({ port: 0 });
      let result: SectionResult;
      try {
        result = await runSection(blocks, sandbox, variant);
      } finally {
        await sandbox.close();
      }
      const file = blocks[0]!.file;
      const where = result.block
        ? `${file}:${result.block} (${blocks.find((block) => block.line === result.block)?.heading})`
        : "before the first block";
      expect(result.timedOut, `stopped after ${SECTION_LIMIT_MS} ms at ${where}\n${result.output}`).toBe(false);
      expect(result.code, `exit ${result.code} at ${where}\n${result.output}`).toBe(0);
      expect(result.leftRunning, `a block left a process running (${where})\n${result.output}`).toBe(false);
    },
    SECTION_LIMIT_MS + 30_000,
  );
});

interface SectionResult {
  code: number | null;
  timedOut: boolean;
  leftRunning: boolean;
  /** The line (in its file) of the block that was running last. */
  block: number | undefined;
  output: string;
}

/** Shims that make `foodctl` and `npx foodctl` the test build, as an installed package would. */
function writeShims(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const foodctl = [
    "#!/usr/bin/env bash",
    "# The test build. A sandbox without --port takes a free one: parallel runs cannot share 8787.",
    'if [ "${1-}" = sandbox ] && { [ $# -eq 1 ] || [ "${2#-}" != "${2-}" ]; } && ! printf "%s\\n" "$@" | grep -q -- "^--port"; then set -- "$@" --port 0; fi',
    "# The opaque-token run: a sandbox's exported token is its opaque one too.",
    'if [ "${1-}" = sandbox ] && [ -n "${DOCS_TOKEN_KIND-}" ] && printf "%s\\n" "$@" | grep -q -- "^--as" && ! printf "%s\\n" "$@" | grep -q -- "^--token-kind"; then set -- "$@" --token-kind "$DOCS_TOKEN_KIND"; fi',
    `exec '${process.execPath}' '${cliBin()}' "$@"`,
    "",
  ].join("\n");
  const npx = [
    "#!/usr/bin/env bash",
    "# `npx foodctl` as in a checkout; nothing is fetched.",
    'if [ "${1-}" = foodctl ]; then shift; exec foodctl "$@"; fi',
    'echo "npx $*: not available to documentation blocks" >&2',
    "exit 127",
    "",
  ].join("\n");
  // An unmarked block that installs or runs npm scripts must fail, not reach the registry or start this suite.
  const npm = [
    "#!/usr/bin/env bash",
    'echo "npm $*: not available to documentation blocks (mark the block not-run)" >&2',
    "exit 127",
    "",
  ].join("\n");
  for (const [name, text] of [
    ["foodctl", foodctl],
    ["npx", npx],
    ["npm", npm],
  ] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function runSection(blocks: readonly Block[], handle: SandboxHandle, variant: Variant): Promise<SectionResult> {
  const dir = runTempDir("foodctl-readme-");
  const home = join(dir, "home");
  const work = join(dir, "work");
  mkdirSync(home);
  mkdirSync(work);
  const bin = writeShims(dir);
  const progress = join(dir, "block");
  const script = [
    "set -euo pipefail",
    ...blocks.flatMap((block, index) => {
      const file = join(dir, `block-${index}.sh`);
      writeFileSync(file, block.code);
      return [`echo ${block.line} > '${progress}'`, `source '${file}'`];
    }),
    "",
  ].join("\n");
  writeFileSync(join(dir, "section.sh"), script);
  const env = baseEnv({
    // A user with only a HOME: config, journal and sandbox records under it, as the README says.
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    XDG_STATE_HOME: undefined,
    XDG_DATA_HOME: undefined,
    XDG_RUNTIME_DIR: undefined,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    FOODCTL_API_URL: variant.apiUrl(handle),
    FOODCTL_TOKEN: variant.token(handle),
    DOCS_TOKEN_KIND: variant.kind || undefined,
  });
  // Its own process group: whatever a block starts in the background is found and stopped.
  const child = spawn("bash", [join(dir, "section.sh")], { cwd: work, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  let timedOut = false;
  const kill = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // the group is gone already
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, SECTION_LIMIT_MS);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", async (code) => {
      clearTimeout(timer);
      // A process stopped by the last block (`kill %1`) may take a moment to finish its exit.
      const leftRunning = !timedOut && (await stillRunning(child.pid!, dir, 3000));
      kill();
      for (const pid of processesIn(dir)) killQuietly(pid);
      let block: number | undefined;
      try {
        block = Number(readFileSync(progress, "utf8").trim());
      } catch {
        block = undefined;
      }
      resolve({ code, timedOut, leftRunning, block, output: output.slice(-4000) });
    });
  });
}

/**
 * True when a process the section started is still there after `graceMs`: one of its process
 * group, or one that left the group (a sandbox started with `--detach`) but still works in the
 * section's folder.
 */
async function stillRunning(group: number, dir: string, graceMs: number): Promise<boolean> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    if (!groupAlive(group) && processesIn(dir).length === 0) return false;
    if (Date.now() > deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose working folder is inside `dir` (Linux /proc; none where there is no /proc). */
function processesIn(dir: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}
