/**
 * An in-memory transport for `run(argv, { transport })`: routes scripted like the fault
 * server's ("METHOD /path", query ignored; the n-th request gets the n-th reply, the last
 * repeats), every request recorded, no socket. A request to an unscripted route fails the
 * run and is kept in `unexpected`; `expectAllUsed()` fails the test for a scripted route that
 * no request reached. Besides answers, a reply may be a failure of the transport itself
 * (`transportFaults`: a network error, a timeout). For what needs a real connection (resets,
 * huge bodies, hangs, proxies), use test/helpers/faultServer.ts.
 */
import { expect } from "vitest";
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
  route(route: string, ...replies: Array<Reply | TransportFault>): ScriptedTransport;
  count(route?: string): number;
  reset(): ScriptedTransport;
  expectAllUsed(): void;
}

export function scriptedTransport(): ScriptedTransport {
  const scripts = new Map<string, { replies: MemoryReply[]; served: number }>();
  const requests: RecordedCall[] = [];
  const unexpected: string[] = [];
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
  const scripted: ScriptedTransport = {
    transport: answer,
    requests,
    unexpected,
    route(route, ...replies) {
      if (replies.length === 0) throw new Error("a route needs at least one reply");
      for (const reply of replies) {
        if (reply.kind !== "json" && reply.kind !== "raw" && reply.kind !== "transportError")
          throw new Error(`a ${reply.kind} reply needs a real connection: use the fault server`);
      }
      scripts.set(route, { replies: replies as MemoryReply[], served: 0 });
      return scripted;
    },
    count: (route) => (route === undefined ? requests.length : requests.filter((request) => request.route === route).length),
    reset() {
      scripts.clear();
      requests.length = 0;
      unexpected.length = 0;
      return scripted;
    },
    expectAllUsed() {
      expect(unexpected, "requests to unscripted routes").toEqual([]);
      const unused = [...scripts].filter(([, script]) => script.served === 0).map(([route]) => route);
      expect(unused, "scripted routes no request reached").toEqual([]);
    },
  };
  return scripted;
}
