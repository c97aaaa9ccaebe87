/**
 * Commands as specs: each noun's `src/commands/<noun>/index.ts` declares its verbs (arguments
 * and options keyed by the typed field each is read into, examples, a lazy run, and a parse step
 * where a verb checks or reshapes its input), and `src/program.ts` turns
 * them into the command tree. Nothing here loads config, the client or a printer: `--help`
 * and shell completion read these declarations alone. See `src/commands/intake/index.ts` for
 * how to add a verb or an option.
 */
import type { RawInput } from "./rawInput.js";
import type { GlobalFlag } from "./globals.js";
import type { Context } from "../context.js";
import { usageError } from "../errors.js";

/** Values a shell offers for an option or argument: a fixed list, or a lookup the CLI answers (`foodctl __complete <kind>`). */
export type Completion = readonly string[] | { lookup: "profiles" | "sandbox-users" };

export interface ArgSpec {
  /** As commander writes it: `<image_id>`, `[id]`, `<values...>`, `[positions...]`. */
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
  /**
   * Turns the option's text into its value, or refuses it with a usage error (commander's
   * argParser): the check lives with the option, and the verb reads the value.
   */
  parse?: (text: string) => unknown;
  /** Given again and again (`-H a -H b`), read as the list of values in order, never as one. */
  repeat?: true;
}

/** An argument as a verb declares it: the notation in its name says what the verb reads (see `ArgValue`). */
export interface Arg<N extends string = string> extends ArgSpec {
  name: N;
}

/** An option as a verb declares it: the notation in its flags says what the verb reads (see `OptionValue`), or its `parse`. */
export interface Opt<F extends string = string> extends OptionSpec {
  flags: F;
}

/** An option whose text `parse` turns into a value of type V. */
export interface ParsedOpt<F extends string, V> extends Opt<F> {
  parse: (text: string) => V;
}

/** `arg("<image_id>", "the intake's id")`; a third value gives the shell its values. */
export function arg<const N extends string>(name: N, description?: string, complete?: Completion): Arg<N> {
  return complete ? { name, description, complete } : { name, description };
}

/** `option("--salt <level>", "none, low, medium or high", { complete: LEVELS })`; `{ parse }` types its value. */
export function option<const F extends string, V>(
  flags: F,
  description: string,
  more: Omit<OptionSpec, "flags" | "description" | "parse"> & { parse: (text: string) => V },
): ParsedOpt<F, V>;
export function option<const F extends string>(flags: F, description: string, more?: Omit<OptionSpec, "flags" | "description">): Opt<F>;
export function option(flags: string, description: string, more: Omit<OptionSpec, "flags" | "description"> = {}): Opt {
  return { flags, description, ...more };
}

/** `repeatedOption("-H, --header <header>", "…")`: given any number of times, read as the list of its values. */
export function repeatedOption<const F extends string>(flags: F, description: string): Opt<F> & { repeat: true } {
  return { flags, description, repeat: true };
}

/**
 * `<image_id>` reads as a string (commander refuses the command line without it), `[id]` as a
 * string or undefined, `<values...>` and `[positions...]` as a list.
 */
export type ArgValue<N extends string> = N extends `${string}...${string}`
  ? string[]
  : N extends `[${string}`
    ? string | undefined
    : string;

/** `--salt <level>` reads as its text (undefined when not given); `--dry-run` as true when given; `--no-verify` as true unless negated. */
export type OptionValue<F extends string> = F extends `${string}<${string}` | `${string}[${string}` ? string | undefined : boolean;

/** An option's value as its verb reads it: a repeated option (`repeat: true`) as the list of its values. */
type ReadOption<O extends Opt> = O extends { repeat: true } ? string[] : OptionValue<O["flags"]>;

export type Args = Record<string, Arg>;
/** Keyed by commander's name for the option: `allItems` for `--all-items`, `verify` for `--no-verify`, `yes` for `-y, --yes`. */
export type Options = Record<string, Opt>;
/** No arguments, or no options. */
export type None = Record<never, never>;

