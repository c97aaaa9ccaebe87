/**
 * A batch against a rate-limited server that announces its budget (RateLimit-Remaining,
 * RateLimit-Reset): once the answers say the budget is used up by what is in flight, the batch
 * holds new requests until the reset instead of collecting 429s. In process; the window is
 * 300 ms (a fractional RateLimit-Reset keeps the test short).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { startFaultServer, type FaultServer, type Reply } from "../helpers/faultServer.js";
import { signTestToken } from "./fixtures.js";
import { runTempDir } from "../helpers/cli.js";

const LIMIT = 4;
const WINDOW_MS = 300;
const dir = runTempDir("foodctl-ratelimit-");
let server: FaultServer;
let token: string;
let tooMany = 0;

/** A fixed window of LIMIT requests, announced on every answer like the public service does. */
function limited(answer: (res: ServerResponse) => void): Reply {
  let windowEnd = 0;
  let used = 0;
  return {
    kind: "handler",
    handle: (_req: IncomingMessage, res: ServerResponse) => {
      const now = performance.now();
      if (now >= windowEnd) {
        windowEnd = now + WINDOW_MS;
        used = 0;
      }
      used++;
      const reset = ((windowEnd - now) / 1000).toFixed(3);
      const headers = {
        "ratelimit-limit": String(LIMIT),
        "ratelimit-remaining": String(Math.max(0, LIMIT - used)),
        "ratelimit-reset": reset,
      };
      if (used > LIMIT) {
        tooMany++;
        res.writeHead(429, { ...headers, "content-type": "application/json" });
        res.end(JSON.stringify({ message: "rate limit exceeded", code: 114 }));
        return;
      }
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      answer(res);
    },
  };
}

beforeAll(async () => {
  [server, token] = await Promise.all([startFaultServer(), signTestToken()]);
  // One window for reads and updates alike, as one token's budget.
  const shared = limited((res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  server.route("POST /v2/nutrition/confirm/quantity", shared);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("intake apply: a rate-limited server", () => {
  it("holds new requests when RateLimit-Remaining says the budget is spent, and gets no 429", async () => {
    const input = join(dir, "fixes.jsonl");
    const lines = Array.from({ length: 16 }, (_unused, index) =>
      JSON.stringify({ image_id: 1003 + (index % 4), quantity: { manual1: 100 + index } }),
    );
    writeFileSync(input, `${lines.join("\n")}\n`);
    const io = bufferIO({ env: { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: token, XDG_CONFIG_HOME: join(dir, "config") } });
    tooMany = 0;
    const code = await run(["intake", "apply", input, "--no-verify", "--concurrency", "4"], { io: io.io });
    expect(code, io.stderr()).toBe(0);
    expect(
      io
        .stdout()
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).status),
    ).toEqual(Array(16).fill("applied"));
    expect(server.count("POST /v2/nutrition/confirm/quantity")).toBe(16);
    expect(tooMany).toBe(0);
  });
});
