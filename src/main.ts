/**
 * run(argv, deps) → exit code. The one place where errors become exit codes and lines on
 * stderr (JSON under --json); no stack trace unless --verbose.
 */
import type { Transport } from "./api/transport.js";
import type { Clock } from "./clock.js";
import { CliError, EXIT, toCliError, usageError } from "./errors.js";
import { decideColors, processIO, withoutWidth, type IO } from "./io.js";
import { cleanForTerminal } from "./sanitize.js";
import { styler } from "./output/style.js";
import { redactSecrets } from "./secrets.js";
import { VERSION } from "./version.js";

export interface RunDeps {
  io?: IO;
  /** Ctrl-C; the process entry wires SIGINT to it. */
  signal?: AbortSignal;
  /** Every API request goes through it; node:http(s) by default, through a proxy when the environment names one. */
  transport?: Transport;
  /** Waits and request time limits; by default the system clock. */
  clock?: Clock;
}

export async function run(argv: string[], deps: RunDeps = {}): Promise<number> {
  const io = deps.io ?? processIO();
  // The version alone is answered before commander and the command tree load (start-up cost).
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  let signal = deps.signal;
  let removeSigint = () => {};
  if (!signal) {
    const controller = new AbortController();
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      controller.abort();
    };
    // SIGTERM (`kill`, `foodctl sandbox stop`) aborts the same way, so a sandbox closes and releases its state file's lock;
    // whatever does not end on the abort ends 2 s later.
    const onSigterm = () => {
      controller.abort();
      setTimeout(() => process.exit(EXIT.interrupted), 2000).unref();
    };
    process.on("SIGINT", onSigint);
    process.on("SIGTERM", onSigterm);
    removeSigint = () => {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigterm);
    };
    signal = controller.signal;
  }
  const json = argv.includes("--json");
  const verbose = argv.includes("--verbose") || io.env.FOODCTL_DEBUG === "1";
  if (verbose) process.setSourceMapsEnabled(true);
  // The one colour decision of the run (docs/cli.md, colour).
  io.color = decideColors(io, argv.includes("--no-color"));
  // `--wide`: tables are not fitted to a width (docs/cli.md, Output).
  if (argv.includes("--wide")) io.stdout = withoutWidth(io.stdout);

  const state = { exitCode: 0, parseMessage: "" };
  const { CommanderError, parseCommandLine } = await import("./program.js");
  try {
    await parseCommandLine(io, state, signal, { transport: deps.transport, clock: deps.clock }, argv);
    return state.exitCode;
  } catch (error) {
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
    removeSigint();
  }
}

/**
 * Ends the process with `code` once `run` has returned (the bin's last step): at once when every
 * write has been handed to the system, as Node's own ending (closing the kept-alive connection,
 * freeing the heap) is nothing the user waits for; when a stream still queues writes (a pipe that
 * was full), the process ends as Node ends it, after they are written. 'exit' listeners (the code
 * cache's write) run either way.
 */
export function exit(code: number, streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  process.exitCode = code;
  const queued = streams.some((stream) => (stream as NodeJS.WritableStream & { writableLength?: number }).writableLength);
  if (!queued) process.exit(code);
}

/** Prints an error once, in the form the run asked for, and returns its exit code. */
export function report(io: IO, error: CliError, json: boolean, verbose: boolean): number {
  // The stored token too: a server may echo whatever it was sent, so anything shaped like a JWT is masked.
  const clean = (text: string) => redactSecrets(text, [io.env.FOODCTL_TOKEN]);
  if (json) {
    const body = {
      error: {
        code: error.code,
        exit_code: error.exitCode,
        status: error.status ?? null,
        service_code: error.serviceCode ?? null,
        message: clean(error.message),
        hint: error.hint ? clean(error.hint) : null,
      },
    };
    io.stderr.write(`${JSON.stringify(body)}\n`);
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
