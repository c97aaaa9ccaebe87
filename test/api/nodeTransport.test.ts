/** The default transport (node:http) against a real local server: failures and clean-up. */
import { getEventListeners } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeTransport } from "../../src/api/nodeTransport.js";
import { TransportError, type TransportRequest } from "../../src/api/transport.js";

let server: http.Server;
let origin = "";

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === "/slow") return; // never answers
    if (request.url === "/cut") {
      // Half the promised body, then the connection drops.
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"half":');
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ path: request.url, auth: request.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = (path: string, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  method: "GET",
  url: new URL(path, origin),
  headers: { authorization: "Bearer t" },
  timeoutMs: 2000,
  maxResponseBytes: 1024,
  ...extra,
});

async function transportError(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransportError);
    return error as TransportError;
  }
  throw new Error("expected a transport error");
}

describe("node transport", () => {
  it("sends the headers and reads the answer", async () => {
    const response = await createNodeTransport()(request("/v2/intake/1?user_id=2"));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(response.body.toString())).toEqual({ path: "/v2/intake/1?user_id=2", auth: "Bearer t" });
  });

  it("reports a refused connection as a network error", async () => {
    const error = await transportError(createNodeTransport()(request("/", { url: new URL("http://127.0.0.1:1/") })));
    expect(error.kind).toBe("network");
    expect(error.message).toBe("connection refused");
  });

  it("reports a server that does not answer in time as a timeout", async () => {
    const error = await transportError(createNodeTransport()(request("/slow", { timeoutMs: 50 })));
    expect(error.kind).toBe("timeout");
    expect(error.maybeSent).toBe(true);
  });

  it("reports a body cut short by a dropped connection as a network error after sending", async () => {
    const error = await transportError(createNodeTransport()(request("/cut")));
    expect(error.kind).toBe("network");
    expect(error.maybeSent).toBe(true);
    expect(error.message).toMatch(/^connection broken while reading the answer/);
  });

  it("refuses a body over the limit", async () => {
    const error = await transportError(createNodeTransport()(request("/x".padEnd(200, "x"), { maxResponseBytes: 10 })));
    expect(error.kind).toBe("too_large");
  });

  it("leaves no abort listener behind, whether a request succeeds or fails", async () => {
    const controller = new AbortController();
    const transport = createNodeTransport();
    await transport(request("/ok", { signal: controller.signal }));
    for (let i = 0; i < 3; i++) {
      await transportError(transport(request("/", { url: new URL("http://127.0.0.1:1/"), signal: controller.signal })));
    }
    await transportError(transport(request("/slow", { timeoutMs: 30, signal: controller.signal })));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("reports Ctrl-C as aborted", async () => {
    const controller = new AbortController();
    const pending = createNodeTransport()(request("/slow", { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect((await transportError(pending)).kind).toBe("aborted");
  });
});
