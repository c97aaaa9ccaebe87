/**
 * The text `--help` adds after commander's own: examples, notes, the exit codes and the manual
 * page. Lines fit the help width (the terminal's, else 80 columns).
 */
import { Help, type Command, type Option } from "commander";
import type { OutputStream } from "./io.js";
import { EXIT, EXIT_MEANINGS } from "./errors.js";

/**
 * "Global Options" are the program's own: commander lists every ancestor's, which made a noun's
 * options (`sandbox --port`) look global in its verbs' help (`sandbox stop --port` means another port).
 */
export function programOptions(command: Command): Option[] {
  let root = command;
  while (root.parent) root = root.parent;
  if (root === command) return [];
  // A command that says which global options it reads lists only those (not --version, the program's own);
  // a group (`intake`), what its commands read together.
  const group = command.commands.length ? command.commands.flatMap((verb) => usedGlobals.get(verb) ?? []) : undefined;
  const used = usedGlobals.get(command) ?? group;
  return root.options.filter((option) => !option.hidden && (used === undefined || used.includes(option.long ?? "")));
}

/** The global options a command reads, from its spec (`globals`); a command not in it lists them all. */
export const usedGlobals = new WeakMap<Command, readonly string[]>();

/** Words of `text` in lines of at most `width`; a word longer than that stands alone. */
export function wrapText(text: string, width: number, indent = ""): string[] {
  return wrapWords(text.split(/\s+/).filter(Boolean), width, indent);
}

