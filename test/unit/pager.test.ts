/** The pager's choice and its ending (docs/cli.md, the pager); a real terminal's run is in test/e2e/terminal.test.ts. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { longerThanScreen } from "../../src/io.js";
import { run } from "../../src/main.js";
import { pagerCommand, pageText } from "../../src/output/pager.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { runTempDir } from "../helpers/cli.js";

describe("the pager", () => {
  it("is FOODCTL_PAGER, else PAGER, else less -FRX; an empty one or cat is none", () => {
    expect(pagerCommand({})).toEqual({ file: "less", args: ["-FRX"] });
    expect(pagerCommand({ PAGER: "more" })).toEqual({ shell: "more" });
    expect(pagerCommand({ FOODCTL_PAGER: "bat -p", PAGER: "more" })).toEqual({ shell: "bat -p" });
    expect(pagerCommand({ FOODCTL_PAGER: "", PAGER: "more" })).toBeNull();
    expect(pagerCommand({ PAGER: " " })).toBeNull();
    expect(pagerCommand({ PAGER: "cat" })).toBeNull();
  });

  it("takes text longer than the screen, its lines wrapped at the width and colour codes not counted", () => {
    const terminal = { write: () => true, isTTY: true, columns: 10, rows: 4 };
    expect(longerThanScreen("a\nb\nc\n", terminal)).toBe(false);
    expect(longerThanScreen("a\nb\nc\nd\n", terminal)).toBe(true);
    // 25 characters on 10 columns take 3 lines.
    expect(longerThanScreen(`${"x".repeat(25)}\nb\n`, terminal)).toBe(true);
    expect(longerThanScreen(`\u001b[1m${"x".repeat(10)}\u001b[22m\nb\nc\n`, terminal)).toBe(false);
    // No height known (a pipe, a file, a test's buffer): never.
    expect(longerThanScreen("a\n".repeat(100), { write: () => true, isTTY: true, columns: 80 })).toBe(false);
    expect(longerThanScreen("a\n".repeat(100), { write: () => true, isTTY: false, rows: 4 })).toBe(false);
  });

  it("ends quietly when the pager quits before reading everything (its pipe closed)", async () => {
    const { io, stderr } = bufferIO({ env: { FOODCTL_PAGER: "exit 0" } });
    // More than a pipe holds: the write fails with EPIPE once the pager has gone.
    await expect(pageText(io, "row\n".repeat(500_000))).resolves.toBe(true);
    expect(stderr()).toBe("");
  });

  it("hands the text back when the pager cannot be run, with one warning", async () => {
    const { io, stderr } = bufferIO({ env: { FOODCTL_PAGER: "no-such-pager-here" } });
    await expect(pageText(io, "row\n")).resolves.toBe(false);
    expect(stderr()).toBe('warning: the pager "no-such-pager-here" could not be run (exit 127); printing without it\n');
  });

  it("hands the text back when less is not installed", async () => {
    const { io, stderr } = bufferIO({ env: { PATH: "/nonexistent" } });
    await expect(pageText(io, "row\n")).resolves.toBe(false);
    expect(stderr()).toBe("");
  });
});

describe("help through the pager", () => {
  /** foodctl in this process on a terminal `rows` high, its pager writing what it is given to a file. */
  async function onTerminal(args: string[], rows: number) {
    const paged = join(runTempDir("foodctl-pager-"), "paged.txt");
    const { io, stdout } = bufferIO({ env: { FOODCTL_PAGER: `cat > '${paged}'` }, tty: true, columns: 80 });
    (io.stdout as { rows?: number }).rows = rows;
    const code = await run(args, { io, signal: new AbortController().signal });
    return { code, stdout: stdout(), paged: existsSync(paged) ? readFileSync(paged, "utf8") : null };
  }

  it("pages `foodctl --help` as it pages `foodctl help`, the same text, when it is longer than the screen", async () => {
    const flag = await onTerminal(["--help"], 40);
    const command = await onTerminal(["help"], 40);
    expect([flag.code, command.code]).toEqual([0, 0]);
    expect([flag.stdout, command.stdout]).toEqual(["", ""]);
    expect(flag.paged).toMatch(/^Usage: foodctl /);
    expect(flag.paged).toBe(command.paged);
  });

  it("pages a command's --help too, and --no-pager or a screen it fits on prints it as it is", async () => {
    const apply = await onTerminal(["intake", "apply", "--help"], 40);
    expect(apply.stdout).toBe("");
    expect(apply.paged).toMatch(/^Usage: foodctl intake apply /);
    const unpaged = await onTerminal(["intake", "apply", "--help", "--no-pager"], 40);
    expect([unpaged.stdout, unpaged.paged]).toEqual([apply.paged, null]);
    const tall = await onTerminal(["intake", "apply", "--help"], 500);
    expect([tall.stdout, tall.paged]).toEqual([apply.paged, null]);
  });
});
