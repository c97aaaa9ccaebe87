/**
 * Help and README agree, read from both as data: the commands and options come from `--help`
 * (walked from the top, so a command added or restructured is covered without touching this
 * file), the README's sections and command lines from README.md.
 * - Each option a command's help shows appears in the README sections that show that command.
 * - Each option a README command line gives a command appears in that command's help (which
 *   lists the global options too); one given before the command is a global option.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runFoodctl } from "../helpers/cli.js";
import { readReadme, type Readme } from "../helpers/readme.js";

interface HelpOption {
  flag: string;
  takesValue: boolean;
}

interface CommandHelp {
  path: string[];
  /** The command's own options. */
  options: HelpOption[];
  /** The global options its help lists beside them. */
  globals: HelpOption[];
  subcommands: string[];
}

/** Options every help has; the README need not repeat them per command. */
const UNIVERSAL = new Set(["--help", "--version"]);

/** The lines of one `Title:` part of a help text, up to the next blank line. */
function part(help: string, title: string): string[] {
  const lines = help.split("\n");
  const start = lines.findIndex((line) => line === `${title}:`);
  if (start === -1) return [];
  const end = lines.findIndex((line, index) => index > start && line.trim() === "");
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

function optionsIn(lines: string[]): HelpOption[] {
  const options: HelpOption[] = [];
  for (const line of lines) {
    const spec = /^\s{2}(-\S.*?)(?:\s{2,}|$)/.exec(line)?.[1];
    if (!spec) continue;
    for (const match of spec.matchAll(/--[a-z][a-z0-9-]*/g)) options.push({ flag: match[0], takesValue: /[<[]/.test(spec) });
  }
  return options;
}

function parseHelp(path: string[], help: string): CommandHelp {
  const options = optionsIn(part(help, "Options"));
  const globals = optionsIn(part(help, "Global Options"));
  const subcommands = part(help, "Commands")
    .map((line) => /^\s{2}([a-z][a-z0-9-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== "help");
  return { path, options, globals, subcommands };
}

async function helpOf(path: string[]): Promise<CommandHelp> {
  const result = await runFoodctl([...path, "--help"]);
  expect(result.code, `${path.join(" ")} --help: ${result.stderr}`).toBe(0);
  return parseHelp(path, result.stdout);
}

async function walk(path: string[] = []): Promise<CommandHelp[]> {
  const help = await helpOf(path);
  const children = await Promise.all(help.subcommands.map((name) => walk([...path, name])));
  return [help, ...children.flat()];
}

/** Every `foodctl …` command line of the README: in code blocks and in inline code. */
function commandLines(readme: Readme): Array<{ text: string; where: string }> {
  const found: Array<{ text: string; where: string }> = [];
  for (const block of readme.blocks) {
    for (const line of block.code.split("\n")) {
      for (const match of line.matchAll(/\bfoodctl((?:\s+[^\s|;&#<>()`]+)*)/g))
        found.push({ text: match[1] ?? "", where: `README.md:${block.line} (${block.heading})` });
    }
  }
  for (const section of readme.sections) {
    const prose = section.body.replace(/```[\s\S]*?```/g, "");
    for (const span of prose.matchAll(/`foodctl([^`]*)`/g)) {
      found.push({ text: (span[1] ?? "").split(/\s[|;&#<>]/)[0] ?? "", where: `README.md:${section.line} (${section.heading})` });
    }
  }
  return found;
}

/** A command line split into the command path and the options given before and after it. */
function parseLine(text: string, commands: CommandHelp[]): { path: string[]; before: string[]; after: string[] } {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const root = commands.find((command) => command.path.length === 0)!;
  const path: string[] = [];
  const before: string[] = [];
  const after: string[] = [];
  let current = root;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.startsWith("--")) {
      const flag = token.split("=")[0]!;
      (current === root ? before : after).push(flag);
      const option = [...current.options, ...current.globals, ...root.options].find((candidate) => candidate.flag === flag);
      if (option?.takesValue && !token.includes("=")) index++;
      continue;
    }
    if (token.startsWith("-")) continue;
    const next = commands.find(
      (command) => command.path.length === path.length + 1 && command.path.every((name, i) => name === (i < path.length ? path[i] : token)),
    );
    if (next && current.subcommands.includes(token)) {
      path.push(token);
      current = next;
    }
  }
  return { path, before, after };
}

/** The text names the command: `foodctl intake show …` anywhere, or `intake show` in inline code. */
function shows(text: string, path: string[]): boolean {
  const words = path.join("\\s+");
  return new RegExp(`foodctl\\s+${words}(?![a-z0-9-])|\`${words}(?![a-z0-9-])`).test(text);
}

const mentions = (text: string, flag: string) => new RegExp(`(^|[^a-z0-9-])${flag}(?![a-z0-9-])`).test(text);

let commands: CommandHelp[];
let readme: Readme;
beforeAll(async () => {
  [commands, readme] = [await walk(), readReadme()];
});

describe("--help and README.md agree", () => {
  it("the help tree has commands and options to compare", () => {
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.find((command) => command.path.length === 0)!.options.length).toBeGreaterThan(3);
  });

  it("every command's help lists the global options", () => {
    const root = commands.find((command) => command.path.length === 0)!;
    const expected = root.options
      .map((option) => option.flag)
      .filter((flag) => !UNIVERSAL.has(flag))
      .sort();
    for (const command of commands.filter((candidate) => candidate.path.length > 0)) {
      const listed = [...command.options, ...command.globals].map((option) => option.flag);
      expect(
        expected.filter((flag) => !listed.includes(flag)),
        `foodctl ${command.path.join(" ")} --help`,
      ).toEqual([]);
    }
  });

  it("each option in a command's help appears in the README sections that show the command", () => {
    const missing: string[] = [];
    for (const command of commands) {
      const name = ["foodctl", ...command.path].join(" ");
      const own = command.options.filter((option) => !UNIVERSAL.has(option.flag));
      if (own.length === 0) continue;
      const sections = command.path.length === 0 ? readme.sections : readme.sections.filter((section) => shows(section.body, command.path));
      // A section that shows the command covers it with its subsections (e.g. "Options" under "Batch corrections").
      if (sections.length === 0) {
        missing.push(`${name}: no README section shows it`);
        continue;
      }
      const text = sections.map((section) => section.text).join("\n");
      for (const option of own)
        if (!mentions(text, option.flag))
          missing.push(`${name} ${option.flag} (sections: ${sections.map((section) => section.heading).join(", ")})`);
    }
    expect(missing).toEqual([]);
  });

  it("each option a README command line gives appears in that command's help", () => {
    const root = commands.find((command) => command.path.length === 0)!;
    const globals = new Set(root.options.map((option) => option.flag));
    const unknown: string[] = [];
    for (const line of commandLines(readme)) {
      const { path, before, after } = parseLine(line.text, commands);
      const command = commands.find((candidate) => candidate.path.join(" ") === path.join(" "))!;
      const own = new Set([...command.options, ...command.globals].map((option) => option.flag));
      for (const flag of before) if (!globals.has(flag)) unknown.push(`${line.where}: foodctl ${flag} (not a global option)`);
      // Each command's help lists the global options too, so an option after the command is in its help.
      for (const flag of after)
        if (!own.has(flag) && !UNIVERSAL.has(flag)) unknown.push(`${line.where}: foodctl ${path.join(" ")} ${flag}`);
    }
    expect(unknown).toEqual([]);
  });
});
