/** `foodctl completion <shell>`, and the values the scripts ask for while completing. */
import { GLOBALS } from "../globals.js";
import { arg, commandNoun, verb, type Noun } from "../spec.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
/** What `foodctl __complete <kind>` can list: looked up when the shell asks, not baked into the script. */
export const LOOKUPS = ["profiles", "sandbox-users"] as const;

const script = (listNouns: () => Promise<Noun[]>) =>
  verb("completion", "print a shell completion script", {
    globals: GLOBALS.none,
    args: { shell: arg("<shell>", "bash, zsh or fish", SHELLS) },
    examples: `
    source <(foodctl completion bash)
    source <(foodctl completion zsh)
    foodctl completion fish > ~/.config/fish/completions/foodctl.fish
  `,
    run: async (ctx, { shell }) => (await import("./scripts.js")).completionCommand(ctx, shell, await listNouns()),
  });

/** `foodctl completion`, its script written from the nouns `listNouns` gives: src/commands/index.ts hands in its own list, so nothing here imports it back. */
export const completionNoun = (listNouns: () => Promise<Noun[]>) => commandNoun(script(listNouns));

const values = verb("__complete", "values for the shell completion scripts, one a line", {
  globals: GLOBALS.none,
  args: { kind: arg("<kind>", LOOKUPS.join(" or ")) },
  examples: `
    foodctl __complete profiles
  `,
  hidden: true,
  run: async (ctx, { kind }) => (await import("./values.js")).valuesCommand(ctx, kind),
});

export const completionValues = commandNoun(values);
