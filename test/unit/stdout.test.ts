/** The process's stdout when it is not a terminal: synchronous writes to fd 1, Node's stream as the fallback. */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT } from "../../src/errors.js";
import { isTerminal, outputQueued, processStdout, type StdoutParts } from "../../src/stdout.js";

const errno = (code: string) => Object.assign(new Error(`${code}: write`), { code });

/** fd 1 as a list of writes; `fail` decides, per call, to write fewer bytes or throw. */
function parts(fail: (call: number, bytes: Buffer, offset: number) => number | Error | undefined = () => undefined) {
  const written: string[] = [];
  const stream = new PassThrough();
  const streamed: string[] = [];
  stream.on("data", (chunk: Buffer) => streamed.push(chunk.toString("utf8")));
  let calls = 0;
  let streamBuilt = 0;
  const fake: StdoutParts = {
    terminal: false,
    write: (bytes, offset) => {
      const outcome = fail(calls++, bytes, offset);
      if (outcome instanceof Error) throw outcome;
      const end = outcome === undefined ? bytes.length : offset + outcome;
      written.push(bytes.subarray(offset, end).toString("utf8"));
      return end - offset;
    },
    stream: () => {
      streamBuilt++;
      return stream;
    },
  };
  return { fake, written, streamed, built: () => streamBuilt };
}

afterEach(() => vi.restoreAllMocks());

describe("stdout that is not a terminal", () => {
  it("writes synchronously to fd 1, whole, without building Node's stream", () => {
    const fd = parts();
    const { stdout } = processStdout(fd.fake);
    stdout.write("héllo\n");
    stdout.write("second\n");
    expect(fd.written.join("")).toBe("héllo\nsecond\n");
    expect(stdout.isTTY).toBe(false);
    expect((stdout as { fd?: number }).fd).toBe(1);
    expect(fd.built()).toBe(0);
  });

  it("finishes a partial write", () => {
    const fd = parts((call) => (call === 0 ? 3 : undefined));
    processStdout(fd.fake).stdout.write("abcdefgh");
    expect(fd.written).toEqual(["abc", "defgh"]);
  });

  it("hands the rest to Node's stream when fd 1 is non-blocking and full (EAGAIN), and keeps using it", async () => {
    const fd = parts((call) => (call === 0 ? 4 : call === 1 ? errno("EAGAIN") : undefined));
    const { stdout } = processStdout(fd.fake);
    stdout.write("12345678");
    stdout.write("9\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(fd.written).toEqual(["1234"]);
    expect(fd.streamed.join("")).toBe("56789\n");
    expect(fd.built()).toBe(1);
  });

  it("a closed stdout (EPIPE) ends the run with exit 0, as a reader that stops early is not an error", () => {
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const fd = parts(() => errno("EPIPE"));
    expect(() => processStdout(fd.fake).stdout.write("x\n")).toThrow("exit 0");
    expect(exit).toHaveBeenCalledWith(EXIT.ok);
  });

  it("a command that took the closed stdout over is told once, and later writes go nowhere", () => {
    const fd = parts(() => errno("EPIPE"));
    const { stdout, closedStdout } = processStdout(fd.fake);
    const told: string[] = [];
    closedStdout.takeOver((error) => told.push((error as NodeJS.ErrnoException).code ?? ""));
    stdout.write("a\n");
    stdout.write("b\n");
    expect(told).toEqual(["EPIPE"]);
  });

  it("any other write error is thrown to the command (reported, not swallowed)", () => {
    const fd = parts(() => errno("ENOSPC"));
    expect(() => processStdout(fd.fake).stdout.write("x\n")).toThrow(/ENOSPC/);
  });
});

describe("stdout that is a terminal", () => {
  it("is Node's stream", () => {
    const fd = parts();
    const { stdout } = processStdout({ ...fd.fake, terminal: true });
    stdout.write("on the terminal\n");
    expect(fd.built()).toBe(1);
    expect(fd.written).toEqual([]);
  });
});

describe("isTerminal", () => {
  it("agrees with node:tty", async () => {
    const tty = await import("node:tty");
    for (const fd of [0, 1, 2]) expect(isTerminal(fd)).toBe(tty.isatty(fd));
  });
});

describe("the end of a run (exit in src/main.ts)", () => {
  it("ends the process at once when everything written is out, and waits for writes a stream of Node's still queues", async () => {
    const { exit } = await import("../../src/main.js");
    const ended = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const before = process.exitCode;
    try {
      // fd 1 full (EAGAIN): the rest went to Node's stream, which has not written it yet.
      const stream = new PassThrough({ highWaterMark: 4 });
      const { stdout } = processStdout({
        terminal: false,
        write: () => {
          throw errno("EAGAIN");
        },
        stream: () => stream,
      });
      expect(outputQueued()).toBe(false);
      exit(3);
      expect(ended).toHaveBeenCalledWith(3);
      stdout.write("queued output");
      expect(outputQueued()).toBe(true);
      ended.mockClear();
      exit(4);
      expect(ended).not.toHaveBeenCalled();
      expect(process.exitCode).toBe(4);
      stream.resume();
      await new Promise((resolve) => setImmediate(resolve));
      expect(outputQueued()).toBe(false);
    } finally {
      ended.mockRestore();
      process.exitCode = before;
    }
  });
});
