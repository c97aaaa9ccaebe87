/**
 * The command tree, assembled from the specs in `src/commands/<noun>/index.ts`: names,
 * options, help and examples live there, so `--help` needs no command module; each action
 * parses its input and loads its module only when it runs.
 */
import { Command, CommanderError, Option } from "commander";
import { NOUNS } from "./commands/index.js";
import { GLOBALS } from "./commands/globals.js";
import { RawInput } from "./commands/rawInput.js";
import { GLOBAL_OPTIONS, type Noun, type OptionSpec, type Verb } from "./commands/spec.js";
import type { Context, GlobalOptions, Services } from "./context.js";
import { usageError } from "./errors.js";
import {
  endHelp,
  formatHelp,
  formatHelpItem,
  HELP_TOPIC_NAMES,
  helpTaker,
  helpWidth,
  isHelpTopic,
  programOptions,
  usedGlobals,
} from "./help.js";
import { writeOut, type IO } from "./io.js";
import { VERSION } from "./version.js";

export interface ProgramState {
  exitCode: number;
  /** commander's message for a bad command line, on one line. */
  parseMessage: string;
  /** The first option value its `parse` refused: thrown once the whole line is read, so `--json` anywhere on it counts. */
  optionError?: unknown;
  /** Shows what commander wrote to stdout (`--help`, `--version`) as `help` shows it: paged when longer than the screen. */
  showHeld?: () => Promise<void>;
}

const ROOT_EXAMPLES = `
  foodctl sandbox                                   # a local API to try everything on
  foodctl auth login --with-token < token.txt
  foodctl intake list --from 2026-11-01
  foodctl intake show 1002
  foodctl intake set-quantity 1002 1=150 2=80.5
  foodctl intake set-modifiers 1002 1 --salt low
  foodctl display-image attach 1003 photo.jpg
`;

const ROOT_NOTES = [
  "Token: FOODCTL_TOKEN, else the profile's stored token (there is no token flag).",
  `Help topics: ${HELP_TOPIC_NAMES.join(", ")} (foodctl help <topic>).`,
];

function toOption(spec: OptionSpec, state: ProgramState): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  if (spec.choices) option.choices(spec.choices);
  const parse = spec.parse;
  if (parse)
    option.argParser((text: string) => {
      try {
        return parse(text);
      } catch (error) {
        state.optionError ??= error;
        return undefined;
      }
    });
  if (spec.repeat) option.argParser((value: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), value]);
  return option;
}

function readGlobals(command: Command): GlobalOptions {
  const input = new RawInput([], command.optsWithGlobals());
  return {
    profile: input.text("profile"),
    apiUrl: input.text("apiUrl"),
    user: input.text("user"),
    timeout: input.text("timeout"),
    retries: input.value("retries") as number | undefined,
    json: input.flag("json"),
    verbose: input.flag("verbose"),
    color: input.on("color"),
    pager: input.on("pager"),
    journal: input.on("journal"),
    tz: input.text("tz"),
    reason: input.text("reason"),
  };
}

/**
 * The command tree, with commander's errors thrown (CommanderError, the message in `state`)
 * rather than ending the process. Every group is there; a group's commands are declared when the
 * line enters it (`wholeTree` declares them all).
 */
