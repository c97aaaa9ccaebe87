/**
 * run(argv, deps) → exit code. The one place where errors become exit codes and lines on
 * stderr (JSON under --json); no stack trace unless --verbose.
 */
import { CommanderError, type Command } from "commander";
import type { Transport } from "./api/transport.js";
import type { Clock } from "./clock.js";
import { CliError, errorJson, EXIT, toCliError, usageError } from "./errors.js";
import { decideColors, openedStreams, processIO, withoutWidth, type IO } from "./io.js";
import { cleanForTerminal } from "./sanitize.js";
import { styler } from "./output/style.js";
import { buildProgram, type ProgramState } from "./program.js";
import { redactSecrets } from "./secrets.js";

export interface RunDeps {
  io?: IO;
  /** Ctrl-C; the process entry wires SIGINT and SIGTERM to it. */
  signal?: AbortSignal;
  /** Every API request goes through it; node:http(s) by default, through a proxy when the environment names one. */
  transport?: Transport;
  /** Waits and request time limits; by default the system clock. */
  clock?: Clock;
}

/** How the run's output and errors look, from the global options commander read. */
interface OutputChoice {
  json: boolean;
  verbose: boolean;
}

export async function run(argv: string[], deps: RunDeps = {}): Promise<number> {
  const io = deps.io ?? processIO();
  const interrupt = deps.signal ? { signal: deps.signal, stop: () => {} } : watchSignals();
  const state: ProgramState = { exitCode: 0, parseMessage: "" };
  const program = buildProgram(io, state, interrupt.signal, { transport: deps.transport, clock: deps.clock });
  let output: OutputChoice | undefined;
  // Decided once commander has read the line, before any command runs.
  program.hook("preAction", () => void (output ??= chooseOutput(io, program)));
  try {
    await program.parseAsync(argv, { from: "user" });
    return state.exitCode;
  } catch (error) {
    // A line commander refused part-way: the options it had read by then.
    const { json, verbose } = (output ??= chooseOutput(io, program));
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.ok;
      // A command group without its subcommand (`foodctl intake`): help went to stderr; a usage error for scripts.
      if (error.code === "commander.help") return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      if (error.code === "commander.executeSubCommandAsync") return EXIT.ok;
      const message = state.parseMessage || error.message.replace(/^error:\s*/, "");
      return report(io, usageError(message, { hint: "run with --help for usage" }), json, verbose);
    }
    return report(io, toCliError(error), json, verbose);
  } finally {
    // `--help` is shown as `help` shows it: through the pager when longer than the screen.
    await state.showHeld?.();
    interrupt.stop();
  }
}

/**
 * `--json`, `--verbose`, `--no-color` and `--wide` as commander read them: the colour of both
 * streams and the width of tables are settled here, once for the run (docs/cli.md, colour, Output).
 */
function chooseOutput(io: IO, program: Command): OutputChoice {
  const options = program.opts<{ json?: boolean; verbose?: boolean; color?: boolean; wide?: boolean }>();
  const verbose = options.verbose === true || io.env.FOODCTL_DEBUG === "1";
  if (verbose) process.setSourceMapsEnabled(true);
  io.color = decideColors(io, options.color === false);
  if (options.wide === true) io.stdout = withoutWidth(io.stdout);
  return { json: options.json === true, verbose };
}

/**
 * Ctrl-C and SIGTERM (`kill`, `timeout`, a CI runner, `foodctl sandbox stop`) abort the run's
 * signal alike, so the command stops, reports and exits 130; a second signal ends the process at once.
 */
function watchSignals(): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const stop = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  return { signal: controller.signal, stop };
}

/**
 * Ends the process with `code` once `run` has returned (the bin's last step): at once when every
 * write has been handed to the system, as Node's own ending (closing the kept-alive connection,
 * freeing the heap) is nothing the user waits for; when a stream still queues writes (a pipe that
 * was full), the process ends as Node ends it, after they are written. 'exit' listeners (the code
 * cache's write) run either way.
 */
export function exit(code: number, streams: readonly NodeJS.WritableStream[] = openedStreams()): void {
  process.exitCode = code;
  const queued = streams.some((stream) => (stream as NodeJS.WritableStream & { writableLength?: number }).writableLength);
  if (!queued) process.exit(code);
}

/** Prints an error once, in the form the run asked for, and returns its exit code. */
export function report(io: IO, error: CliError, json: boolean, verbose: boolean): number {
  // The stored token too: a server may echo whatever it was sent, so anything shaped like a JWT is masked.
  const clean = (text: string) => redactSecrets(text, [io.env.FOODCTL_TOKEN]);
  if (json) {
    io.stderr.write(`${JSON.stringify({ error: errorJson(error, clean) })}\n`);
  } else {
    io.stderr.write(`${styler(io.color.stderr).red("error:")} ${cleanForTerminal(clean(error.message))}\n`);
    if (error.hint) io.stderr.write(`hint: ${cleanForTerminal(clean(error.hint))}\n`);
  }
  if (verbose && error.exitCode === EXIT.failure) {
    const cause = (error as { cause?: unknown }).cause;
    const stack = cause instanceof Error ? cause.stack : error.stack;
    if (stack) io.stderr.write(`${clean(stack)}\n`);
  }
  return error.exitCode;
}

export { CliError };
