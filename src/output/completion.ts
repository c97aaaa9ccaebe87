/**
 * Shell completion scripts from the command tree: commands, options, and the values an option or argument
 * takes (fixed lists, or lists the script asks `foodctl __complete <kind>` for while completing).
 */

type Values = readonly string[] | { lookup: string }; // the specs' Completion: fixed words, or what `foodctl __complete` lists

export interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
  /** Values after an option that takes one, by its long name. */
  optionValues: Map<string, Values | undefined>;
  /** Values of the first argument. */
  argValues: Values | undefined;
}

/** A bash expression for a list of values: fixed words, or the CLI's answer at completion time. */
function bashValues(values: Values): string {
  return "lookup" in values ? `$("\${COMP_WORDS[0]}" __complete ${values.lookup} 2>/dev/null)` : values.join(" ");
}

function bashOptionCases(all: Node[]): string {
  const byFlag = new Map<string, Values | undefined>();
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

function fishValues(values: Values): string {
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

/** The script for `shell`, from every node of the command tree and the global options' long flags. */
export const completionScript = (shell: "bash" | "zsh" | "fish", all: Node[], globals: string[]): string =>
  shell === "fish" ? fish(all) : shell === "zsh" ? zsh(all, globals) : bash(all, globals);
