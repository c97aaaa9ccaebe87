/**
 * The process's stdout. A terminal gets Node's stream (its width and colours matter). Anything
 * else (a pipe, a file, /dev/null) gets synchronous writes to fd 1, which is what Node's own
 * stdout does there on Linux, without building the stream: that loads node:net and the stream
 * machinery, a tenth of a `--help`. Should fd 1 be non-blocking and full (EAGAIN), the rest goes
 * through Node's stream, which waits.
 */
import { writeSync } from "node:fs";
import { EXIT } from "./errors.js";
import type { ClosedStdout, OutputStream } from "./io.js";

/** Whether `fd` is a terminal, without node:tty (it loads node:net): Node's own tty binding, else node:tty. */
export function isTerminal(fd: number): boolean {
  // process.binding is deprecated: under --pending-deprecation it would print a warning.
  if (!/--pending-deprecation/.test(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`)) {
    try {
      const binding = (process as unknown as { binding(name: string): { isTTY?: (fd: number) => boolean } }).binding("tty_wrap");
      if (typeof binding.isTTY === "function") return binding.isTTY(fd);
    } catch {
      // a Node without it: node:tty below
    }
  }
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

/** Node's output streams this process built (stdout on a terminal or after EAGAIN, stderr once written to). */
const builtStreams = new Set<NodeJS.WritableStream>();

/** `stream`, noted as one whose queued writes must go out before the process ends (see `outputQueued`). */
export function noteStream<T extends NodeJS.WritableStream>(stream: T): T {
  builtStreams.add(stream);
  return stream;
}

/**
 * Whether a stream of Node's still holds writes it has not handed to the system: a pipe that was
 * full (EAGAIN), a terminal on Windows. Writes to fd 1 of our own are synchronous, never queued.
 */
export function outputQueued(): boolean {
  for (const stream of builtStreams) if ((stream as NodeJS.WritableStream & { writableLength?: number }).writableLength) return true;
  return false;
}

/** What the process's stdout is made of; tests hand in their own. */
export interface StdoutParts {
  terminal: boolean;
  /** A synchronous write to fd 1 (fs.writeSync): the bytes written. */
  write: (bytes: Buffer, offset: number) => number;
  /** Node's stream, built on first use. */
  stream: () => NodeJS.WritableStream;
}

const PROCESS_PARTS = (): StdoutParts => ({
  terminal: isTerminal(1),
  write: (bytes, offset) => writeSync(1, bytes, offset),
  stream: () => process.stdout,
});

export function processStdout(parts: StdoutParts = PROCESS_PARTS()): { stdout: OutputStream; closedStdout: ClosedStdout } {
  let handler: ((error: Error) => void) | undefined;
  // `foodctl intake list | head -1`: see ClosedStdout.
  const closed = (error: NodeJS.ErrnoException) => {
    if (handler) return handler(error);
    if (error.code === "EPIPE") process.exit(EXIT.ok);
    throw error;
  };
  const closedStdout: ClosedStdout = { takeOver: (next) => (handler = next) };
  let stream: NodeJS.WritableStream | undefined;
  const nodeStream = () => {
    if (!stream) {
      stream = noteStream(parts.stream());
      stream.on("error", closed);
    }
    return stream;
  };
  if (parts.terminal) return { stdout: nodeStream() as OutputStream, closedStdout };

  let gone = false;
  const stdout: OutputStream & { fd: number } = {
    // As on Node's stream: `intake apply` compares the file behind it with its results file.
    fd: 1,
    isTTY: false,
    write(chunk: string) {
      if (stream) return stream.write(chunk);
      // After a closed stdout was handed over, what else is written goes nowhere (as with Node's stream).
      if (gone) return true;
      const bytes = Buffer.from(chunk, "utf8");
      let written = 0;
      try {
        while (written < bytes.length) written += parts.write(bytes, written);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return nodeStream().write(bytes.subarray(written));
        gone = true;
        closed(error as NodeJS.ErrnoException);
      }
      return true;
    },
  };
  return { stdout, closedStdout };
}
