/**
 * The process's streams and terminal facts, and the colour decision. Commands and printers
 * never touch `process` directly: tests hand in a buffered IO.
 */
import { EXIT } from "./errors.js";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  /** The terminal's height: what the pager compares the output with. */
  rows?: number;
}

export interface IO {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Colour on stdout / stderr, decided once (by `run`) from flags, env and TTY. */
  color: { stdout: boolean; stderr: boolean };
  /** Who answers a closed stdout; absent where stdout cannot close (a test's buffer). */
  closedStdout?: ClosedStdout;
  /** This program as a shell runs it again: node's path and the script's (absent in a test's buffered IO). */
  program?: { node: string; script: string };
}

/**
 * `foodctl intake list | head -1`: once the reader has what it wants, stdout is closed and the
 * next write fails with EPIPE. That is the reader's choice, not an error: the run stops quietly
 * with exit 0. A command whose output must be complete (a batch's results, which a later run
 * resumes from) takes the error over and decides itself.
 */
export interface ClosedStdout {
  takeOver(handler: (error: Error) => void): void;
}

/** What `processStdout` uses of Node's stdout; tests hand in their own stream. */
export type StdoutStream = NodeJS.WritableStream & {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  fd?: number;
  errored?: Error | null;
};

/**
 * Node's stdout, with its write errors answered once: EPIPE ends the run quietly (see
 * ClosedStdout), any other is thrown to the command that wrote (reported as any error is).
 */
export function processStdout(stream: StdoutStream = process.stdout): { stdout: OutputStream; closedStdout: ClosedStdout } {
  let handler: ((error: Error) => void) | undefined;
  let failed = false;
  const fail = (error: NodeJS.ErrnoException) => {
    // Node reports a failed write twice: on the stream at once, and as an 'error' event after.
    if (failed) return;
    failed = true;
    if (handler) return handler(error);
    if (error.code === "EPIPE") process.exit(EXIT.ok);
    throw error;
  };
  // A write that waited in Node's queue (a full pipe) fails later, as an event.
  stream.on("error", fail);
  const stdout = {
    // `intake apply` compares the file behind stdout with its results file.
    fd: stream.fd,
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    get rows() {
      return stream.rows;
    },
    write(chunk: string) {
      const flowing = stream.write(chunk);
      // A file or a pipe that refuses the write (ENOSPC, EPIPE) fails the stream at once.
      if (stream.errored) fail(stream.errored);
      return flowing;
    },
    // For a batch's back-pressure: it waits for 'drain' when a write returns false.
    once: (event: string, listener: () => void) => stream.once(event, listener),
    off: (event: string, listener: () => void) => stream.off(event, listener),
  };
  return { stdout, closedStdout: { takeOver: (next) => (handler = next) } };
}

/** `--wide`: the same stream with no width, so tables show every cell whole (docs/cli.md, Output). */
export function withoutWidth(stream: OutputStream): OutputStream {
  return { write: (chunk: string) => stream.write(chunk), isTTY: stream.isTTY, rows: stream.rows };
}

/**
 * Whether `text` fills more lines of the terminal than it has (its lines wrapped at its width).
 * False when the height is unknown: a pipe, a file, a test's buffer.
 */
export function longerThanScreen(text: string, stream: OutputStream): boolean {
  const rows = stream.isTTY === true ? stream.rows : undefined;
  if (rows === undefined || rows <= 0) return false;
  const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : Infinity;
  let used = 0;
  for (const line of text.replace(/\n$/, "").split("\n")) {
    // Colour codes take no room on the screen.
    used += Math.max(1, Math.ceil(line.replace(/\u001b\[[0-9;]*m/g, "").length / columns));
    // The last line of the screen is the shell's prompt's.
    if (used >= rows) return true;
  }
  return false;
}

/** Writes `text` to stdout, through the pager when `paged` and it is longer than the terminal (docs/cli.md, the pager). */
export async function writeOut(io: IO, text: string, paged: boolean): Promise<void> {
  if (paged && longerThanScreen(text, io.stdout)) {
    const { pageText } = await import("./output/pager.js");
    if (await pageText(io, text)) return;
  }
  if (text !== "") io.stdout.write(text);
}

/** The streams of Node's that a run has opened: the ones `exit` waits for. */
const opened = new Set<NodeJS.WritableStream>();

export function processIO(): IO {
  const { stdout, closedStdout } = processStdout();
  opened.add(process.stdout);
  return {
    stdout,
    // Getters: a run that never writes to stderr or reads input opens neither.
    get stderr() {
      opened.add(process.stderr);
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    color: { stdout: false, stderr: false },
    closedStdout,
    program: { node: process.execPath, script: process.argv[1] ?? "" },
  };
}

/** The streams `processIO` handed out. */
export const openedStreams = (): NodeJS.WritableStream[] => [...opened];

/** Each stream's colour, decided when it is first asked for (a run that writes nothing to stderr never looks at it). */
export function decideColors(io: IO, noColorFlag: boolean): IO["color"] {
  let stdout: boolean | undefined;
  let stderr: boolean | undefined;
  return {
    get stdout() {
      return (stdout ??= decideColor(io.stdout, io.env, noColorFlag));
    },
    get stderr() {
      return (stderr ??= decideColor(io.stderr, io.env, noColorFlag));
    },
  };
}

/**
 * docs/cli.md: colour only when the stream is a terminal and nothing turns it off.
 * `--no-color` and NO_COLOR (any non-empty value) turn it off; FORCE_COLOR (not "0") turns it on.
 */
export function decideColor(stream: OutputStream, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/**
 * Reads a stream to its end, or stops one byte past `limit`: the caller tells "too big" by
 * `length > limit` without ever holding more than that.
 */
export async function readAtMost(stream: AsyncIterable<Buffer | string>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.byteLength;
    chunks.push(buffer);
    if (size > limit) break;
  }
  return Buffer.concat(chunks);
}
