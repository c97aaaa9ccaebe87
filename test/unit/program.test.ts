/** The help built from the command specs, run in process: global options, `help <command>`, width, exit codes. */
import { describe, expect, it, vi } from "vitest";
import type { Command } from "commander";
import { NOUNS } from "../../src/commands/index.js";
import { EXIT } from "../../src/errors.js";
import { run } from "../../src/main.js";
import { buildProgram } from "../../src/program.js";
import { bufferIO } from "../helpers/bufferIO.js";

function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((child) => commandPaths(child, [...path, child.name()]))];
}
const COMMANDS = commandPaths(await buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal)).filter(
  (path) => path[path.length - 1] !== "help" || path.length === 1,
);

async function help(args: string[], columns?: number) {
  const buffers = bufferIO({ tty: columns !== undefined });
  if (columns !== undefined) buffers.io.stdout.columns = columns;
  const code = await run(args, { io: buffers.io, signal: new AbortController().signal });
  return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

describe("help from the specs", () => {
  it.each(COMMANDS.filter((path) => path.length > 0).map((path) => [path.join(" "), path]))(
    "of %s lists the global options",
    async (_name, path) => {
      const result = await help([...path, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Global Options:");
      for (const flag of ["--profile <name>", "--user <id>", "--api-url <url>", "--json", "--no-color"])
        expect(result.stdout).toContain(flag);
    },
  );

  it.each(COMMANDS.map((path) => [path.join(" ") || "foodctl", path]))(
    "of %s fits 80 columns when not on a terminal",
    async (_name, path) => {
      const lines = (await help([...path, "--help"])).stdout.split("\n");
      expect(lines.filter((line) => line.length > 80)).toEqual([]);
    },
  );

  it("wraps at the terminal's width", async () => {
    const narrow = (await help(["intake", "set-modifiers", "--help"], 72)).stdout.split("\n");
    expect(narrow.filter((line) => line.length > 72)).toEqual([]);
    const wide = (await help(["intake", "set-modifiers", "--help"], 200)).stdout;
    expect(wide).toContain("--oil <level>        none, low, medium or high (itemized intakes only)");
  });

  it("answers `foodctl help <command>` with that command's help, at any depth", async () => {
    for (const path of [["intake"], ["intake", "show"], ["config", "set"], ["sandbox"]]) {
      const viaHelp = await help(["help", ...path]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe((await help([...path, "--help"])).stdout);
    }
    expect((await help(["intake", "help", "show"])).stdout).toBe((await help(["intake", "show", "--help"])).stdout);
  });

  it("refuses help for an unknown command (exit 2), suggesting a near miss as commander does for the command itself", async () => {
    const result = await help(["help", "intake", "nope"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("unknown command 'nope'");
    expect(result.stderr).not.toContain("Did you mean");
    const group = await help(["help", "intak"]);
    expect(group.code).toBe(EXIT.usage);
    expect(group.stderr).toMatch(/^error: unknown command 'intak' \(Did you mean intake\?\)$/m);
    expect((await help(["help", "intake", "shw"])).stderr).toMatch(/unknown command 'shw' \(Did you mean show\?\)/);
    // Hidden commands are not suggested, and a word after a command without subcommands runs nothing.
    expect((await help(["help", "__complet"])).stderr).not.toContain("__complete");
    const undo = await help(["help", "undo", "xyz"]);
    expect(undo).toMatchObject({ code: EXIT.usage, stdout: "" });
    expect(undo.stderr).toContain("unknown command 'xyz': foodctl undo has no subcommands");
    expect((await help(["help", "intake", "shw"])).stderr).toContain("hint: run `foodctl help intake` for the commands");
  });

  it("refuses a mistyped verb after a noun that also runs alone (journal, sandbox) as an unknown command, not an argument", async () => {
    for (const [noun, typo, verb] of [
      ["journal", "shw", "show"],
      ["sandbox", "stp", "stop"],
    ]) {
      const result = await help([noun!, typo!]);
      expect(result).toMatchObject({ code: EXIT.usage, stdout: "" });
      expect(result.stderr).toContain(`unknown command '${typo}' (Did you mean ${verb}?)`);
      expect(result.stderr).toContain(`hint: run \`foodctl help ${noun}\` for the commands`);
    }
  });

  it("advertises `foodctl help <group> <command>` in each group's help", async () => {
    for (const group of ["auth", "config", "intake", "display-image"]) {
      expect((await help([group, "--help"])).stdout).toContain(`foodctl help ${group} <command>`);
    }
    expect((await help(["--help"])).stdout).toMatch(/^ {2}help +show the help of a command$/m);
  });

  it("lists every exit code of the one table, 1 included", async () => {
    const text = (await help(["--help"])).stdout.replace(/\n(?!\n)/g, " ");
    const listed = [...text.matchAll(/(\d+) [a-z]/g)].map((match) => Number(match[1]));
    for (const code of Object.values(EXIT)) expect(listed).toContain(code);
    expect(text).toMatch(/Exit codes: 0 ok, 1 unexpected, 2 usage, .* 130 interrupted\./);
  });

  it("builds only the named group and command, all of the group for its help, and still suggests near misses (exit 2)", async () => {
    const build = (argv?: string[]) =>
      buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal, {}, argv);
    const names = (command: Command | undefined) => command?.commands.map((child) => child.name());
    const intakeOf = (program: Command) => program.commands.find((command) => command.name() === "intake");
    const only = await build(["intake", "show", "1"]);
    expect(names(only)).toEqual(["intake", "help"]);
    expect(names(intakeOf(only))).toEqual(["show"]);
    // A help anywhere, no command after the group's name, or the name elsewhere (an option's value, an argument): all of them.
    for (const argv of [
      ["intake", "--help", "show"],
      ["intake", "-h"],
      ["help", "intake", "show"],
      ["--profile", "show", "help", "intake"],
      ["intake", "shw"],
      ["intake", "shw", "list"],
      ["--profile", "list", "intake", "shw", "1002"],
      ["intake", "--json", "show", "1002"],
    ])
      expect(names(intakeOf(await build(argv))), argv.join(" ")).toEqual(names(intakeOf(await build())));
    expect(names(intakeOf(await build()))?.length).toBeGreaterThan(4);
    const groupHelp = await help(["intake", "--help", "show"]);
    expect(groupHelp.code).toBe(0);
    for (const name of names(intakeOf(await build())) ?? []) expect(groupHelp.stdout).toContain(`  ${name}`);
    const verb = await help(["intake", "shw", "1002"]);
    expect(verb.code).toBe(EXIT.usage);
    expect(verb.stderr).toMatch(/unknown command 'shw'.*Did you mean show\?/);
    const group = await help(["intak", "show", "1002"]);
    expect(group.code).toBe(EXIT.usage);
    expect(group.stderr).toMatch(/Did you mean intake\?/);
    // A group's or command's name elsewhere in the line loads only that group: the whole tree words the refusal.
    for (const [argv, suggestion] of [
      [["--profile", "smoke", "intak"], "intake"],
      [["--profile", "list", "intake", "shw", "1002"], "show"],
      [["--profile", "apply", "help", "intake", "shw"], "show"],
    ] as const) {
      const near = await help([...argv]);
      expect(near.code, argv.join(" ")).toBe(EXIT.usage);
      expect(near.stderr, argv.join(" ")).toContain(`Did you mean ${suggestion}?`);
      expect(near.stdout).toBe("");
    }
  });

  it("loads the spec of the named group alone; all of them when none is named", async () => {
    const loads = NOUNS.map((entry) => vi.spyOn(entry, "load"));
    try {
      const build = (argv: string[]) =>
        buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal, {}, argv);
      const loaded = () => NOUNS.filter((_, index) => loads[index]!.mock.calls.length > 0).map((entry) => entry.name);
      await build(["intake", "show", "1002"]);
      expect(loaded()).toEqual(["intake"]);
      loads.forEach((spy) => spy.mockClear());
      await build(["intak", "show"]);
      expect(loaded()).toEqual(NOUNS.map((entry) => entry.name));
    } finally {
      loads.forEach((spy) => spy.mockRestore());
    }
  });

  it("spells the confirmation skip -y, --yes wherever a command asks", async () => {
    for (const path of COMMANDS) {
      const text = (await help([...path, "--help"])).stdout;
      const optionLines = text.split("\n").filter((line) => /^ {2}(-\w, )?--yes\b/.test(line));
      for (const line of optionLines) expect(line).toMatch(/^ {2}-y, --yes +do not ask/);
    }
  });
});
