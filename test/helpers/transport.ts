/**
 * An in-memory transport for `run(argv, { transport })` and the API client: routes scripted
 * like the fault server's ("METHOD /path", query ignored; the n-th request gets the n-th reply,
 * the last repeats), every request recorded, no socket. Besides answers, a reply may be a
 * failure of the transport itself (`transportFaults`: a network error, a timeout).
 *
 * The test that made it fails, when it ends, for any scripted reply no request reached (and
 * `reset()` fails for those of the script it forgets), and for any request to an unscripted
 * route (which also fails the run, and is kept in `unexpected`). A reply a run may or may not
 * reach (a property run that can stop early) is scripted with `allow()` instead, and the test
 * says when it must have been used. For what needs a real connection (resets, huge bodies,
 * hangs, proxies), use test/helpers/faultServer.ts.
 */
import { expect, onTestFinished, type TestContext } from "vitest";
import { TransportError, type Transport, type TransportRequest, type TransportResponse } from "../../src/api/transport.js";
import type { Reply } from "./faultServer.js";

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
  route: string;
}

/** What the transport itself may fail with, in place of an answer. */
export type TransportFault = { kind: "transportError"; failure: "network" | "timeout"; message?: string };

export const transportFaults = {
  /** A network error before any answer (connection refused, reset): `message` as the transport words it. */
  network: (message = "connection reset"): TransportFault => ({ kind: "transportError", failure: "network", message }),
  /** No answer within the request's time limit. */
  timeout: (): TransportFault => ({ kind: "transportError", failure: "timeout" }),
};

type MemoryReply = Extract<Reply, { kind: "json" | "raw" }> | TransportFault;

export interface ScriptedTransport {
  transport: Transport;
  readonly requests: RecordedCall[];
  readonly unexpected: string[];
  /** Replies that must all be used by the end of the test (or the next `reset()`). */
  route(route: string, ...replies: Array<Reply | TransportFault>): ScriptedTransport;
  /** Replies a run may not reach: never checked (say in the test when they must have been used). */
  allow(route: string, ...replies: Array<Reply | TransportFault>): ScriptedTransport;
  count(route?: string): number;
  /** Forgets the script and the requests, for the next run; fails for replies of the script no request reached. */
  reset(): ScriptedTransport;
}

interface Script {
  replies: MemoryReply[];
  served: number;
  required: boolean;
}

/**
 * A scripted transport whose unused replies fail the test that made it. In a concurrent test,
 * pass the test's context: vitest knows which test is running only there.
 */
export function scriptedTransport(test?: Pick<TestContext, "onTestFinished">): ScriptedTransport {
  const scripts = new Map<string, Script>();
  const requests: RecordedCall[] = [];
  const unexpected: string[] = [];
  const unused = () =>
    [...scripts]
      .filter(([, script]) => script.required && script.served < script.replies.length)
      .map(([route, script]) => `${route}: ${script.replies.length - script.served} of ${script.replies.length} replies`);
  const expectAllUsed = () => {
    expect(unexpected, "requests to unscripted routes").toEqual([]);
    expect(unused(), "scripted replies no request reached").toEqual([]);
  };
  (test?.onTestFinished ?? onTestFinished)(({ task }) => {
    // A test that failed already says why; the script left over is a consequence.
    if (task.result?.state !== "fail") expectAllUsed();
  });
  const answer = async (request: TransportRequest): Promise<TransportResponse> => {
    if (request.signal?.aborted) throw new TransportError("aborted", "request cancelled", false);
    const route = `${request.method} ${request.url.pathname}`;
    requests.push({
      method: request.method,
      path: request.url.pathname,
      query: Object.fromEntries(request.url.searchParams),
      headers: request.headers,
      body: request.body ?? Buffer.alloc(0),
      route,
    });
    const script = scripts.get(route);
    if (!script) {
      unexpected.push(route);
      throw new TransportError("network", `no scripted reply for ${route}`, false);
    }
    const reply = script.replies[Math.min(script.served, script.replies.length - 1)]!;
    script.served++;
    if (reply.kind === "transportError") {
      if (reply.failure === "timeout") throw new TransportError("timeout", `no answer within ${request.timeoutMs / 1000} s`, true);
      throw new TransportError("network", reply.message ?? "connection reset", false);
    }
    const body = Buffer.from(reply.kind === "json" ? JSON.stringify(reply.body) : reply.body);
    const headers: Record<string, string> = {
      ...(reply.kind === "json" ? { "content-type": "application/json" } : {}),
      ...reply.headers,
      "content-length": String(body.byteLength),
    };
    if (body.byteLength > request.maxResponseBytes)
      throw new TransportError(
        "too_large",
        `response body of ${body.byteLength} bytes is over the ${request.maxResponseBytes}-byte limit`,
        true,
        reply.status,
      );
    return { status: reply.status, headers, body };
  };
  const script = (route: string, replies: Array<Reply | TransportFault>, required: boolean) => {
    if (replies.length === 0) throw new Error("a route needs at least one reply");
    const replaced = scripts.get(route);
    if (replaced?.required && replaced.served < replaced.replies.length)
      throw new Error(`${route} scripted again before its replies were used`);
    for (const reply of replies) {
      if (reply.kind !== "json" && reply.kind !== "raw" && reply.kind !== "transportError")
        throw new Error(`a ${reply.kind} reply needs a real connection: use the fault server`);
    }
    scripts.set(route, { replies: replies as MemoryReply[], served: 0, required });
    return scripted;
  };
  const scripted: ScriptedTransport = {
    transport: answer,
    requests,
    unexpected,
    route: (route, ...replies) => script(route, replies, true),
    allow: (route, ...replies) => script(route, replies, false),
    count: (route) => (route === undefined ? requests.length : requests.filter((request) => request.route === route).length),
    reset() {
      expectAllUsed();
      scripts.clear();
      requests.length = 0;
      unexpected.length = 0;
      return scripted;
    },
  };
  return scripted;
}
