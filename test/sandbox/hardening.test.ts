/**
 * Issue 15's findings in the sandbox, each driven over real sockets on loopback: slow clients,
 * two sandboxes on one state file, hostile JSON, encoded bodies, the Host header, leftovers.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PIDLESS_LOCK_STALE_MS } from "../../src/lock.js";
import { formatProcessId, processStart, thisProcess } from "../../src/processes.js";
import { startSandbox, StateFileError, StateLockedError, type SandboxHandle } from "../../src/sandbox/server.js";
import { baseEnv, cliBin } from "../helpers/cli.js";
import { runTempDir } from "../helpers/tempDir.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";
import { getIntake, itemAt, update } from "./fixtures.js";

/** A folder inside the run's folder, removed with it. */
const tempDir = () => runTempDir("foodctl-sandbox-hardening-");

/**
 * A raw connection to the sandbox: `head` once connected, then `drip` every `everyMs` (only after
 * the head: a drip written while connecting would be buffered and sent first, and the server would
 * rightly answer a malformed request, not a slow one). `answer` is all it received by close.
 */
function rawRequest(
  handle: SandboxHandle,
  head: string,
  drip?: { text: string; everyMs: number },
): { socket: Socket; answer: Promise<string> } {
  const { port } = new URL(handle.url);
  const socket = connect(Number(port), "127.0.0.1");
  let received = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => undefined);
  let timer: NodeJS.Timeout | undefined;
  socket.on("connect", () => {
    socket.write(head);
    if (drip) timer = setInterval(() => socket.writable && socket.write(drip.text), drip.everyMs);
  });
  const answer = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  void answer.then(() => clearInterval(timer));
  return { socket, answer };
}

/** A request whose headers come whole and whose body comes one byte every `dripMs`. */
function slowBody(handle: SandboxHandle, dripMs: number): { socket: Socket; answer: Promise<string> } {
  const head =
    "POST /v2/nutrition/confirm/quantity HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
    `Authorization: Bearer ${handle.tokenFor("alice")}\r\nContent-Length: 1000\r\n\r\n`;
  return rawRequest(handle, head, { text: " ", everyMs: dripMs });
}

describe("issue 15 #4: request, header and keep-alive timeouts and a connection cap", () => {
  // Small, but with room for a loaded machine: a normal request takes a few milliseconds.
  const limits = { requestTimeoutMs: 1000, headersTimeoutMs: 600, keepAliveTimeoutMs: 300, maxConnections: 4 };
  const sb = withSandbox({ limits });

  it("#4 slow request bodies: a bounded number of slow-body sockets get cut, and a normal client is still served", async () => {
    const slow = Array.from({ length: 4 }, () => slowBody(sb.handle, 100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Over the cap: the fifth connection is closed at once, without an answer.
    const extra = slowBody(sb.handle, 100);
    expect(await extra.answer).toBe("");
    const answers = await Promise.all(slow.map((socket) => socket.answer));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":1601');
    }
    const normal = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    expect(normal.status).toBe(200);
    expect(sb.handle.intake(1001)).toEqual(normal.body.intake_info);
  }, 5000);

  it("#4 slow headers: a client that never finishes its headers is cut by the header timeout", async () => {
    const { answer } = rawRequest(sb.handle, "GET /v2/intake/1001 HTTP/1.1\r\nHost: x\r\n", { text: "X-Slow: 1\r\n", everyMs: 100 });
    const received = await answer;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect((await fetchJson(sb.handle, "GET", "/sandbox/stats")).status).toBe(200);
  }, 5000);

  it("#4 keep-alive: an idle connection after an answer is closed by the keep-alive timeout", async () => {
    const received = await rawRequest(sb.handle, "GET /sandbox/stats HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n").answer;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/keep-alive: timeout=0/i);
  }, 5000);

  it("#4 the limits default to 30 s per request, 10 s for headers, 5 s keep-alive, 256 connections and 128 from one address", async () => {
    const { DEFAULT_LIMITS } = await import("../../src/sandbox/server.js");
    expect(DEFAULT_LIMITS).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 256,
      maxConnectionsPerAddress: 128,
    });
  });
});

/** A connection from `localAddress` that sends `head` (nothing by default) and then nothing more; resolves once connected. */
async function quietSocket(handle: SandboxHandle, localAddress: string, head = ""): Promise<QuietSocket> {
  const { port } = new URL(handle.url);
  const socket = connect({ port: Number(port), host: "127.0.0.1", localAddress });
  const quiet: QuietSocket = { socket, ended: false, received: "" };
  socket.on("error", () => undefined);
  socket.on("close", () => (quiet.ended = true));
  socket.setEncoding("latin1").on("data", (chunk: string) => (quiet.received += chunk));
  await new Promise((resolve) => socket.once("connect", resolve).once("close", resolve));
  if (head !== "") socket.write(head);
  return quiet;
}