export function buildProgram(io: IO, state: ProgramState, signal: AbortSignal, services: Services = {}): Command {
  const width = () => helpWidth(io.stdout, io.env);
  const help = helpTaker();
  const program = new Command("foodctl")
    .description("Fix food intakes through the intake-management API: quantities, salt/sugar/oil levels, display images.")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addHelpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    // A group lists its commands by name (their arguments made the lines too wide to wrap); `help <command>` shows the rest.
    .configureHelp({
      showGlobalOptions: true,
      visibleGlobalOptions: programOptions,
      subcommandTerm: (command) => command.name(),
      minWidthToWrap: 20,
      formatItem: formatHelpItem,
      formatHelp,
    })
    .configureOutput({
      writeOut: help.writeOut,
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: width,
      getErrHelpWidth: () => helpWidth(io.stderr, io.env),
      // Help is plain text on any stream (docs/cli.md, colour).
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      outputError: (text) => (state.parseMessage = oneLineMessage(text)),
    });
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option, state));
  // A refused option value, once commander has read the whole line (before any command runs).
  program.hook("preAction", () => {
    if (state.optionError !== undefined) throw state.optionError;
  });
  endHelp(program, { examples: ROOT_EXAMPLES, notes: ROOT_NOTES }, width);

  const execute =
    (verb: Verb) =>
    async (...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      // A verb under a noun with options of its own (`sandbox stop --port`) reads those too: commander gives them to the noun.
      const options = { ...self.parent?.opts(), ...self.opts() };
      const globals = readGlobals(self);
      refuseCurlWithout(options, globals);
      const run = verb.prepare(new RawInput(received.slice(0, -2) as (string | string[] | undefined)[], options));
      // Loaded here, not at the top: `--help` and usage errors never need config or the client.
      const { Context } = await import("./context.js");
      const ctx: Context = new Context(io, globals, signal, services);
      state.exitCode = (await run(ctx)) ?? 0;
    };
  const declare = (command: Command, verb: Verb, notes?: string[]) => {
    command.description(verb.description);
    if (verb.globals) usedGlobals.set(command, verb.globals);
    for (const arg of verb.args ?? []) command.argument(arg.name, arg.description);
    for (const option of verb.options ?? []) command.addOption(toOption(option, state));
    endHelp(command, { examples: verb.examples, notes: [...(verb.notes ?? []), ...(notes ?? [])] }, width);
    return command.action(execute(verb));
  };

  for (const noun of NOUNS) addNoun(program, noun, declare, width);
  // Only the group the line names is declared whole: commander calls this before it enters one.
  program.hook("preSubcommand", (_program, group) => void commandsOf(group));
  // Long help on a terminal is paged (docs/cli.md, the pager), `--help`'s too.
  const page = (text: string) => writeOut(io, text, program.opts<{ pager?: boolean }>().pager !== false);
  state.showHeld = () => page(help.held());
  addHelpCommand(program, state, width, { command: (command) => page(help.take(command)), text: page });
  return program;
}

/** `--curl` shows a dry run's request (docs/cli.md, dry run): it means nothing alone, and its one shell command is not JSON. */
function refuseCurlWithout(options: Record<string, unknown>, globals: GlobalOptions): void {
  if (options.curl !== true) return;
  if (options.dryRun !== true)
    throw usageError("--curl needs --dry-run: it prints the request instead of sending it", { hint: "add --dry-run" });
  if (globals.json) throw usageError("--curl and --json cannot be combined: --curl prints a shell command, not JSON");
}

/** A group not declared yet (its options, action, help and commands): the declaration, run once by `commandsOf`. */
const undeclared = new WeakMap<Command, () => void>();

/** A group's commands, the group declared on first use (a run declares the group it runs, help those it shows). */
function commandsOf(group: Command): readonly Command[] {
  const declare = undeclared.get(group);
  undeclared.delete(group);
  declare?.();
  return group.commands;
}

/** The tree with every group's commands declared: for the manual and for tests that walk it. */
export function wholeTree(program: Command): Command {
  for (const group of program.commands) commandsOf(group);
  return program;
}

