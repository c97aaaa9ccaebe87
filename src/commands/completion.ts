/** Shell completion scripts generated from the command tree, so they never drift from it. */
import type { Command } from "commander";
import type { Context } from "../context.js";
import { usageError } from "../errors.js";

interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
  description: string;
}

function walk(command: Command, path: string[] = []): Node[] {
  const options = command.options.flatMap((option) => [option.long, option.short].filter((flag): flag is string => Boolean(flag)));
  const node: Node = { path, subcommands: command.commands.map((child) => child.name()), options: [...options, "--help"], description: command.description() };
  return [node, ...command.commands.flatMap((child) => walk(child, [...path, child.name()]))];
}

function bash(nodes: Node[], globals: string[]): string {
  const cases = nodes
    .map((node) => `    "${node.path.join(" ")}") words="${[...node.subcommands, ...node.options, ...(node.path.length ? globals : [])].join(" ")}" ;;`)
    .join("\n");
  return `# bash completion for foodctl: source <(foodctl completion bash)
_foodctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "$path" in
${nodes.filter((node) => node.subcommands.length).map((node) => `      "${node.path.join(" ")}") [[ " ${node.subcommands.join(" ")} " == *" $word "* ]] && path="\${path:+$path }$word" ;;`).join("\n")}
    esac
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [[ "$cur" != -* && -z "\${COMPREPLY[*]}" ]] && COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}
complete -o filenames -F _foodctl foodctl
`;
}

/** zsh runs the bash script through bashcompinit: one script to keep right. */
function zsh(nodes: Node[], globals: string[]): string {
  return `#compdef foodctl
# zsh completion for foodctl: source <(foodctl completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(nodes, globals).split("\n").slice(1).join("\n")}`;
}

function fish(nodes: Node[]): string {
  const lines = ["# fish completion for foodctl: foodctl completion fish > ~/.config/fish/completions/foodctl.fish", "complete -c foodctl -f"];
  for (const node of nodes) {
    // Every word of the path must have been seen: `config list` and `intake list` differ.
    const seen = node.path.map((word) => `__fish_seen_subcommand_from ${word}`).join("; and ");
    const childCondition =
      node.path.length === 0
        ? "__fish_use_subcommand"
        : `${seen}; and not __fish_seen_subcommand_from ${node.subcommands.join(" ")}`;
    for (const child of node.subcommands) lines.push(`complete -c foodctl -n '${childCondition}' -a ${child}`);
    for (const option of node.options.filter((flag) => flag.startsWith("--"))) {
      lines.push(`complete -c foodctl -n '${node.path.length ? seen : "true"}' -l ${option.slice(2)}`);
    }
  }
  lines.push("complete -c foodctl -n '__fish_seen_subcommand_from attach apply' -F");
  return `${lines.join("\n")}\n`;
}

export async function completionCommand(ctx: Context, shell: string, program: Command): Promise<number> {
  const nodes = walk(program);
  // Every node lists its own --help already.
  const globals = nodes[0]!.options.filter((flag) => flag.startsWith("--") && flag !== "--version" && flag !== "--help");
  if (shell === "bash") ctx.io.stdout.write(bash(nodes, globals));
  else if (shell === "zsh") ctx.io.stdout.write(zsh(nodes, globals));
  else if (shell === "fish") ctx.io.stdout.write(fish(nodes));
  else throw usageError(`unknown shell "${shell}" (bash, zsh or fish)`);
  return 0;
}
