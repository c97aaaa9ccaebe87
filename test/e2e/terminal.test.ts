/**
 * `intake show --image` and `intake edit` as the built CLI in a real terminal (`script` gives it
 * one): what only a process shows, the bundle loading terminal-image from node_modules and the
 * editor run from the cold file with the terminal inherited.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { IntakeRecord } from "../../src/sandbox/render.js";
import { baseEnv, cliBin, collect, runTempDir } from "../helpers/cli.js";
import { withSandbox } from "../helpers/sandbox.js";

const EDITOR_SCRIPT = resolve(import.meta.dirname, "../fixtures/editor/editor.mjs");

describe("in a terminal, the built CLI", () => {
  const sandbox = withSandbox({}, { perTest: false });

  function inTerminal(args: string, env: Record<string, string> = {}) {
    const command = `stty cols 80 rows 40; exec "${process.execPath}" "${cliBin()}" ${args}`;
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      env: baseEnv({
        FOODCTL_API_URL: sandbox.handle.url,
        FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
        TERM: "xterm-256color",
        // A person's terminal: under CI=true (as .ci/run sets it) terminal-image's colour support turns colour off.
        CI: undefined,
        TERM_PROGRAM: undefined,
        KITTY_WINDOW_ID: undefined,
        ...env,
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    return collect(child, { timeoutMs: 60_000 });
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
});