interface QuietSocket {
  socket: Socket;
  /** Closed, by either side. */
  ended: boolean;
  received: string;
}

/** A GET of /sandbox/stats from `localAddress` on a connection of its own: its status, or the error that ended it. */
function statsFrom(handle: SandboxHandle, localAddress: string): Promise<number | string> {
  const { port } = new URL(handle.url);
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port: Number(port), path: "/sandbox/stats", localAddress, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("L10: loopback shares one cap, and silent clients give way to a client that sends its request", () => {
  const sb = withSandbox({
    limits: { headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, maxConnections: 8, maxConnectionsPerAddress: 4 },
  });

  it("trickling sockets from 127.0.0.2 and 127.0.0.3 hold at most the one loopback cap, and a client on 127.0.0.1 is answered", async () => {
    const trickling: QuietSocket[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        // After the first four, a moment: a connection just made is given time to send its request.
        if (i === 4) await pause(1_100);
        trickling.push(await quietSocket(sb.handle, i % 2 === 0 ? "127.0.0.2" : "127.0.0.3", "GET /sandbox/stats HTTP/1.1\r\nHost: x\r\n"));
      }
      await pause(1_100);
      // The four oldest gave their places to the four newest: one cap for all of loopback.
      expect(trickling.map((quiet) => quiet.ended)).toEqual([true, true, true, true, false, false, false, false]);
      expect(await statsFrom(sb.handle, "127.0.0.1")).toBe(200);
    } finally {
      for (const quiet of trickling) quiet.socket.destroy();
    }
  }, 10_000);

  it("a connection that sends nothing is closed after the header timeout, not the request timeout", async () => {
    const local = await startSandbox({
      port: 0,
      limits: {
        headersTimeoutMs: 500,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 20_000,
        maxConnections: 8,
        maxConnectionsPerAddress: 4,
      },
    });
    try {
      const silent = await quietSocket(local, "127.0.0.2");
      await pause(2_500);
      expect(silent.ended).toBe(true);
      expect(silent.received).toBe("");
    } finally {
      await local.close();
    }
  }, 15_000);
});

describe("L10: the default limits hold 256 silent connections and still answer", () => {
  const sb = withSandbox();

  it("a well-behaved client on loopback is answered every time while 256 silent connections are held", async () => {
    const silent: QuietSocket[] = [];
    try {
      for (let i = 0; i < 256; i++) silent.push(await quietSocket(sb.handle, i % 2 === 0 ? "127.0.0.2" : "127.0.0.3"));
      await pause(1_100);
      const answers: (number | string)[] = [];
      for (let i = 0; i < 10; i++) answers.push(await statsFrom(sb.handle, "127.0.0.1"));
      expect(answers).toEqual(Array(10).fill(200));
      // The silent ones hold no more than the loopback cap.
      expect(silent.filter((quiet) => !quiet.ended).length).toBeLessThanOrEqual(128);
    } finally {
      for (const quiet of silent) quiet.socket.destroy();
    }
  }, 20_000);
});

