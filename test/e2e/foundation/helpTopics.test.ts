/**
 * Help topics (`foodctl help environment`, …) and help at any width, in process: the
 * environment topic names every FOODCTL_* variable the source reads, each topic is listed and
 * completed, and help at 40 columns keeps to 40 columns.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, EXIT_MEANINGS } from "../../../src/errors.js";
import { HELP_TOPIC_NAMES } from "../../../src/help.js";
import { runFoodctl } from "../../helpers/cli.js";
import { expectErrorLine, expectExit } from "./harness.js";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

/** An example's line that is one quoted shell word (and its continuation): wider than the help, it stands whole, since a break in it would land in the value. */
const oneQuotedWord = (line: string) => /^ +('[^']*'|"[^"]*")( \\)?$/.test(line);

function sourceFiles(dir: string, extension: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extension.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every FOODCTL_* name in src/ and bin/ (`__FOODCTL_VERSION__`, a build constant, is no variable). */
function variablesTheSourceReads(): string[] {
  const names = new Set<string>();
  for (const file of [...sourceFiles("src", /\.ts$/), ...sourceFiles("bin", /\.js$/)])
    for (const match of readFileSync(file, "utf8").matchAll(/(?<![A-Za-z0-9_])FOODCTL_[A-Z][A-Z0-9_]*[A-Z0-9](?!_)/g)) names.add(match[0]);
  return [...names].sort();
}

/** The characters of a line (`…` is one). */
const width = (line: string) => [...line].length;

describe("foodctl help <topic>", () => {
  it("environment lists every FOODCTL_* variable the source reads", async () => {
    const read = variablesTheSourceReads();
    expect(read).toEqual(expect.arrayContaining(["FOODCTL_TOKEN", "FOODCTL_API_URL", "FOODCTL_TZ", "FOODCTL_NO_CACHE"]));
    const result = await runFoodctl(["help", "environment"]);
    expectExit(result, 0);
    const listed = [...result.stdout.matchAll(/^ {2}(FOODCTL_[A-Z_]+)\b/gm)].map((match) => match[1]);
    expect(
      read.filter((name) => !listed.includes(name)),
      "variables read but not in help environment",
    ).toEqual([]);
    // Each with what it does, and the option it stands for where there is one.
    expect(result.stdout.replace(/\s+/g, " ")).toMatch(
      / FOODCTL_TIMEOUT Seconds each request may take, .* Option: --timeout\. Default: 30\./,
    );
  });

  it("exit-codes lists each exit code with its name", async () => {
    const result = await runFoodctl(["help", "exit-codes"]);
    expectExit(result, 0);
    for (const name of Object.keys(EXIT) as (keyof typeof EXIT)[])
      expect(result.stdout).toMatch(new RegExp(`^ {2}${EXIT[name]} ${EXIT_MEANINGS[name]} +\\S`, "m"));
  });

  it("formatting names the pager's rules, and dates the forms and the zones", async () => {
    const formatting = await runFoodctl(["help", "formatting"]);
    expect(formatting.stdout.replace(/\s+/g, " ")).toContain(
      "FOODCTL_PAGER, else PAGER, else less -FRX when it exists. --no-pager and an empty FOODCTL_PAGER turn it off",
    );
    const dates = (await runFoodctl(["help", "dates"])).stdout.replace(/\s+/g, " ");
    for (const text of ["YYYY-MM-DD", "yesterday", "3 days ago", "2026-11-03 or 2026-03-11?", "America/New_York", "UTC"])
      expect(dates).toContain(text);
  });

  it.each(HELP_TOPIC_NAMES)("%s is listed by foodctl help, offered by completion and names its man page", async (topic) => {
    const help = await runFoodctl(["help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(new RegExp(`Help topics: [a-z, -]*\\b${topic}\\b`));
    const bash = await runFoodctl(["completion", "bash"]);
    expect(bash.stdout).toMatch(new RegExp(`"help"\\) words="[^"]*\\b${topic}\\b`));
    const page = await runFoodctl(["help", topic]);
    expectExit(page, 0);
    expect(page.stdout.trimEnd().split("\n").at(-1)).toBe(`see: man foodctl-${topic}`);
  });

  it("refuses a mistyped topic with the nearest one, and words after a topic (exit 2)", async () => {
    expectErrorLine(await runFoodctl(["help", "enviroment"]), 2, "unknown command 'enviroment'", "Did you mean environment?");
    expectErrorLine(await runFoodctl(["help", "dates", "extra"]), 2, "help dates is a topic");
  });
});

describe("help at any width", () => {
  it.each([
    ["COLUMNS", { env: { COLUMNS: "40" } }],
    ["a 40-column terminal", { tty: true, columns: 40 }],
  ])("intake apply --help keeps to 40 columns (%s)", async (_how, options) => {
    const result = await runFoodctl(["intake", "apply", "--help"], options);
    expectExit(result, 0);
    const lines = result.stdout.split("\n");
    expect(lines.filter((line) => width(line) > 40 && !oneQuotedWord(line))).toEqual([]);
    // Every option is still there, its description under it.
    expect(result.stdout).toMatch(/^ {2}--concurrency <n>\n {6}intakes changed at once/m);
  });

  it.each(["api", "intake set-modifiers", "undo", ...HELP_TOPIC_NAMES])("help %s keeps to 40 columns", async (words) => {
    const result = await runFoodctl(["help", ...words.split(" ")], { env: { COLUMNS: "40" } });
    expectExit(result, 0);
    expect(result.stdout.split("\n").filter((line) => width(line) > 40 && !oneQuotedWord(line))).toEqual([]);
  });

  it("keeps options beside their descriptions where there is room", async () => {
    const result = await runFoodctl(["intake", "apply", "--help"], { tty: true, columns: 120 });
    expect(result.stdout).toMatch(/^ {2}--concurrency <n> +intakes changed at once/m);
  });
});

describe("completion", () => {
  it("knows foodctl api and its options", async () => {
    const bash = await runFoodctl(["completion", "bash"]);
    expect(bash.stdout).toMatch(/"api"\) words="[^"]*--method[^"]*--raw-field[^"]*--curl/);
  });
});
