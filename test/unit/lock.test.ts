/** The one lock and pid helper (src/lock.ts): who holds a lock, when it is stale, and what taking it does. */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../../src/errors.js";
import { journalUnwritable } from "../../src/journal/store.js";
import { lockHolder, PIDLESS_LOCK_STALE_MS, releaseLock, takeLock, withFileLock, type LockErrors } from "../../src/lock.js";
import { formatProcessId, isProcessAlive, processStart, thisProcess } from "../../src/processes.js";
import { runTempDir } from "../helpers/tempDir.js";

const tempDir = () => runTempDir("foodctl-lock-");

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid!;
}

/** Sets a file's times to `ms` ago. */
function age(path: string, ms: number): void {
  const when = (Date.now() - ms) / 1000;
  utimesSync(path, when, when);
}

/** What a lock this process takes holds: its pid and start time. */
const ours = () => `${formatProcessId(thisProcess())}\n`;

/** A live process of another pid (a child that sleeps), ended when the test ends. */
function liveChild(onTestFinished: (fn: () => void) => void): number {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  onTestFinished(() => void child.kill("SIGKILL"));
  return child.pid!;
}

class Busy extends Error {
  constructor(readonly pid: number | null) {
    super(`busy (${pid})`);
  }
}

const errors: LockErrors = {
  cannotCreate: (error) => new Error(`cannot create: ${error.message}`),
  busy: (pid) => new Busy(pid),
};

describe("isProcessAlive", () => {
  it("is true for this process and false for one that has ended", async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(await deadPid())).toBe(false);
  });
});

describe("lockHolder", () => {
  it("tells a live holder, a dead one (stale) and a lock that is gone", async ({ onTestFinished }) => {
    const lock = join(tempDir(), "x.lock");
    expect(lockHolder(lock)).toEqual({ kind: "gone" });
    writeFileSync(lock, ours());
    expect(lockHolder(lock)).toEqual({ kind: "held", pid: process.pid });
    const live = liveChild(onTestFinished);
    writeFileSync(lock, `${live}\n`);
    expect(lockHolder(lock)).toEqual({ kind: "held", pid: live });
    writeFileSync(lock, String(await deadPid()));
    expect(lockHolder(lock)).toEqual({ kind: "stale" });
  });

  it("a lock naming this process's pid but another start time is an earlier process's (a reused pid, pid 1 in containers): stale", () => {
    const lock = join(tempDir(), "x.lock");
    const start = thisProcess().start;
    expect(start).toMatch(/^[0-9]+$/);
    writeFileSync(lock, `${process.pid} ${BigInt(start!) - 1n}\n`);
    expect(lockHolder(lock)).toEqual({ kind: "stale" });
    // Written before locks named a start time: not this process's either, since this process writes one.
    writeFileSync(lock, `${process.pid}\n`);
    expect(lockHolder(lock)).toEqual({ kind: "stale" });
  });

  it("a lock naming a live pid with another start time (the pid reused by another program) is stale", async ({ onTestFinished }) => {
    const lock = join(tempDir(), "x.lock");
    const live = liveChild(onTestFinished);
    const start = processStart(live)!;
    writeFileSync(lock, `${live} ${start}\n`);
    expect(lockHolder(lock)).toEqual({ kind: "held", pid: live });
    writeFileSync(lock, `${live} ${BigInt(start) + 7n}\n`);
    expect(lockHolder(lock)).toEqual({ kind: "stale" });
  });

  it.each([
    ["empty", ""],
    ["not a pid", "hello"],
    ["pid 0", "0"],
    ["beyond any pid", "99999999999"],
  ])("a lock holding no pid (%s) is being made while young and stale once a few seconds old", (_name, text) => {
    const lock = join(tempDir(), "x.lock");
    writeFileSync(lock, text);
    expect(lockHolder(lock)).toEqual({ kind: "held", pid: null });
    age(lock, PIDLESS_LOCK_STALE_MS + 1000);
    expect(lockHolder(lock)).toEqual({ kind: "stale" });
  });

  it("a link planted as the lock is no pid: stale once old, never followed", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "elsewhere"), String(process.pid));
    symlinkSync(join(dir, "elsewhere"), join(dir, "x.lock"));
    expect(lockHolder(join(dir, "x.lock"), Date.now() + PIDLESS_LOCK_STALE_MS + 1000)).toEqual({ kind: "stale" });
  });
});

