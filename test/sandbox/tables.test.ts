/** `intake list` and `intake show` as a person sees them, in-process against a sandbox, at 80 and 200 columns and with --wide. */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { withSandbox } from "../helpers/sandbox.js";

const sandbox = withSandbox();

async function asBob(argv: string[], columns: number) {
  const env = {
    FOODCTL_API_URL: sandbox.handle.url,
    FOODCTL_TOKEN: sandbox.handle.tokenFor("bob"),
    XDG_CONFIG_HOME: join(tmpdir(), "foodctl-no-config"),
    NO_COLOR: "1",
  };
  const buffers = bufferIO({ env, tty: true, columns });
  const code = await run(argv, { io: buffers.io, signal: new AbortController().signal });
  return { code, lines: buffers.stdout().trimEnd().split("\n"), stderr: buffers.stderr() };
}

/** The seeded intakes are from November 2026; the sandbox requires both dates. */
const NOVEMBER = ["--from", "2026-11-01", "--to", "2026-11-30"];

const widest = (lines: string[]) => Math.max(...lines.map((line) => [...line].length));

describe("tables fit the terminal", () => {
  it("intake list at 80 columns: one line per intake, no line over 80, long foods cut with …", async () => {
    const { code, lines, stderr } = await asBob(["intake", "list", ...NOVEMBER], 80);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(widest(lines)).toBeLessThanOrEqual(80);
    // The window heading, the table's head and rule, three intakes.
    expect(lines[0]).toBe("Intakes from 2026-11-01 00:00:00 to 2026-11-30 23:59:59 UTC (30 days)");
    expect(lines).toHaveLength(1 + 2 + 3);
    expect(lines.slice(3).every((line) => /^\d{4} {2}2026-11-\d\d \d\d:\d\d {2}/.test(line))).toBe(true);
    expect(lines.join("\n")).toContain("…");
  });

  it("intake list at 200 columns and with --wide at 80: every food whole", async () => {
    for (const [argv, columns] of [
      [["intake", "list", ...NOVEMBER], 200],
      [["intake", "list", "--wide", ...NOVEMBER], 80],
    ] as const) {
      const { code, lines } = await asBob([...argv], columns);
      expect(code).toBe(0);
      expect(lines.join("\n")).not.toContain("…");
      expect(lines.join("\n")).toContain("Salmon with rice and broccoli, Apple pie");
    }
  });

  it("intake show at 80 columns: no line over 80, totals wrap between parts instead of mid-word", async () => {
    const { code, lines } = await asBob(["intake", "show", "2002"], 80);
    expect(code).toBe(0);
    expect(widest(lines)).toBeLessThanOrEqual(80);
    expect(lines.find((line) => line.startsWith("display image"))).toMatch(/…$/);
    expect(lines.at(-1)).toMatch(/^ {8}\S/);
  });
});