/** Words laid into lines of at most `width` (a longer word stands alone on its line), continued lines indented. */
function wrapWords(words: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * One example: the comment's padding shrinks first; then the comment goes on lines of its own
 * above the command (a `\` at the end of a comment continues nothing: a pasted example would run
 * the comment's next line); then the command wraps with `\` continuations.
 */
export function exampleLines(example: string, width: number): string[] {
  const line = `  ${example}`;
  if (line.length <= width) return [line];
  const compact = line.replace(/\s{2,}#/, "  #");
  if (compact.length <= width) return [compact];
  const commentLines = (text: string) => wrapText(`# ${text}`, width - 2, "# ").map((wrapped) => `  ${wrapped}`);
  if (example.startsWith("# ")) return commentLines(example.slice(2));
  const comment = /\s{2,}# (.*)$/.exec(example);
  if (comment) return [...commentLines(comment[1]!), ...exampleLines(example.slice(0, comment.index), width)];
  // Two columns of indent and two for " \\" at the end of each continued line; broken only between
  // shell words, never inside a quoted one (pasted, a break there would land in the value).
  const lines = wrapWords(example.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [], width - 4, "    ");
  return lines.map((text, index) => `  ${text}${index < lines.length - 1 ? " \\" : ""}`);
}

/**
 * A spec's examples as written: a shell transcript, one command a line as a user types it (no
 * quoting for TypeScript), indentation and blank lines ignored.
 */
export function examplesOf(block: string): string[] {
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

export function examplesText(examples: string, width: number): string {
  return `\nExamples:\n${examplesOf(examples)
    .flatMap((example) => exampleLines(example, width))
    .join("\n")}\n`;
}

export function paragraph(text: string, width: number): string {
  return `${wrapText(text, width).join("\n")}\n`;
}

/** The help topics (`foodctl help environment`): their text is in src/helpTopics.ts, loaded only to show one. */
export const HELP_TOPIC_SUMMARIES = {
  environment: "every environment variable foodctl reads, what it does, its default and its option",
  "exit-codes": "what each exit code means",
  formatting: "output on a terminal, piped and with --json; colour, widths and the pager",
  dates: "the forms dates and time zones take",
} as const;

export type HelpTopicName = keyof typeof HELP_TOPIC_SUMMARIES;

export const HELP_TOPIC_NAMES = Object.keys(HELP_TOPIC_SUMMARIES) as HelpTopicName[];

export function isHelpTopic(word: string): word is HelpTopicName {
  return Object.hasOwn(HELP_TOPIC_SUMMARIES, word);
}

/** "0 ok, 1 unexpected, 2 usage, …" from the one exit-code table. */
export function exitCodesText(): string {
  const codes = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((name) => `${EXIT[name]} ${EXIT_MEANINGS[name]}`);
  return `Exit codes: ${codes.join(", ")}.`;
}

/** What a command's help ends with; the manual's generator (scripts/docs/manual.ts) shows the same. */
export interface HelpEnd {
  examples: string;
  /** Sentences after the examples. */
  notes?: readonly string[];
}

const helpEnds = new WeakMap<Command, HelpEnd>();

/** The examples and notes `endHelp` gave this command. */
export const helpEndOf = (command: Command): HelpEnd | undefined => helpEnds.get(command);

/** `foodctl-intake-show`: the command's page in man/ and docs/manual/ (`npm run docs`). */
export function manualPage(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join("-");
}

/** Listed in its parent's help, and the parent too: hidden commands have no manual page. */
function listed(command: Command): boolean {
  const parent = command.parent;
  return !parent || (parent.createHelp().visibleCommands(parent).includes(command) && listed(parent));
}

/**
 * Ends a command's help with its examples, its notes, the exit codes (the top level only) and
 * the line naming its manual page.
 */
export function endHelp(command: Command, end: HelpEnd, width: () => number): Command {
  helpEnds.set(command, end);
  return command.addHelpText("after", () => {
    const notes = [...(end.notes ?? []), ...(command.parent ? [] : [exitCodesText()])];
    const see = listed(command) ? [`see: man ${manualPage(command)}`] : [];
    return `${examplesText(end.examples, width())}\n${[...notes, ...see].map((text) => paragraph(text, width())).join("")}`;
  });
}

/** COLUMNS when set (a script asking for a width), else the terminal's width, else 80 columns (a pipe, a file, a test). */
export function helpWidth(stream: OutputStream, env: NodeJS.ProcessEnv): number {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return Math.max(columns, MIN_HELP_WIDTH);
  return stream.isTTY === true && typeof stream.columns === "number" && stream.columns > 0 ? stream.columns : 80;
}

/** Narrower than this, help is still wrapped at this width: a word per line helps nobody. */
const MIN_HELP_WIDTH = 20;
/** An option's description keeps at least this many columns beside its term, else it goes on the lines under it. */
const MIN_DESCRIPTION_WIDTH = 30;

/**
 * An option or argument of help at any width: beside its term while the description keeps
 * MIN_DESCRIPTION_WIDTH columns, else under it, indented (commander would leave it unwrapped).
 */
export function formatHelpItem(term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  if (!description || width - termWidth - 4 >= MIN_DESCRIPTION_WIDTH)
    return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
  const lines = helper.boxWrap(description, width - 6).split("\n");
  return [`  ${term}`, ...lines.map((line) => `      ${line}`)].join("\n");
}

/** Commander's help, with a usage line longer than the width wrapped under "Usage:". */
export function formatHelp(command: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(helper, command, helper);
  const width = helper.helpWidth ?? 80;
  const [first, ...rest] = text.split("\n");
  if (first === undefined || first.length <= width || !first.startsWith("Usage: ")) return text;
  return [...wrapText(first, width, "       "), ...rest].join("\n");
}

/**
 * Commander's own stdout (`--help`, `--version`): held until the run ends, then shown as `help`
 * shows it, through the pager when longer than the screen (ProgramState.showHeld); or taken (by `help`, to page it).
 */
export function helpTaker(): {
  writeOut: (text: string) => void;
  take: (command: Command) => string;
  /** What commander wrote since the last call, cleared. */
  held: () => string;
} {
  let taken: string[] | undefined;
  let held: string[] = [];
  return {
    writeOut: (text) => void (taken ?? held).push(text),
    take(command) {
      taken = [];
      command.outputHelp();
      const text = taken.join("");
      taken = undefined;
      return text;
    },
    held() {
      const text = held.join("");
      held = [];
      return text;
    },
  };
}
