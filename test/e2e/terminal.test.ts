/**
 * `intake show --image` and `intake edit` as the built CLI in a real terminal (`script` gives it
 * one): what only a process shows, the bundle loading the image decoders from their cold files,
 * the time and memory a huge image costs, and the editor run from the cold file with the terminal inherited.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { IntakeRecord } from "../../src/sandbox/render.js";
import { segmentationIntake, signTestToken } from "../faults/fixtures.js";
import { blackPng, twoTone } from "../fixtures/images.js";
import { baseEnv, cliBin, collect, expectExit, runCli, runTempDir } from "../helpers/cli.js";
import { faults, startFaultServer } from "../helpers/faultServer.js";
import { withSandbox } from "../helpers/sandbox.js";

const EDITOR_SCRIPT = resolve(import.meta.dirname, "../fixtures/editor/editor.mjs");
const PEAK_MEMORY = resolve(import.meta.dirname, "../fixtures/peakMemory.mjs");

describe("in a terminal, the built CLI", () => {
  const sandbox = withSandbox({}, { perTest: false });

  function inTerminal(args: string, env: Record<string, string | undefined> = {}, rows = 40, nodeArgs = "") {
    return collect(terminalChild(args, env, rows, nodeArgs), { timeoutMs: 60_000 });
  }

  function terminalChild(args: string, env: Record<string, string | undefined> = {}, rows = 40, nodeArgs = "") {
    const command = `stty cols 80 rows ${rows}; exec "${process.execPath}" ${nodeArgs} "${cliBin()}" ${args}`;
    return spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      env: baseEnv({
        FOODCTL_API_URL: sandbox.handle.url,
        FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
        // A terminal without an image protocol or 24-bit colour, whatever the one running the tests has.
        TERM: "xterm-256color",
        CI: undefined,
        TERM_PROGRAM: undefined,
        KITTY_WINDOW_ID: undefined,
        LC_TERMINAL: undefined,
        KONSOLE_VERSION: undefined,
        COLORTERM: undefined,
        TMUX: undefined,
        STY: undefined,
        // The pager is the test's to choose: none of the developer's.
        PAGER: undefined,
        LESS: undefined,
        ...env,
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
  }

  it("draws intake 1002's picture in half-blocks below the summary (no image protocol)", async () => {
    const run = await inTerminal("intake show 1002 --image");
    expect(run.code, run.stdout).toBe(0);
    const lines = run.stdout.replace(/\r\n/g, "\n").split("\n");
    // The sandbox's 64×48 picture, 40 columns wide: 15 lines of half-blocks, coloured.
    const drawn = lines.filter((line) => line.includes("\u2584"));
    expect(drawn).toHaveLength(15);
    expect(drawn[0]).toMatch(/\u001b\[(38|48);(2|5);/);
    expect(run.stdout.indexOf("\u2584")).toBeGreaterThan(run.stdout.indexOf("Pancakes with maple syrup"));
  });

  it.each(["webp", "jpeg", "gif"] as const)(
    "draws a %s with its decoder loaded by the bundle (WebP: WebAssembly from node_modules)",
    async (format) => {
      const server = await startFaultServer();
      try {
        const url = `${server.url}/images/plate`;
        server.route("GET /v2/intake/1002", faults.intake({ ...segmentationIntake(1002), image_url: url }));
        server.route("GET /images/plate", { kind: "raw", status: 200, body: twoTone(format) });
        const run = await inTerminal("intake show 1002 --image", { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: await signTestToken() });
        expect(run.code, run.stdout).toBe(0);
        expect(run.stdout.split("\n").filter((line) => line.includes("\u2584"))).toHaveLength(10);
      } finally {
        await server.close();
      }
    },
  );

  it("answers a 10,000 × 10,000 PNG from its header, decoding nothing: under 2 s and 150 MB, the intake shown, exit 0", async () => {
    const server = await startFaultServer();
    try {
      const url = `${server.url}/images/huge.png`;
      server.route("GET /v2/intake/1002", faults.intake({ ...segmentationIntake(1002), image_url: url }));
      server.route("GET /images/huge.png", { kind: "raw", status: 200, body: blackPng(10_000, 10_000) });
      const peakFile = join(runTempDir("foodctl-peak-"), "peak.json");
      const env = { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: await signTestToken(), FOODCTL_TEST_PEAK_FILE: peakFile };
      const run = await inTerminal("intake show 1002 --image", env, 40, `--import "${PEAK_MEMORY}"`);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain("spaghetti bolognese");
      expect(run.stdout).toContain(
        `the image is not drawn: it is 10000 × 10000 pixels, more than foodctl draws (at most 4096 × 4096, 16 megapixels); it is at ${url}`,
      );
      // Measured inside the CLI's own process: its peak resident memory, and its age at exit (start-up included).
      const peak = JSON.parse(readFileSync(peakFile, "utf8")) as { peakRssBytes: number; uptimeMs: number };
      expect(peak.peakRssBytes).toBeLessThan(150 * 1024 * 1024);
      expect(peak.uptimeMs).toBeLessThan(2000);
    } finally {
      await server.close();
    }
  });

  it("intake edit runs $EDITOR on the terminal and sends what it changed", async () => {
    const home = runTempDir("foodctl-terminal-edit-");
    const steps = [{ replace: ["^2( +)150", "2$1140"] }];
    const run = await inTerminal("intake edit 1002", {
      EDITOR: `"${process.execPath}" "${EDITOR_SCRIPT}"`,
      EDITOR_STEPS: JSON.stringify(steps),
      EDITOR_LOG: `${home}/editor.log`,
      XDG_CONFIG_HOME: home,
      XDG_STATE_HOME: home,
      NO_COLOR: "1",
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/Fresh fruit salad +150 → 140/);
    const intake = sandbox.handle.intake(1002) as IntakeRecord;
    expect(intake.recipe_per_item?.find((item) => item.food_item_position === 2)?.serving_size).toBe(140);
  });

  describe("the pager (docs/cli.md, the pager)", () => {
    const NOVEMBER = "intake list --from 2026-11-01 --to 2026-11-30";
    /** A pager that keeps what it was given in a file, and shows nothing. */
    function recordingPager(): { file: string; env: Record<string, string> } {
      const file = join(runTempDir("foodctl-pager-"), "paged.txt");
      return { file, env: { FOODCTL_PAGER: `cat > '${file}'`, NO_COLOR: "1" } };
    }

    it.each([
      ["intake list", NOVEMBER, "Margherita pizza"],
      ["intake show", "intake show 1002 --nutrients all", "Cholesterol"],
      ["help", "help intake apply", "Examples:"],
    ])("takes %s's output when it is longer than the screen", async (_name, args, expected) => {
      const pager = recordingPager();
      const run = await inTerminal(args, pager.env, 8);
      expectExit(run, 0);
      const paged = readFileSync(pager.file, "utf8");
      expect(paged).toContain(expected);
      expect(paged.split("\n").length).toBeGreaterThan(8);
      // All of it went to the pager: nothing was written past it on the terminal.
      expect(run.stdout.trim()).toBe("");
    });

    it("takes the journal's rows when they are longer than the screen", async () => {
      const home = runTempDir("foodctl-pager-journal-");
      const env = { FOODCTL_API_URL: sandbox.handle.url, FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"), XDG_STATE_HOME: home };
      for (const grams of ["325", "330", "340"]) expectExit(await runCli(["intake", "set-quantity", "1001", grams], { env }), 0);
      const pager = recordingPager();
      const run = await inTerminal("journal", { ...pager.env, XDG_STATE_HOME: home }, 4);
      expectExit(run, 0);
      expect(readFileSync(pager.file, "utf8").match(/set-quantity/g)).toHaveLength(3);
      expect(run.stdout.trim()).toBe("");
    });

    it("leaves output that fits the screen on the terminal", async () => {
      const pager = recordingPager();
      const run = await inTerminal("intake show 1001", pager.env, 40);
      expectExit(run, 0);
      expect(run.stdout).toContain("Margherita pizza");
      expect(existsSync(pager.file)).toBe(false);
    });

    it("is never used for piped output, --json, --no-pager or an empty FOODCTL_PAGER", async () => {
      const pager = recordingPager();
      const env = { FOODCTL_API_URL: sandbox.handle.url, FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"), ...pager.env };
      const piped = await runCli(NOVEMBER.split(" "), { env });
      expectExit(piped, 0);
      expect(piped.stdout).toContain("Margherita pizza");
      const json = await inTerminal(`${NOVEMBER} --json`, pager.env, 8);
      expectExit(json, 0);
      expect(json.stdout).toContain('"intakes_list"');
      const noPager = await inTerminal(`${NOVEMBER} --no-pager`, pager.env, 8);
      expectExit(noPager, 0);
      expect(noPager.stdout).toContain("Margherita pizza");
      const empty = await inTerminal(NOVEMBER, { FOODCTL_PAGER: "", PAGER: `cat > '${pager.file}'` }, 8);
      expectExit(empty, 0);
      expect(empty.stdout).toContain("Margherita pizza");
      expect(existsSync(pager.file)).toBe(false);
    });

    it("runs PAGER when FOODCTL_PAGER is unset, and says so when it cannot be run, printing without it", async () => {
      const pager = recordingPager();
      const run = await inTerminal(NOVEMBER, { PAGER: pager.env.FOODCTL_PAGER, NO_COLOR: "1" }, 8);
      expectExit(run, 0);
      expect(readFileSync(pager.file, "utf8")).toContain("Margherita pizza");
      const missing = await inTerminal(NOVEMBER, { FOODCTL_PAGER: "no-such-pager-here", NO_COLOR: "1" }, 8);
      expectExit(missing, 0);
      expect(missing.stdout).toMatch(/warning: the pager "no-such-pager-here" could not be run \(exit 127\); printing without it/);
      expect(missing.stdout).toContain("Margherita pizza");
    });

    it("ends with exit 0 and no error when less is quit before the end", async () => {
      const child = terminalChild("help intake apply", { NO_COLOR: "1" }, 6);
      let screen = "";
      let quit = false;
      // less -FRX shows the first screen and waits at its prompt: quit it there.
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        screen += chunk;
        if (!quit && screen.includes("Usage: foodctl intake apply")) {
          quit = true;
          setTimeout(() => child.stdin!.write("q"), 300);
        }
      });
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
        child.on("close", (exitCode, exitSignal) => done([exitCode, exitSignal])),
      );
      clearTimeout(killer);
      expect({ code, signal }, screen).toEqual({ code: 0, signal: null });
      expect(screen).toContain("Usage: foodctl intake apply");
      // The help's last line was never shown, and nothing complained.
      expect(screen).not.toContain("see: man foodctl-intake-apply");
      expect(screen).not.toMatch(/error|EPIPE/i);
    });
  });
});