describe("issue 15 #5: one sandbox per state file", () => {
  it("#5 two sandboxes on one --state file: the second refuses to start, and starts once the first has closed", async () => {
    const path = join(tempDir(), "state.json");
    const first = await startSandbox({ port: 0, statePath: path });
    try {
      const refused = await startSandbox({ port: 0, statePath: path }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StateLockedError);
      expect(refused).toBeInstanceOf(StateFileError);
      expect((refused as Error).message).toBe(
        `state file ${path} is in use by another sandbox (pid ${process.pid}); stop it or use another --state file`,
      );
      expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(formatProcessId(thisProcess()));
    } finally {
      await first.close();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
    const second = await startSandbox({ port: 0, statePath: path });
    await second.close();
  });

  it("#5 the lock is released when start-up fails after taking it (port in use)", async () => {
    const path = join(tempDir(), "state.json");
    const holder = await startSandbox({ port: 0 });
    try {
      const port = Number(new URL(holder.url).port);
      await expect(startSandbox({ port, statePath: path })).rejects.toMatchObject({ code: "EADDRINUSE" });
      expect(existsSync(`${path}.lock`)).toBe(false);
    } finally {
      await holder.close();
    }
  });

  it("#5 a stale lock from a killed process is detected and taken over", async () => {
    const path = join(tempDir(), "state.json");
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.on("exit", resolve));
    writeFileSync(`${path}.lock`, `${gone.pid}\n`);
    const handle = await startSandbox({ port: 0, statePath: path });
    try {
      expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(formatProcessId(thisProcess()));
    } finally {
      await handle.close();
    }
    // An empty lock a few seconds old: its writer died before writing its pid.
    writeFileSync(`${path}.lock`, "");
    const old = (Date.now() - PIDLESS_LOCK_STALE_MS - 1000) / 1000;
    utimesSync(`${path}.lock`, old, old);
    await (await startSandbox({ port: 0, statePath: path })).close();
  });

  it("N8: a lock naming this pid, left by an earlier process (containers reuse pids), is stale: taken over at once", async () => {
    const path = join(tempDir(), "state.json");
    for (const text of [`${process.pid}\n`, `${process.pid} 1\n`]) {
      writeFileSync(`${path}.lock`, text);
      const started = Date.now();
      const handle = await startSandbox({ port: 0, statePath: path });
      try {
        expect(Date.now() - started).toBeLessThan(PIDLESS_LOCK_STALE_MS);
        expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(formatProcessId(thisProcess()));
      } finally {
        await handle.close();
      }
    }
  });

  it("#5 an empty lock just made is another sandbox starting: refused once it holds that sandbox's pid", async () => {
    const path = join(tempDir(), "state.json");
    writeFileSync(`${path}.lock`, "");
    setTimeout(() => writeFileSync(`${path}.lock`, `${formatProcessId(thisProcess())}\n`), 100);
    const refused = await startSandbox({ port: 0, statePath: path }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateLockedError);
    expect((refused as StateLockedError).pid).toBe(process.pid);
  });

  it("#5 an empty lock that never gets a pid is waited on until it is stale, then taken over", async () => {
    const path = join(tempDir(), "state.json");
    writeFileSync(`${path}.lock`, "");
    // Made a moment less than the stale age ago, so the wait is short.
    const young = (Date.now() - PIDLESS_LOCK_STALE_MS + 300) / 1000;
    utimesSync(`${path}.lock`, young, young);
    const started = Date.now();
    const handle = await startSandbox({ port: 0, statePath: path });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(formatProcessId(thisProcess()));
    } finally {
      await handle.close();
    }
  });

  it("#5 a real sandbox process: SIGTERM releases the lock; after kill -9 the stale lock is taken over", async () => {
    const path = join(tempDir(), "state.json");
    const startProcess = async () => {
      const child = spawn(process.execPath, [cliBin(), "sandbox", "--port", "0", "--json", "--state", path], {
        env: baseEnv(),
        stdio: ["ignore", "pipe", "ignore"],
      });
      const exited = new Promise((resolve) => child.on("close", resolve));
      await new Promise((resolve) => child.stdout.setEncoding("utf8").once("data", resolve));
      return { child, exited };
    };
    const first = await startProcess();
    expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(`${first.child.pid} ${processStart(first.child.pid!)}`);
    await expect(startSandbox({ port: 0, statePath: path })).rejects.toBeInstanceOf(StateLockedError);
    first.child.kill("SIGTERM");
    await first.exited;
    expect(existsSync(`${path}.lock`)).toBe(false);

    const second = await startProcess();
    const secondName = `${second.child.pid} ${processStart(second.child.pid!)}`;
    second.child.kill("SIGKILL");
    await second.exited;
    expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(secondName);
    const handle = await startSandbox({ port: 0, statePath: path });
    await handle.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("#5 a temporary folder left beside the state file (kill -9 during a save) is removed on start; other files stay", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    mkdirSync(join(dir, ".state.json.a1B2c3"));
    writeFileSync(join(dir, ".state.json.a1B2c3", "data"), "half a save");
    writeFileSync(join(dir, "notes.tmp"), "mine");
    writeFileSync(join(dir, ".state.json.mine"), "mine too");
    const handle = await startSandbox({ port: 0, statePath: path });
    try {
      expect(handle.removedTemporaries).toEqual([".state.json.a1B2c3"]);
      expect(readdirSync(dir).sort()).toEqual([".state.json.mine", "notes.tmp", "state.json", "state.json.lock"]);
    } finally {
      await handle.close();
    }
  });
});

