/** The help built from the command specs, run in process: global options, `help <command>`, width, exit codes. */
import { GLOBAL_OPTIONS } from "../../src/commands/spec.js";
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { NOUNS } from "../../src/commands/index.js";
import { EXIT } from "../../src/errors.js";
import { run } from "../../src/main.js";
import { buildProgram, wholeTree } from "../../src/program.js";
import { VERSION } from "../../src/version.js";
import { OPAQUE_TOKEN } from "../commands/helpers.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { expectErrorLine, expectExit, expectJsonError, runFoodctl } from "../helpers/cli.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";

function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((child) => commandPaths(child, [...path, child.name()]))];
}
const COMMANDS = commandPaths(
  wholeTree(buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal)),
).filter((path) => path[path.length - 1] !== "help" || path.length === 1);

async function help(args: string[], columns?: number) {
  const buffers = bufferIO({ tty: columns !== undefined });
  if (columns !== undefined) buffers.io.stdout.columns = columns;
  const code = await run(args, { io: buffers.io, signal: new AbortController().signal });
  return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
}

describe("help from the specs", () => {
  it.each(COMMANDS.filter((path) => path.length > 0).map((path) => [path.join(" "), path]))(
    "of %s lists only program options under Global Options (those the command reads: test/unit/helpGlobals.test.ts)",
    async (_name, path) => {
      const result = await help([...path, "--help"]);
      expect(result.code).toBe(0);
      const section = result.stdout.split("Global Options:\n")[1]?.split("\n\n")[0] ?? "";
      const listed = [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
      const programFlags = ["--version", ...GLOBAL_OPTIONS.map((option) => /--[\w-]+/.exec(option.flags)![0])];
      for (const flag of listed) expect(programFlags).toContain(flag);
      // Every command that talks to the API (its requests traced with --verbose) lists how to reach it;
      // config list and get list --timeout as a setting they show, not as one they send with.
      if (listed.includes("--verbose"))
        for (const flag of ["--profile", "--api-url", "--user", "--timeout", "--retries"]) expect(listed).toContain(flag);
    },
  );

  it.each([
    ["sandbox", "stop"],
    ["journal", "show"],
  ])("of %s %s lists the program's options as global, not its noun's", async (noun, verb) => {
    const [, global] = (await help([noun, verb, "--help"])).stdout.split("Global Options:\n");
    const flags = global!
      .split("\n\n")[0]!
      .match(/^ {2}(-\S+|--\S+)/gm)!
      .map((flag) => flag.trim());
    expect(flags).not.toContain("--port");
    expect(flags).not.toContain("--limit");
    // Only program options, and of those only what the verb reads (--json for both).
    expect(flags).toContain("--json");
    expect(flags).not.toContain("--api-url");
  });

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
    expect((await help(["--help"])).stdout).toMatch(/^ {2}help +show the help of a command, or a help topic$/m);
  });

  it("lists every exit code of the one table, 1 included", async () => {
    const text = (await help(["--help"])).stdout.replace(/\n(?!\n)/g, " ");
    const listed = [...text.matchAll(/(\d+) [a-z]/g)].map((match) => Number(match[1]));
    for (const code of Object.values(EXIT)) expect(listed).toContain(code);
    expect(text).toMatch(/Exit codes: 0 ok, 1 unexpected, 2 usage, .* 130 interrupted\./);
  });

  it("declares every group and command of the specs (the whole tree, as the manual reads it)", () => {
    const program = wholeTree(buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal));
    const tree = program.commands.map((command) => [command.name(), command.commands.map((child) => child.name())]);
    const specs = NOUNS.map((noun) => [noun.name, noun.verbs.map((verb) => verb.name)]);
    expect(tree).toEqual([...specs, ["help", []]]);
  });

  it("declares a group's commands only when the line enters that group", async () => {
    const program = buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal);
    const declared = () => program.commands.filter((group) => group.commands.length > 0).map((group) => group.name());
    expect(declared()).toEqual([]);
    await program.parseAsync(["config", "path", "--help"], { from: "user" }).catch(() => {});
    expect(declared()).toEqual(["config"]);
  });

  it("suggests the near miss of a group or command wherever its name stands in the line (exit 2)", async () => {
    for (const [argv, suggestion] of [
      [["intak", "show", "1002"], "intake"],
      [["intake", "shw", "1002"], "show"],
      [["--profile", "smoke", "intak"], "intake"],
      [["--profile", "list", "intake", "shw", "1002"], "show"],
      [["--profile", "apply", "help", "intake", "shw"], "show"],
    ] as const) {
      const near = await help([...argv]);
      expect(near.code, argv.join(" ")).toBe(EXIT.usage);
      expect(near.stderr, argv.join(" ")).toMatch(new RegExp(`^error: unknown command '\\w+' \\(Did you mean ${suggestion}\\?\\)$`, "m"));
      expect(near.stdout).toBe("");
    }
  });

  it("answers --version and -V through commander, as the bin does before loading anything", async () => {
    for (const argv of [["--version"], ["-V"], ["--no-color", "--version"]]) {
      expect(await help(argv)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
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

describe("--json, --no-color and --wide are what commander read, errors included", () => {
  it("takes --json as --api-url's value when it follows it, and words the error as text", async () => {
    for (const argv of [
      ["intake", "show", "1002", "--api-url", "--json"],
      ["--api-url", "--json", "intake", "show", "1002"],
    ]) {
      const result = await runFoodctl(argv, { env: { FOODCTL_TOKEN: OPAQUE_TOKEN } });
      expectErrorLine(result, EXIT.usage, '--api-url "--json" is not a valid URL');
      expect(result.stdout).toBe("");
    }
  });

  it("words a refusal as JSON once commander has read --json, wherever it refuses the line", async () => {
    const missing = await runFoodctl(["intake", "show", "1002", "--json", "--api-url"]);
    expect(expectJsonError(missing, EXIT.usage, "usage").message).toBe("option '--api-url <url>' argument missing");
    // Commander reads the options it knows on either side of one it does not.
    for (const argv of [
      ["--json", "intake", "show", "1002", "--bogus"],
      ["intake", "show", "1002", "--bogus", "--json"],
    ])
      expect(expectJsonError(await runFoodctl(argv), EXIT.usage, "usage").message).toBe("unknown option '--bogus'");
    const near = await runFoodctl(["intake", "--json", "shw"]);
    expect(expectJsonError(near, EXIT.usage, "usage").message).toBe("unknown command 'shw' (Did you mean show?)");
  });

  it("refuses an option value where the option is declared, in the same words, as JSON when --json comes after it", async () => {
    const cases: [string[], string][] = [
      [["intake", "list", "--days", "0"], '--days must be a whole number of days from 1, got "0"'],
      [["intake", "show", "1002", "--nutrients", "some"], '--nutrients takes "all", got "some"'],
      [["--retries", "11", "intake", "show", "1002"], '--retries must be a whole number from 0 to 10, got "11"'],
      [["sandbox", "--port", "70000"], '--port must be 0 to 65535, got "70000"'],
      [["sandbox", "stop", "--port", "x"], '--port must be 0 to 65535, got "x"'],
      [["sandbox", "--latency", "soon"], '--latency must be a whole number of milliseconds, got "soon"'],
      [["smoke", "1002", "--junit", "-"], '--junit needs a file name, got "-"'],
      [["journal", "--limit", "0"], '--limit must be a positive integer, got "0"'],
      [["journal", "--intake", "x"], '--intake must be a positive integer, got "x"'],
      [["intake", "apply", "fixes.jsonl", "--concurrency", "65"], '--concurrency must be a whole number from 1 to 64, got "65"'],
      [["intake", "apply", "fixes.jsonl", "--concurrency", "2.5"], '--concurrency must be a whole number from 1 to 64, got "2.5"'],
      [["intake", "apply", "fixes.jsonl", "--results", "-"], "--results takes a file name (the results already go to stdout)"],
      [["undo", "--batch", "results.jsonl", "--results", ""], "--results takes a file name (the results already go to stdout)"],
    ];
    for (const [argv, message] of cases) {
      expectErrorLine(await runFoodctl(argv), EXIT.usage, message);
      const json = await runFoodctl([...argv, "--json"]);
      expect(expectJsonError(json, EXIT.usage, "usage").message).toBe(message);
      expect(json.stdout).toBe("");
    }
    // The first refused value on the line is the one reported; commander's own refusals come first.
    const twice = await runFoodctl(["sandbox", "--port", "x", "--latency", "y"]);
    expectErrorLine(twice, EXIT.usage, '--port must be 0 to 65535, got "x"');
    expectErrorLine(await runFoodctl(["intake", "list", "--days", "0", "--bogus"]), EXIT.usage, "unknown option '--bogus'");
  });

  it("words a refusal as text when --json is an option's value or an argument after --", async () => {
    expectErrorLine(await runFoodctl(["--profile", "--json", "intak"]), EXIT.usage, "unknown command 'intak' (Did you mean intake?)");
    expectErrorLine(await runFoodctl(["intake", "show", "1002", "--", "--json"]), EXIT.usage, /^error: too many arguments for 'show'/);
  });

  it("colours the error line (FORCE_COLOR) unless commander read --no-color", async () => {
    const env = { FORCE_COLOR: "1" };
    expect((await runFoodctl(["--no-color", "intak"], { env })).stderr).toMatch(/^error: unknown command 'intak'/);
    expect((await runFoodctl(["intak", "--no-color"], { env })).stderr).toMatch(/^error: unknown command 'intak'/);
    expect((await runFoodctl(["--profile", "--no-color", "intak"], { env })).stderr).toMatch(
      /^\u001b\[31merror:\u001b\[39m unknown command/,
    );
  });

  it("fits tables to the terminal unless commander read --wide, before or after the command", async () => {
    const url = `https://images.example.com/${"a".repeat(60)}.png`;
    const nutrition = { calories: 500, totalNutrients: { ENERC_KCAL: { label: "Energy", quantity: 500, unit: "kcal" } } };
    const intake = {
      image_id: 1003,
      has_display_image: false,
      can_edit_display_image: true,
      image_url: url,
      processed_image_size: { width: 60, height: 40 },
      foodName: ["Spaghetti bolognese"],
      serving_size: 350,
      nutritional_info: nutrition,
      nutritional_info_per_item: [{ food_item_position: "manual1", serving_size: 350, nutritional_info: nutrition }],
    };
    const scripted = scriptedTransport().route("GET /v2/intake/1003", faults.intake(intake));
    const env = { FOODCTL_TOKEN: OPAQUE_TOKEN, FOODCTL_API_URL: "https://api.example.com", NO_COLOR: "1" };
    const show = (argv: string[]) => runFoodctl(argv, { env, tty: true, columns: 60, transport: scripted.transport });
    const fitted = await show(["intake", "show", "1003"]);
    expectExit(fitted, 0);
    // Fitted, the URL (never cut) stands on a line of its own; --wide keeps it beside its key.
    expect(fitted.stdout).toContain(`\n${url}\n`);
    for (const argv of [
      ["intake", "show", "1003", "--wide"],
      ["--wide", "intake", "show", "1003"],
    ]) {
      const wide = await show(argv);
      expectExit(wide, 0);
      expect(wide.stdout, argv.join(" ")).toContain(`image: ${url} (60×40)`);
    }
  });
});