/** What a verb with these arguments and options reads from its command line, one field each. */
export type Input<A extends Args = None, O extends Options = None> = { [K in keyof A]: ArgValue<A[K]["name"]> } & {
  [K in keyof O]: O[K] extends ParsedOpt<string, infer V> ? V | undefined : ReadOption<O[K]>;
};

export type Run = (ctx: Context) => Promise<number | void>;

export interface VerbSpec<A extends Args, O extends Options, T> {
  /** In command-line order. */
  args?: A;
  /** In the order the help lists them. */
  options?: O;
  /** A shell transcript: one command a line, as typed (see `examplesOf` in src/help.ts). */
  examples: string;
  notes?: string[];
  hidden?: boolean;
  /** The global options this command reads, the only ones its help lists (all when not said; see GLOBALS). */
  globals?: readonly GlobalFlag[];
  /** Checks or reshapes what was read; may refuse it with a usage error (nothing loaded, nothing sent). Without it, the verb runs on what was read. */
  parse?(input: Input<A, O>): T;
  /** Loads the verb's module (`await import(...)`) and runs it. */
  run(ctx: Context, input: T): Promise<number | void>;
}

export interface Verb {
  name: string;
  description: string;
  args?: ArgSpec[];
  /** With the field each is read into (commander's name for it: test/unit/commandSpecs.test.ts checks they agree). */
  options?: (OptionSpec & { key: string })[];
  examples: string;
  notes?: string[];
  hidden?: boolean;
  globals?: readonly GlobalFlag[];
  /** Parses now, runs later: usage errors come before a context exists. */
  prepare(input: RawInput): Run;
}

/**
 * `verb("show", "one intake: …", { args, options, examples, run })`: the name and the one-line
 * description as commander's `.command()` and `.description()` take them, then the rest. Keeps
 * the verb's input and run types together, then hides them from the assembly.
 */
export function verb<A extends Args = None, O extends Options = None, T = Input<A, O>>(
  name: string,
  description: string,
  spec: VerbSpec<A, O, T>,
): Verb {
  const { args = {} as A, options = {} as O, parse, run, ...declared } = spec;
  return {
    name,
    description,
    ...declared,
    ...(spec.args && { args: Object.values(args) }),
    ...(spec.options && { options: Object.entries(options).map(([key, option]) => ({ ...option, key })) }),
    prepare(input) {
      const read = input.read(args, options) as Input<A, O>;
      const parsed = parse ? parse(read) : (read as T);
      return (ctx) => run(ctx, parsed);
    },
  };
}

export interface Noun {
  name: string;
  description: string;
  examples: string;
  verbs: Verb[];
  /** What the noun does alone (`foodctl sandbox`, `foodctl completion bash`); a group without it shows its help. */
  action?: Verb;
  hidden?: boolean;
}

/** `group("intake", "find, inspect and correct intakes", { examples, verbs })`: a noun whose verbs do the work, declared as a verb is. */
export function group(name: string, description: string, spec: { examples: string; verbs: Verb[] }): Noun {
  return { name, description, ...spec };
}

/** A noun that is a command of its own (`foodctl undo`, `foodctl journal`), with its name, help and visibility, and any verbs under it. */
export function commandNoun(action: Verb, verbs: Verb[] = []): Noun {
  const { name, description, examples, hidden } = action;
  return { name, description, examples, verbs, action, ...(hidden && { hidden }) };
}

// ---- Shared option groups: declared once, used by every verb that takes them. ----

interface ChangeDescriptions {
  dryRun?: string;
  verify?: string;
  curl?: string;
}

/** `--curl`, with `--dry-run` (docs/cli.md, dry run); the program refuses it alone or with `--json`. */
export const curlOption = (
  description = "with --dry-run: print the request as one curl command, the token read when it runs",
): Opt<"--curl"> => option("--curl", description);