function addNoun(
  program: Command,
  noun: Noun,
  declare: (command: Command, verb: Verb, notes?: string[]) => Command,
  width: () => number,
): void {
  const group = program.command(noun.name, { hidden: noun.hidden === true });
  // What the top level's help lists; the rest is declared when the line enters the group.
  group.description(noun.description);
  undeclared.set(group, () => {
    const notes = noun.verbs.length ? [`A command's options and examples: foodctl help ${noun.name} <command>`] : [];
    if (noun.action) {
      declare(group, noun.action, notes);
      // A word after a noun that runs alone and has verbs (`journal shw`) is a mistyped verb, not an argument.
      if (noun.verbs.length && !noun.action.args?.length)
        group.allowExcessArguments(true).hook("preAction", (command, actionCommand) => {
          // Only when the noun itself runs: the hook also fires before its verbs (`journal show <id>`).
          if (actionCommand === command && command.args[0] !== undefined) throw unknownCommand(command, command.args[0]);
        });
    }
    if (!noun.verbs.length) return;
    group.description(noun.description);
    group.helpCommand("help [command]", "show the help of a command");
    // A noun that is a command of its own (`journal`, `sandbox`) ended its help when it was declared.
    if (!noun.action) endHelp(group, { examples: noun.examples, notes }, width);
    for (const verb of noun.verbs) declare(group.command(verb.name, { hidden: verb.hidden === true }), verb);
  });
}

/** How `help` shows what it was asked for: a command's help, or a topic's text (both paged on a terminal). */
interface HelpShower {
  command: (command: Command) => Promise<void>;
  text: (text: string) => Promise<void>;
}

/** `foodctl help intake show` is `foodctl intake show --help`; `foodctl help environment` shows a topic. */
function addHelpCommand(program: Command, state: ProgramState, width: () => number, show: HelpShower): void {
  const help = program
    .command("help")
    .argument("[command...]", `a command, e.g. intake show, or a topic: ${HELP_TOPIC_NAMES.join(", ")}`)
    .description("show the help of a command, or a help topic")
    .action(async (words: string[]) => {
      const [first, ...rest] = words;
      if (first !== undefined && isHelpTopic(first)) {
        if (rest.length) throw usageError(`help ${first} is a topic: it has no ${rest[0]}`);
        const { HELP_TOPICS, topicText } = await import("./topics/index.js");
        const topic = HELP_TOPICS.find((named) => named.name === first)!;
        await show.text(topicText(topic, width()));
        state.exitCode = 0;
        return;
      }
      let target = program;
      for (const word of words) {
        const next = commandsOf(target).find((command) => command.name() === word);
        if (!next) throw unknownCommand(target, word);
        target = next;
      }
      // A group's help lists its commands.
      commandsOf(target);
      await show.command(target);
      state.exitCode = 0;
    });
  usedGlobals.set(help, GLOBALS.help);
  endHelp(help, { examples: "foodctl help intake\nfoodctl help intake show\nfoodctl help environment\nfoodctl help exit-codes" }, width);
}

/**
 * A mistyped command word under `parent` (`foodctl help intak`, `foodctl journal shw`): the refusal
 * commander gives `foodctl intak`, with its "Did you mean …?". Commander words it from a stand-in
 * that has the same visible commands and no actions, so nothing can run (`help undo xyz` must not
 * undo anything).
 */
function unknownCommand(parent: Command, word: string): Error {
  const path = parent.parent ? `${commandPath(parent)} ` : "";
  const hint = { hint: `run \`foodctl ${path ? `help ${path.trim()}` : "--help"}\` for the commands` };
  commandsOf(parent);
  const names = parent
    .createHelp()
    .visibleCommands(parent)
    .map((command) => command.name());
  if (names.length === 0) {
    return usageError(`unknown command '${word}': foodctl ${path}has no subcommands`, {
      hint: `run \`foodctl help ${path.trim()}\` for its usage`,
    });
  }
  const standIn = new Command(parent.name())
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({ outputError: () => {} });
  // After `help`, a topic is a word too.
  for (const name of parent.parent ? names : [...names, ...HELP_TOPIC_NAMES]) standIn.command(name);
  try {
    standIn.parse([word], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return usageError(oneLineMessage(error.message), hint);
    throw error;
  }
  return usageError(`unknown command '${word}'`, hint);
}

/** Commander's error text as one line without its "error:" (it puts "(Did you mean …?)" on a line of its own). */
function oneLineMessage(text: string): string {
  return text
    .trim()
    .replace(/^error:\s*/, "")
    .replace(/\s*\n\s*/g, " ");
}

/** `intake show` for the command `foodctl intake show`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}
