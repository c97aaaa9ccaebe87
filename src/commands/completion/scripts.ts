/**
 * Shell completion scripts generated from the command specs, so they never drift from them:
 * commands, options, and the values an option or argument takes (fixed lists, or lists the
 * script asks `foodctl __complete <kind>` for while completing).
 */
import type { Context } from "../../context.js";
import { usageError } from "../../errors.js";
import { HELP_TOPIC_NAMES } from "../../help.js";
import { GLOBAL_OPTIONS, type Completion, type Noun, type OptionSpec, type Verb } from "../spec.js";

interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
  /** Values after an option that takes one, by its long name. */
  optionValues: Map<string, Completion | undefined>;
  /** Values of the first argument. */
  argValues: Completion | undefined;
}

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
    all.push(
      nodeFor(
        [noun.name],
        verbs.map((verb) => verb.name),
        noun.action?.options ?? [],
        noun.action,
      ),
    );
    for (const verb of verbs) all.push(nodeFor([noun.name, verb.name], [], verb.options ?? [], verb));
  }
  return all;
}

/** A bash expression for a list of values: fixed words, or the CLI's answer at completion time. */
function bashValues(values: Completion): string {
  return "lookup" in values ? `$("\${COMP_WORDS[0]}" __complete ${values.lookup} 2>/dev/null)` : values.join(" ");
}

function bashOptionCases(all: Node[]): string {
  const byFlag = new Map<string, Completion | undefined>();
  for (const node of all) for (const [flag, values] of node.optionValues) if (!byFlag.has(flag) || values) byFlag.set(flag, values);
  // An option's value with nothing to offer falls through to file names.
  return [...byFlag].map(([flag, values]) => `    ${flag}) words="${values ? bashValues(values) : ""}" ;;`).join("\n");
}

/** Walks the words typed so far to the command path they name (`intake set-modifiers`). */
function bashPathCases(all: Node[]): string {
  const groups = all.filter((node) => node.subcommands.length);
  return groups
    .map(
      (node) => `      "${node.path.join(" ")}") [[ " ${node.subcommands.join(" ")} " == *" $word "* ]] && path="\${path:+$path }$word" ;;`,
    )
    .join("\n");
}

function bash(all: Node[], globals: string[]): string {
  const cases = all
    .map((node) => {
      const words = [
        ...(node.argValues ? [bashValues(node.argValues)] : []),
        ...node.subcommands,
        ...node.options,
        ...(node.path.length ? globals : []),
      ];
      return `      "${node.path.join(" ")}") words="${words.join(" ")}" ;;`;
    })
    .join("\n");
  return `# bash completion for foodctl: source <(foodctl completion bash)
_foodctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "$path" in
${bashPathCases(all)}
    esac
  done
  local words=""
  case "$prev" in
${bashOptionCases(all)}
    *)
      case "$path" in
${cases}
      esac ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [[ "$cur" != -* && -z "\${COMPREPLY[*]}" ]] && COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}
complete -o filenames -F _foodctl foodctl
`;
}

/** zsh runs the bash script through bashcompinit: one script to keep right. */
function zsh(all: Node[], globals: string[]): string {
  return `#compdef foodctl
# zsh completion for foodctl: source <(foodctl completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(all, globals).split("\n").slice(1).join("\n")}`;
}

function fishValues(values: Completion): string {
  return "lookup" in values ? `'(foodctl __complete ${values.lookup} 2>/dev/null)'` : `'${values.join(" ")}'`;
}

function fish(all: Node[]): string {
  const lines = [
    "# fish completion for foodctl: foodctl completion fish > ~/.config/fish/completions/foodctl.fish",
    "complete -c foodctl -f",
  ];
  for (const node of all) {
    // Every word of the path must have been seen: `config list` and `intake list` differ.
    const seen = node.path.map((word) => `__fish_seen_subcommand_from ${word}`).join("; and ");
    const childCondition =
      node.path.length === 0 ? "__fish_use_subcommand" : `${seen}; and not __fish_seen_subcommand_from ${node.subcommands.join(" ")}`;
    for (const child of node.subcommands) lines.push(`complete -c foodctl -n '${childCondition}' -a ${child}`);
    const condition = node.path.length ? seen : "true";
    if (node.argValues) lines.push(`complete -c foodctl -n '${condition}' -a ${fishValues(node.argValues)}`);
    for (const option of node.options.filter((flag) => flag.startsWith("--"))) {
      const values = node.optionValues.get(option);
      lines.push(`complete -c foodctl -n '${condition}' -l ${option.slice(2)}${values ? ` -x -a ${fishValues(values)}` : ""}`);
    }
  }
  lines.push("complete -c foodctl -n '__fish_seen_subcommand_from attach apply' -F");
  return `${lines.join("\n")}\n`;
}

/** `nouns`: every noun of the command line, as src/commands/index.ts lists them. */
export async function completionCommand(ctx: Context, shell: string, nouns: readonly Noun[]): Promise<number> {
  const all = nodes(nouns);
  // Every node lists its own --help already.
  const globals = GLOBAL_OPTIONS.flatMap(flagsOf).filter((flag) => flag.startsWith("--"));
  if (shell === "bash") ctx.io.stdout.write(bash(all, globals));
  else if (shell === "zsh") ctx.io.stdout.write(zsh(all, globals));
  else if (shell === "fish") ctx.io.stdout.write(fish(all));
  else throw usageError(`unknown shell "${shell}" (bash, zsh or fish)`);
  return 0;
}
