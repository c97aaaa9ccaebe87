/**
 * The manual's pages, read from the command tree as `buildProgram` builds it: names, usage,
 * arguments, options and descriptions through commander's Help API, the examples and notes each
 * command's help ends with (`helpEndOf`), the exit codes from src/errors.ts. Nothing here comes
 * from the clock or the machine, so the pages are the same on every run.
 */
import { Readable } from "node:stream";
import type { Argument, Command, Help, Option } from "commander";
import { EXIT, EXIT_MEANINGS } from "../../src/errors.js";
import { helpEndOf, manualPage } from "../../src/help.js";
import type { IO } from "../../src/io.js";
import { buildProgram, wholeTree } from "../../src/program.js";

export interface Item {
  term: string;
  description: string;
}

/** A topic guide in docs/ that says more about a command. */
export interface Guide {
  file: string;
  title: string;
}

export interface Page {
  /** `foodctl-intake-show`: the file name of its man page and Markdown page. */
  name: string;
  /** `foodctl intake show`. */
  title: string;
  description: string;
  notes: readonly string[];
  /** `foodctl intake show [options] <image_id>`. */
  usage: string;
  arguments: Item[];
  options: Item[];
  globalOptions: Item[];
  /** A group's commands, each with its page. */
  commands: (Item & { page: string })[];
  /** As the spec writes them: one command a line. */
  examples: string;
  parent: string | undefined;
  guides: Guide[];
}

const CLI_GUIDE: Guide = { file: "cli.md", title: "the rules every command follows: output, exit codes, safety, settings" };

/** The topic guide of the commands under each path (a command takes its nearest ancestor's). */
const GUIDES: Record<string, Guide> = {
  "intake apply": { file: "batch.md", title: "batch input, results and resuming" },
  journal: { file: "journal.md", title: "the journal and undo" },
  undo: { file: "journal.md", title: "the journal and undo" },
  sandbox: { file: "sandbox.md", title: "the sandbox: seeded users, intakes and every rule with curl" },
  smoke: { file: "smoke.md", title: "smoke checks in CI" },
};

function guidesOf(path: readonly string[]): Guide[] {
  for (let length = path.length; length > 0; length--) {
    const guide = GUIDES[path.slice(0, length).join(" ")];
    if (guide) return [CLI_GUIDE, guide];
  }
  return [CLI_GUIDE];
}

/** `<image_id>`, `[positions...]`: an argument as the usage line writes it. */
function argumentTerm(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? "..." : ""}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

const optionItem = (help: Help) => (option: Option) => ({ term: option.flags, description: help.optionDescription(option) });

/** The commands listed under `command` in its help that have pages: a group's own `help` command has none. */
function children(command: Command): Command[] {
  const help = command.createHelp();
  return help.visibleCommands(command).filter((child) => command.commands.includes(child));
}

function pathOf(command: Command): string[] {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names;
}

function pageOf(command: Command): Page {
  const help = command.createHelp();
  const end = helpEndOf(command);
  const title = ["foodctl", ...pathOf(command)].join(" ");
  if (!end) throw new Error(`${title}: its help has no examples (declare it with endHelp in src/program.ts)`);
  return {
    name: manualPage(command),
    title,
    description: help.commandDescription(command),
    notes: end.notes ?? [],
    usage: help.commandUsage(command),
    arguments: help
      .visibleArguments(command)
      .map((argument) => ({ term: argumentTerm(argument), description: help.argumentDescription(argument) })),
    options: help.visibleOptions(command).map(optionItem(help)),
    globalOptions: help.visibleGlobalOptions(command).map(optionItem(help)),
    commands: children(command).map((child) => ({
      term: child.name(),
      description: help.subcommandDescription(child),
      page: manualPage(child),
    })),
    examples: end.examples,
    parent: command.parent ? manualPage(command.parent) : undefined,
    guides: guidesOf(pathOf(command)),
  };
}

/** An IO for building the tree alone: nothing is read or written, help is for a pipe (80 columns). */
function quietIO(): IO {
  const stream = { write: () => true, isTTY: false };
  return { stdout: stream, stderr: stream, stdin: Readable.from([]), env: {}, color: { stdout: false, stderr: false } };
}

/** Every visible command of the tree, the top level first, each followed by its commands. */
export async function readPages(): Promise<Page[]> {
  const program = wholeTree(buildProgram(quietIO(), { exitCode: 0, parseMessage: "" }, new AbortController().signal));
  const walk = (command: Command): Page[] => [pageOf(command), ...children(command).flatMap(walk)];
  return walk(program);
}

/** The exit codes, as `foodctl --help` lists them. */
export function exitCodes(): Item[] {
  return (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((name) => ({ term: String(EXIT[name]), description: EXIT_MEANINGS[name] }));
}