describe("issue 15: hostile JSON and bodies", () => {
  const sb = withSandbox({}, { perTest: true });
  const raw = (text: string, headers: Record<string, string> = {}) =>
    fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "alice",
      rawBody: text,
      contentType: "application/json",
      headers,
    });

  it("__proto__ and constructor keys in a quantity or level map are named, not called invalid JSON", async () => {
    for (const [text, key] of [
      ['{"imageId": 1002, "quantity": {"__proto__": 10}}', "__proto__"],
      ['{"imageId": 1002, "salt": {"constructor": "low"}}', "constructor"],
      ['{"imageId": 1002, "quantity": {"1": 150, "__proto__": {"x": 1}}}', "__proto__"],
    ]) {
      const answer = await raw(text!);
      expect([text, answer.status, answer.body.code]).toEqual([text, 400, 1405]);
      expect(answer.body.message).toContain(`"${key}" is not a food item position`);
    }
    const top = await raw('{"imageId": 1002, "__proto__": {"quantity": 1}}');
    expect(top.body).toEqual({ message: expect.stringContaining('unknown field "__proto__"'), code: 1402 });
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 1).serving_size).toBe(180);
  });

  it("5e-324 g is refused: the minimum quantity is 0.1 g (code 1403)", async () => {
    for (const quantity of [5e-324, 0.09]) {
      const answer = await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": quantity } });
      expect(answer.body).toEqual({ message: `quantity of position 1 must be at least 0.1 g, got ${quantity}`, code: 1403 });
    }
    expect((await update(sb.handle, "alice", { imageId: 1002, quantity: { "1": 0.1 } })).status).toBe(200);
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 1).serving_size).toBe(0.1);
  });

  it("duplicate JSON keys are refused with 400 (code 1402), at any depth, and nothing changes", async () => {
    for (const text of [
      '{"imageId": 1002, "quantity": {"1": 150}, "quantity": {"1": 10}}',
      '{"imageId": 1002, "quantity": {"1": 150, "1": 10}}',
      '{"imageId": 1002, "quantity": {"1": 150, "\\u0031": 10}}',
    ]) {
      const answer = await raw(text);
      expect([text, answer.status, answer.body.code]).toEqual([text, 400, 1402]);
      expect(answer.body.message).toMatch(/gives the key "(quantity|1)" twice/);
    }
    expect((await raw('{"imageId": 1002, "quantity": {"1": 150}, "salt": {"1": "low"}}')).status).toBe(200);
    expect((await raw('{"imageId": 1002, "quantity": {"2": 150}, "sugar": {"2": "low"}}')).status).toBe(200);
  });

  it("a value nested 5,000 deep is refused with 400 (code 1402), not a 500, and nothing changes", async () => {
    const before = sb.handle.intake(1002);
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    for (const text of [`{"imageId": 1002, "quantity": {"1": ${deep}}}`, `{"imageId": ${deep}}`]) {
      const answer = await raw(text);
      expect([answer.status, answer.body.code]).toEqual([400, 1402]);
      expect(answer.body.message).toBe("the request body nests values more than 32 levels deep");
    }
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("a body sent with Content-Encoding: gzip (or any encoding) is answered 415 (code 1503) and nothing changes", async () => {
    const body = JSON.stringify({ imageId: 1002, quantity: { "1": 111 } });
    for (const [encoding, bytes] of [
      ["gzip", body],
      ["gzip", gzipSync(body)],
      ["br", body],
      ["deflate, gzip", body],
    ] as const) {
      const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
        as: "alice",
        rawBody: typeof bytes === "string" ? bytes : new Uint8Array(bytes),
        contentType: "application/json",
        headers: { "content-encoding": encoding },
      });
      expect([encoding, answer.status, answer.body.code]).toEqual([encoding, 415, 1503]);
    }
    expect((await raw(body, { "content-encoding": "identity" })).status).toBe(200);
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 1).serving_size).toBe(111);
  });
});

describe("issue 15: addresses", () => {
  const sb = withSandbox();

  it("image_url is built from the listening address, not the Host header", async () => {
    const { port } = new URL(sb.handle.url);
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: Number(port),
          path: "/v2/intake/1001",
          headers: { host: "evil.example:666", authorization: `Bearer ${sb.handle.tokenFor("alice")}` },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve(text));
        },
      );
      req.on("error", reject);
      req.end();
    });
    const imageUrl = JSON.parse(body).intake_info.image_url as string;
    expect(imageUrl.startsWith(`${sb.handle.url}/images/`)).toBe(true);
    expect(body).not.toContain("evil.example");
  });

  it("on loopback the sandbox gives its address and no network warning", () => {
    expect(sb.handle.listeningUrl).toBe(sb.handle.url);
    expect(sb.handle.networkWarning).toBeNull();
  });
});