describe("takeLock", () => {
  it("creates the lock with this process's pid and start time, and releaseLock removes it", async () => {
    const lock = join(tempDir(), "x.lock");
    await takeLock(lock, errors, 0);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid} ${thisProcess().start}\n`);
    releaseLock(lock);
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock whose process has ended, and an old lock without a pid", async () => {
    const lock = join(tempDir(), "x.lock");
    writeFileSync(lock, String(await deadPid()));
    await takeLock(lock, errors, 0);
    expect(readFileSync(lock, "utf8")).toBe(ours());
    writeFileSync(lock, "");
    age(lock, PIDLESS_LOCK_STALE_MS + 1000);
    await takeLock(lock, errors, 0);
    expect(readFileSync(lock, "utf8")).toBe(ours());
  });

  it("refuses a live holder once the wait is over, naming its pid", async ({ onTestFinished }) => {
    const lock = join(tempDir(), "x.lock");
    const live = liveChild(onTestFinished);
    writeFileSync(lock, String(live));
    await expect(takeLock(lock, errors, 0)).rejects.toEqual(new Busy(live));
    const started = Date.now();
    await expect(takeLock(lock, errors, 200)).rejects.toBeInstanceOf(Busy);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(readFileSync(lock, "utf8")).toBe(String(live));
  });

  it("takes over at once a lock an earlier process with this pid left (no 10 s wait)", async () => {
    const lock = join(tempDir(), "x.lock");
    writeFileSync(lock, `${process.pid} 1\n`);
    const started = Date.now();
    await takeLock(lock, errors, 10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(readFileSync(lock, "utf8")).toBe(ours());
  });

  it("waits on a young lock without a pid instead of taking it over, and takes it once it is stale", async () => {
    const lock = join(tempDir(), "x.lock");
    writeFileSync(lock, "");
    age(lock, PIDLESS_LOCK_STALE_MS - 300);
    const started = Date.now();
    await takeLock(lock, errors, 0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(readFileSync(lock, "utf8")).toBe(ours());
  });

  it("words a lock that cannot be created with the caller's error", async () => {
    const lock = join(tempDir(), "missing", "x.lock");
    await expect(takeLock(lock, errors, 0)).rejects.toThrow(/^cannot create: ENOENT/);
  });
});

describe("releaseLock", () => {
  it("leaves a lock that is another process's, and one of an earlier process with this pid", () => {
    const lock = join(tempDir(), "x.lock");
    writeFileSync(lock, "1");
    releaseLock(lock);
    expect(readFileSync(lock, "utf8")).toBe("1");
    writeFileSync(lock, `${process.pid} 1\n`);
    releaseLock(lock);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid} 1\n`);
  });
});

describe("withFileLock", () => {
  it("holds the lock while the work runs and removes it after, also when the work fails", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const lock = join(dir, "sub", "x.lock");
    expect(await withFileLock(lock, errors, async () => readFileSync(lock, "utf8"))).toBe(ours());
    expect(existsSync(lock)).toBe(false);
    await expect(
      withFileLock(lock, errors, async () => {
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(existsSync(lock)).toBe(false);
  });

  it("lets two writers of one process take turns: the second runs after the first has let go", async () => {
    const lock = join(tempDir(), "x.lock");
    const order: string[] = [];
    const slow = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push(`${name} out`);
    };
    await Promise.all([withFileLock(lock, errors, slow("a")), withFileLock(lock, errors, slow("b"))]);
    expect(order).toEqual(["a in", "a out", "b in", "b out"]);
  });
});

describe("a journal lock that cannot be made", () => {
  const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  const denied = Object.assign(new Error("EACCES: permission denied, open '/j/journal.jsonl.lock'"), { code: "EACCES" });

  it("names a full disk (ENOSPC) in its hint, and the folder's permissions otherwise; nothing was sent either way", () => {
    const onFull = journalUnwritable("/j", full) as CliError;
    expect(onFull.message).toBe("cannot write the journal in /j: ENOSPC: no space left on device, write");
    expect(onFull.hint).toBe("nothing was sent; the disk is full (ENOSPC): free some space, or pass --no-journal");
    expect((journalUnwritable("/j", denied) as CliError).hint).toBe("nothing was sent; fix the folder's permissions, or pass --no-journal");
  });
});
