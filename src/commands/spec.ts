/**
 * Commands as specs: each noun's `src/commands/<noun>/index.ts` declares its verbs (arguments,
 * options, examples, a parse step giving typed input, a lazy run), and `src/program.ts` turns
 * them into the command tree. Nothing here loads config, zod, the client or a printer: `--help`
 * and shell completion read these declarations alone. See `src/commands/intake/index.ts` for
 * how to add a verb or an option.
 */
import type { Context } from "../context.js";

/** Values a shell offers for an option or argument: a fixed list, or a lookup the CLI answers (`foodctl __complete <kind>`). */
export type Completion = readonly string[] | { lookup: "profiles" | "sandbox-users" };

export interface ArgSpec {
  /** As commander writes it: `<image_id>`, `[positions...]`. */
  name: string;
  description?: string;
  complete?: Completion;
}

export interface OptionSpec {
  /** As commander writes it: `--dry-run`, `--salt <level>`, `-y, --yes`, `--no-verify`. */
  flags: string;
  description: string;
  defaultValue?: string;
  choices?: readonly string[];
  complete?: Completion;
}

/** What the command line gave a verb, read with types by its parse step. */
export class RawInput {
  constructor(
    private readonly args: readonly (string | string[] | undefined)[],
    private readonly options: Readonly<Record<string, unknown>>,
  ) {}

  /** A required argument (commander refuses the command line without it). */
  arg(index: number): string {
    const value = this.args[index];
    return typeof value === "string" ? value : "";
  }

  /** A variadic argument: `<values...>` or `[positions...]`. */
  list(index: number): string[] {
    const value = this.args[index];
    return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  }

  /** A boolean option: `--dry-run` is `flag("dryRun")`. */
  flag(name: string): boolean {
    return this.options[name] === true;
  }

  /** A negatable option, on unless negated: `--no-verify` is `on("verify")`. */
  on(name: string): boolean {
    return this.options[name] !== false;
  }

  /** An option's value: `--salt <level>` is `text("salt")`. */
  text(name: string): string | undefined {
    const value = this.options[name];
    return typeof value === "string" ? value : undefined;
  }
}

export type Run = (ctx: Context) => Promise<number | void>;

export interface VerbSpec<T> {
  name: string;
  description: string;
  args?: ArgSpec[];
  options?: OptionSpec[];
  examples: string[];
  hidden?: boolean;
  /** Typed input from the command line; may refuse it with a usage error (nothing loaded, nothing sent). */
  parse(input: RawInput): T;
  /** Loads the verb's module (`await import(...)`) and runs it. */
  run(ctx: Context, input: T): Promise<number | void>;
}

export interface Verb extends Omit<VerbSpec<unknown>, "parse" | "run"> {
  /** Parses now, runs later: usage errors come before a context exists. */
  prepare(input: RawInput): Run;
}

/** Keeps a verb's parse and run types together, then hides them from the assembly. */
export function verb<T>(spec: VerbSpec<T>): Verb {
  const { parse, run, ...declared } = spec;
  return {
    ...declared,
    prepare(input) {
      const parsed = parse(input);
      return (ctx) => run(ctx, parsed);
    },
  };
}

export interface Noun {
  name: string;
  description: string;
  examples: string[];
  verbs: Verb[];
  /** What the noun does alone (`foodctl sandbox`, `foodctl completion bash`); a group without it shows its help. */
  action?: Verb;
  hidden?: boolean;
}

// ---- Shared option groups: declared once, used by every verb that takes them. ----

/** `--dry-run`, `--no-verify` and (where it applies) `--strict`; a verb may say what they mean for it. */
export function changeOptions(describe: { dryRun?: string; verify?: string; strict?: string } = {}): OptionSpec[] {
  const options = [
    { flags: "--dry-run", description: describe.dryRun ?? "print the request that would be sent and send nothing" },
    { flags: "--no-verify", description: describe.verify ?? "skip reading the intake again after the change" },
  ];
  return describe.strict ? [{ flags: "--strict", description: describe.strict }, ...options] : options;
}

export interface ChangeFlags {
  dryRun: boolean;
  verify: boolean;
  strict: boolean;
}

export function readChangeFlags(input: RawInput): ChangeFlags {
  return { dryRun: input.flag("dryRun"), verify: input.on("verify"), strict: input.flag("strict") };
}

/** The one spelling of the confirmation skip, for every verb that asks. */
export const YES_OPTION: OptionSpec = { flags: "-y, --yes", description: "do not ask (required when not on a terminal)" };

/** Options of every command, shown in each command's help under "Global Options". */
export const CONNECTION_OPTIONS: OptionSpec[] = [
  { flags: "--profile <name>", description: "config profile (env FOODCTL_PROFILE)", complete: { lookup: "profiles" } },
  { flags: "--api-url <url>", description: "base URL of the API (env FOODCTL_API_URL)" },
  { flags: "--user <id>", description: "act for this APIUser, sent as user_id (env FOODCTL_USER)" },
  { flags: "--timeout <seconds>", description: "per-request timeout (env FOODCTL_TIMEOUT; default 30)" },
  { flags: "--retries <n>", description: "extra attempts for network errors, 429 and 502/503/504 (default 2)" },
];

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine output: one JSON document on stdout, errors as JSON on stderr" };

export const OUTPUT_OPTIONS: OptionSpec[] = [
  JSON_OPTION,
  { flags: "--wide", description: "tables show every cell whole instead of fitting the terminal" },
  { flags: "--verbose", description: "HTTP trace on stderr, Authorization masked (env FOODCTL_DEBUG=1)" },
  { flags: "--no-color", description: "no colour (also NO_COLOR; FORCE_COLOR forces it)" },
  { flags: "--no-journal", description: "do not record changes in the journal (config key journal)" },
];

/** In the order `foodctl --help` lists them. */
export const GLOBAL_OPTIONS: OptionSpec[] = [
  ...CONNECTION_OPTIONS.slice(0, 3),
  JSON_OPTION,
  ...CONNECTION_OPTIONS.slice(3),
  ...OUTPUT_OPTIONS.slice(1),
];
