/** The process's stdout (Node's stream): write errors answered once, and the end of a run that waits for queued writes. */
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT } from "../../src/errors.js";
import { processStdout, type StdoutStream } from "../../src/io.js";
import { exit } from "../../src/main.js";

const errno = (code: string) => Object.assign(new Error(`${code}: write`), { code });

/** A stdout whose writes fail with `code` from the first one on, as a file or a pipe fails them: at once, then as an event. */
function failing(code: string): StdoutStream {
  return new Writable({ write: (_chunk, _encoding, done) => done(errno(code)) });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => vi.restoreAllMocks());

describe("stdout", () => {
  it("writes through Node's stream and shows its terminal facts", () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 72, fd: 1 });
    const { stdout } = processStdout(stream);
    stdout.write("héllo\n");
    expect(stream.read()?.toString("utf8")).toBe("héllo\n");
    expect(stdout).toMatchObject({ isTTY: true, columns: 72, fd: 1 });
  });

  it("a closed stdout (EPIPE) ends the run with exit 0, as a reader that stops early is not an error", async () => {
    const exited = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const { stdout } = processStdout(failing("EPIPE"));
    expect(() => stdout.write("x\n")).toThrow("exit 0");
    expect(exited).toHaveBeenCalledWith(EXIT.ok);
    await tick();
    // Once: Node's 'error' event for the same write is not a second answer.
    expect(exited).toHaveBeenCalledTimes(1);
  });

  it("a command that took the closed stdout over is told once, and later writes go nowhere", async () => {
    const { stdout, closedStdout } = processStdout(failing("EPIPE"));
    const told: string[] = [];
    closedStdout.takeOver((error) => told.push((error as NodeJS.ErrnoException).code ?? ""));
    stdout.write("a\n");
    stdout.write("b\n");
    await tick();
    expect(told).toEqual(["EPIPE"]);
  });

  it("any other write error is thrown to the command that wrote (reported, not swallowed)", () => {
    expect(() => processStdout(failing("ENOSPC")).stdout.write("x\n")).toThrow(/ENOSPC/);
  });

  it("a write that fails after waiting in Node's queue is answered when it fails", async () => {
    let fail: ((error: Error) => void) | undefined;
    const stream = new Writable({ write: (_chunk, _encoding, done) => (fail = done) });
    const { stdout, closedStdout } = processStdout(stream);
    const told: string[] = [];
    closedStdout.takeOver((error) => told.push((error as NodeJS.ErrnoException).code ?? ""));
    stdout.write("queued\n");
    expect(told).toEqual([]);
    fail!(errno("EPIPE"));
    await tick();
    expect(told).toEqual(["EPIPE"]);
  });
});

describe("the end of a run (exit in src/main.ts)", () => {
  it("ends the process at once when everything written is out, and waits for writes a stream still queues", async () => {
    const ended = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const before = process.exitCode;
    try {
      // A pipe that was full: Node's stream holds what it could not write yet.
      const stream = new PassThrough({ highWaterMark: 4 });
      const other = new PassThrough();
      exit(3, [stream, other]);
      expect(ended).toHaveBeenCalledWith(3);
      stream.write("queued output");
      ended.mockClear();
      exit(4, [other, stream]);
      expect(ended).not.toHaveBeenCalled();
      expect(process.exitCode).toBe(4);
      stream.resume();
      await tick();
      exit(5, [stream, other]);
      expect(ended).toHaveBeenCalledWith(5);
    } finally {
      process.exitCode = before;
    }
  });
});
