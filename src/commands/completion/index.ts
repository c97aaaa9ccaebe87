/** `foodctl completion <shell>`, and the values the scripts ask for while completing. */
import { verb, type Noun } from "../spec.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
/** What `foodctl __complete <kind>` can list: looked up when the shell asks, not baked into the script. */
export const LOOKUPS = ["profiles", "sandbox-users"] as const;

const script = verb({
  name: "completion",
  description: "print a shell completion script",
  args: [{ name: "<shell>", description: "bash, zsh or fish", complete: SHELLS }],
  examples: [
    "source <(foodctl completion bash)",
    "source <(foodctl completion zsh)",
    "foodctl completion fish > ~/.config/fish/completions/foodctl.fish",
  ],
  parse: (input) => ({ shell: input.arg(0) }),
  run: async (ctx, { shell }) => (await import("./scripts.js")).completionCommand(ctx, shell),
});

export const completion: Noun = {
  name: "completion",
  description: script.description,
  examples: script.examples,
  verbs: [],
  action: script,
};

const values = verb({
  name: "__complete",
  description: "values for the shell completion scripts, one a line",
  args: [{ name: "<kind>", description: LOOKUPS.join(" or ") }],
  examples: ["foodctl __complete profiles"],
  hidden: true,
  parse: (input) => ({ kind: input.arg(0) }),
  run: async (ctx, { kind }) => (await import("./values.js")).valuesCommand(ctx, kind),
});

export const completionValues: Noun = {
  name: "__complete",
  description: values.description,
  examples: values.examples,
  verbs: [],
  action: values,
  hidden: true,
};
