/** `foodctl completion <shell>`: the command tree read from the specs, so the script never drifts from them (written by output/completion.ts). */
import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { HELP_TOPIC_NAMES } from "../../help.js";
import { completionScript, type Node } from "../../output/completion.js";
import { GLOBAL_OPTIONS, type Completion, type Noun, type OptionSpec, type Verb } from "../spec.js";

function flagsOf(option: OptionSpec): string[] {
  return option.flags.split(/[ ,]+/).filter((word) => word.startsWith("-"));
}

function nodeFor(path: string[], subcommands: string[], options: OptionSpec[], action?: Verb): Node {
  const optionValues = new Map<string, Completion | undefined>();
  for (const option of options) {
    const long = flagsOf(option).find((flag) => flag.startsWith("--"));
    if (long && /[<[]/.test(option.flags)) optionValues.set(long, option.complete ?? option.choices);
  }
  return { path, subcommands, options: [...options.flatMap(flagsOf), "--help"], optionValues, argValues: action?.args?.[0]?.complete };
}

function nodes(specs: readonly Noun[]): Node[] {
  const nouns = specs.filter((noun) => !noun.hidden);
  const all = [nodeFor([], [...nouns.map((noun) => noun.name), "help"], [...GLOBAL_OPTIONS, { flags: "-V, --version", description: "" }])];
  // `foodctl help <Tab>`: a command or a topic.
  all.push(nodeFor(["help"], [...nouns.map((noun) => noun.name), ...HELP_TOPIC_NAMES], []));
  for (const noun of nouns) {
    const verbs = noun.verbs.filter((verb) => !verb.hidden);
    const names = verbs.map((verb) => verb.name);
    all.push(nodeFor([noun.name], names, noun.action?.options ?? [], noun.action));
    for (const verb of verbs) all.push(nodeFor([noun.name, verb.name], [], verb.options ?? [], verb));
  }
  return all;
}

/** `nouns`: every noun of the command line, as src/commands/index.ts lists them. */
export async function completionCommand(ctx: Context, shell: string, nouns: readonly Noun[]): Promise<number> {
  if (shell !== "bash" && shell !== "zsh" && shell !== "fish") throw usageError(`unknown shell "${shell}" (bash, zsh or fish)`);
  // Every node lists its own --help already.
  const globals = GLOBAL_OPTIONS.flatMap(flagsOf).filter((flag) => flag.startsWith("--"));
  ctx.printRaw(completionScript(shell, nodes(nouns), globals));
  return 0;
}