/** `--dry-run`, `--curl` and `--no-verify`, and (where it applies) `--strict` first; a verb may say what they mean for it. */
export function changeOptions(describe?: ChangeDescriptions): {
  dryRun: Opt<"--dry-run">;
  curl: Opt<"--curl">;
  verify: Opt<"--no-verify">;
};
export function changeOptions(describe: ChangeDescriptions & { strict: string }): {
  strict: Opt<"--strict">;
  dryRun: Opt<"--dry-run">;
  curl: Opt<"--curl">;
  verify: Opt<"--no-verify">;
};
export function changeOptions(describe: ChangeDescriptions & { strict?: string } = {}): Options {
  const options = {
    dryRun: option("--dry-run", describe.dryRun ?? "print the request that would be sent and send nothing"),
    curl: curlOption(describe.curl),
    verify: option("--no-verify", describe.verify ?? "skip reading the intake again after the change"),
  };
  return describe.strict ? { strict: option("--strict", describe.strict), ...options } : options;
}

export interface ChangeFlags {
  dryRun: boolean;
  curl: boolean;
  verify: boolean;
  strict: boolean;
}

/**
 * `--force`: go on although the intake changed since foodctl read it (the guard against undoing
 * someone else's change); each verb says what it then does.
 */
export const forceOption = (description: string): Opt<"--force"> => option("--force", description);

/** `--results <file>` of `intake apply` and `undo --batch`: a file beside stdout, which carries the results already. */
export function parseResultsFile(path: string): string {
  if (path === "-" || path === "") throw usageError("--results takes a file name (the results already go to stdout)");
  return path;
}

/** The one spelling of the confirmation skip, for every verb that asks: `yes: YES_OPTION`. */
/** How many intakes a batch (`intake apply`, `undo --batch`) changes at once, unless --concurrency says. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

/** --concurrency, read where the option is declared: a whole number from 1 to 64 (exit 2 otherwise). */
export function parseConcurrency(text: string): number {
  const concurrency = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY))
    throw usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${text}"`);
  return concurrency;
}

export const YES_OPTION = option("-y, --yes", "do not ask (required when not on a terminal)");

/** `--retries <n>`: 0 to 10 extra attempts. */
export function parseRetries(text: string): number {
  if (!/^[0-9]{1,2}$/.test(text) || Number(text) > 10) throw usageError(`--retries must be a whole number from 0 to 10, got "${text}"`);
  return Number(text);
}

/** Options of every command, shown in each command's help under "Global Options". */
export const CONNECTION_OPTIONS: OptionSpec[] = [
  { flags: "--profile <name>", description: "config profile (env FOODCTL_PROFILE)", complete: { lookup: "profiles" } },
  { flags: "--api-url <url>", description: "base URL of the API (env FOODCTL_API_URL)" },
  { flags: "--user <id>", description: "act for this APIUser, sent as user_id (env FOODCTL_USER)" },
  { flags: "--tz <zone>", description: "the user's IANA time zone, for dates and times shown (env FOODCTL_TZ; config key timezone)" },
  { flags: "--timeout <seconds>", description: "per-request timeout (env FOODCTL_TIMEOUT; default 30)" },
  { flags: "--retries <n>", description: "extra attempts for network errors, 429 and 502/503/504 (default 2)", parse: parseRetries },
];

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine output: one JSON document on stdout, errors as JSON on stderr" };

export const OUTPUT_OPTIONS: OptionSpec[] = [
  JSON_OPTION,
  { flags: "--wide", description: "tables show every cell whole instead of fitting the terminal" },
  { flags: "--verbose", description: "HTTP trace on stderr, Authorization masked (env FOODCTL_DEBUG=1)" },
  { flags: "--no-color", description: "no colour (also NO_COLOR; FORCE_COLOR forces it)" },
  { flags: "--no-pager", description: "no pager for long output on a terminal (also an empty FOODCTL_PAGER)" },
  { flags: "--no-journal", description: "do not record changes in the journal (config key journal)" },
  {
    flags: "--reason <text>",
    description: "why: a ticket, a sentence, recorded with every change in the journal (journal: only entries whose reason holds it)",
  },
];

/** In the order `foodctl --help` lists them. */
export const GLOBAL_OPTIONS: OptionSpec[] = [
  ...CONNECTION_OPTIONS.slice(0, 3),
  JSON_OPTION,
  ...CONNECTION_OPTIONS.slice(3),
  ...OUTPUT_OPTIONS.slice(1),
];
