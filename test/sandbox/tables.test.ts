/** `intake list` and `intake show` as a person sees them, in-process against a sandbox, at 80 and 200 columns and with --wide. */
import { describe, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { withSandbox } from "../helpers/sandbox.js";

const sandbox = withSandbox();

async function asUser(user: string, argv: string[], columns: number) {
  const env = {
    FOODCTL_API_URL: sandbox.handle.url,
    FOODCTL_TOKEN: sandbox.handle.tokenFor(user),
    NO_COLOR: "1",
  };
  const buffers = bufferIO({ env, tty: true, columns });
  const code = await run(argv, { io: buffers.io, signal: new AbortController().signal });
  return { code, lines: buffers.stdout().trimEnd().split("\n"), stderr: buffers.stderr() };
}

const asBob = (argv: string[], columns: number) => asUser("bob", argv, columns);

/** The seeded intakes are from November 2026; the sandbox requires both dates. */
const NOVEMBER = ["--from", "2026-11-01", "--to", "2026-11-30"];

const widest = (lines: string[]) => Math.max(...lines.map((line) => [...line].length));

describe("tables fit the terminal", () => {
  it.each([
    ["alice", [1001, 1002, 1003, 1004, 1005]],
    ["bob", [2001, 2002, 2003]],
    ["carol", [3001, 3002]],
    ["erin", [4001, 4002, 4003]],
  ] as const)("intake list at 80 columns: every food of %s's intakes whole, no line over 80", async (user, ids) => {
    const { code, lines, stderr } = await asUser(user, ["intake", "list", ...NOVEMBER], 80);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(widest(lines)).toBeLessThanOrEqual(80);
    expect(lines.join("\n")).not.toContain("…");
    // The window heading (its note on a line of its own at 80 columns), the table's head (foods
    // under it) and rule, then each intake with its foods on the line below.
    expect(lines.slice(0, 2)).toEqual([
      "Intakes of Sun 1 Nov – Mon 30 Nov 2026, times in UTC",
      "(the user's zone is not known: --tz names it)",
    ]);
    expect(lines[2]).toMatch(/^ {2}id {2}time \(UTC\) {8}occasion {2,}kind {2,}kcal {2}display$/);
    expect(lines[3]).toBe("      foods");
    // …and, after a blank line, the period's totals on one line.
    expect(lines).toHaveLength(2 + 3 + 2 * ids.length + 2);
    expect(lines.at(-2)).toBe("");
    expect(lines.at(-1)).toMatch(/^totals {2}calories [\d.]+ kcal · carbs [\d.]+ g · fat [\d.]+ g · protein [\d.]+ g$/);
    ids.forEach((id, index) => {
      const foods = (sandbox.handle.intake(id) as { foodName: string[] }).foodName;
      expect(lines[5 + 2 * index]).toMatch(new RegExp(`^${id} {2}2026-11-\\d\\d \\d\\d:\\d\\d {2}`));
      expect(lines[6 + 2 * index]).toBe(`      ${foods.join(", ")}`);
    });
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
    expect(widest(lines.filter((line) => !line.startsWith("http")))).toBeLessThanOrEqual(80);
    // The image URL whole, never cut with …, on a line of its own when it does not fit beside the key.
    const url = lines.find((line) => line.startsWith("http://"));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\S+\.(png|jpg|jpeg)$/);
    expect(lines.join("\n")).not.toMatch(/^display image.*…$/m);
    expect(lines.at(-1)).toMatch(/^ {8}\S/);
  });
});
