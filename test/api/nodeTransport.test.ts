/**
 * The one transport (node:http(s)) against real local servers: what it sends, its failures
 * (refused, timeout, cut body, too large, Ctrl-C) and clean-up, https, and the same request
 * through a recording proxy (absolute-form for http://, a CONNECT tunnel for https://).
 */
import { EventEmitter, getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeTransport } from "../../src/api/nodeTransport.js";
import { systemClock, type Clock } from "../../src/clock.js";
import { TransportError, type TransportRequest } from "../../src/api/transport.js";
import { startRecordingProxy, type RecordingProxy } from "../helpers/recordingProxy.js";

const TLS_FIXTURE = new URL("../fixtures/tls/", import.meta.url);

let server: http.Server;
let tlsServer: https.Server;
let proxy: RecordingProxy;
let origin = "";
let tlsOrigin = "";

const holding = new EventEmitter();
/** A request time limit that passes once the server holds a /slow request: a timeout after the request was sent, without waiting. */
const whenHeld: Clock["deadline"] = (_ms, onExpiry) => {
  holding.once("held", onExpiry);
  return () => holding.off("held", onExpiry);
};

/** Answers /slow never, /cut with half its body, anything else with the path and the Authorization it got; a proxy's absolute-form requests alike. */
function answer(request: http.IncomingMessage, response: http.ServerResponse) {
  const path = new URL(request.url ?? "/", "http://target.invalid").pathname;
  if (path === "/slow") return void request.on("end", () => holding.emit("held")).resume();
  if (path === "/cut") {
    response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    response.write('{"half":');
    setTimeout(() => response.socket?.destroy(), 20);
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ path: request.url, auth: request.headers.authorization ?? null }));
}

beforeAll(async () => {
  server = http.createServer(answer);
  tlsServer = https.createServer(
    { key: readFileSync(new URL("loopback.key", TLS_FIXTURE)), cert: readFileSync(new URL("loopback.crt", TLS_FIXTURE)) },
    answer,
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tlsOrigin = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  proxy = await startRecordingProxy();
});

afterAll(async () => {
  await proxy.close();
  for (const open of [server, tlsServer]) {
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  }
});

const request = (path: string, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  method: "GET",
  url: new URL(path, origin),
  headers: { authorization: "Bearer t" },
  timeoutMs: 2000,
  maxResponseBytes: 1024,
  ...extra,
});

describe("a request's own lookup", () => {
  it("turns the host's name into the address it answers (an image a remote API names: src/imageAddress.ts)", async () => {
    const asked: string[] = [];
    const lookup: TransportRequest["lookup"] = (hostname, options, callback) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    };
    const port = new URL(origin).port;
    const response = await createNodeTransport()(request("/pinned", { url: new URL(`http://images.invalid:${port}/pinned`), lookup }));
    expect(JSON.parse(response.body.toString("utf8"))).toMatchObject({ path: "/pinned" });
    expect(asked).toEqual(["images.invalid"]);
  });

  it("a lookup that refuses: a network error in its words, nothing sent", async () => {
    const lookup: TransportRequest["lookup"] = (_hostname, _options, callback) => callback(new Error("refused by the lookup"), "", 0);
    const error = await transportError(createNodeTransport()(request("/x", { url: new URL("http://images.invalid:9/x"), lookup })));
    expect(error.kind).toBe("network");
    expect(error.message).toBe("refused by the lookup");
    expect(error.maybeSent).toBe(false);
  });
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

describe("the transport", () => {
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

  it("reports a server that does not answer in time as a timeout, after sending", async () => {
    const clock = { ...systemClock, deadline: whenHeld };
    const error = await transportError(createNodeTransport({ clock })(request("/slow", { timeoutMs: 50 })));
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("no answer within 0.05 s");
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

  it("speaks TLS to an https URL: a plain-http server fails the handshake as a network error, said plainly", async () => {
    const error = await transportError(createNodeTransport()(request("/", { url: new URL(origin.replace("http:", "https:")) })));
    expect(error.kind).toBe("network");
    expect(error.message).toBe("the server does not speak TLS: use http://");
  });

  it("checks the server's certificate, and still answers http requests after an https one", async () => {
    const transport = createNodeTransport();
    const error = await transportError(transport(request("/", { url: new URL(tlsOrigin) })));
    expect(error.message).toMatch(/^TLS certificate not trusted/);
    expect((await transport(request("/after"))).status).toBe(200);
  });
});

describe("the transport behind a proxy", () => {
  const through = (env: NodeJS.ProcessEnv) => createNodeTransport({ env: { NO_PROXY: "", ...env } });

  it("sends an http:// request to HTTP_PROXY in absolute form, the token with it", async () => {
    const before = proxy.requests.length;
    const response = await through({ HTTP_PROXY: proxy.url })(request("/v2/intake/1"));
    expect(JSON.parse(response.body.toString())).toEqual({ path: "/v2/intake/1", auth: "Bearer t" });
    expect(proxy.requests.slice(before).map((seen) => seen.target)).toEqual([`${origin}/v2/intake/1`]);
  });

  it("opens a CONNECT tunnel to an https:// URL's host through HTTPS_PROXY and speaks TLS inside it", async () => {
    const before = proxy.tunnels.length;
    const error = await transportError(through({ HTTPS_PROXY: proxy.url })(request("/", { url: new URL(tlsOrigin) })));
    // The TLS server's certificate reached the client through the tunnel (and is not trusted here: a spawned CLI trusts it in e2e/proxy.test.ts).
    expect(error.message).toMatch(/^TLS certificate not trusted/);
    expect(proxy.tunnels.slice(before)).toEqual([new URL(tlsOrigin).host]);
  });

  it("goes direct to a loopback URL unless NO_PROXY is set and empty", async () => {
    const before = proxy.requests.length;
    await createNodeTransport({ env: { HTTP_PROXY: proxy.url } })(request("/direct"));
    await createNodeTransport({ env: { HTTP_PROXY: proxy.url, NO_PROXY: "other.example" } })(request("/direct"));
    expect(proxy.requests.length).toBe(before);
  });

  it("times out on a proxy that never answers, and reports Ctrl-C as aborted", async () => {
    // The test server is the proxy here: it holds /slow, whatever host the absolute URL names.
    const transport = through({ HTTP_PROXY: origin });
    const timedOut = await transportError(transport(request("/slow", { url: new URL("http://localhost:9/slow"), timeoutMs: 50 })));
    expect(timedOut.kind).toBe("timeout");
    const controller = new AbortController();
    const pending = transport(request("/slow", { url: new URL("http://localhost:9/slow"), signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect((await transportError(pending)).kind).toBe("aborted");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("reports a proxy that refuses connections as a network error", async () => {
    const error = await transportError(through({ HTTP_PROXY: "http://127.0.0.1:1" })(request("/")));
    expect(error.kind).toBe("network");
    expect(error.message).toBe("connection refused");
  });

  it("refuses a plain http:// request through a proxy off this machine, and a proxy it cannot use, sending nothing", async () => {
    const offMachine = await transportError(
      through({ HTTP_PROXY: "http://proxy.example:3128" })(request("/", { url: new URL("http://api.example/v2") })),
    );
    expect(offMachine).toMatchObject({ kind: "network", maybeSent: false });
    expect(offMachine.message).toMatch(/plain http:\/\/ to api\.example through the proxy proxy\.example \(HTTP_PROXY\)/);
    const socks = await transportError(through({ HTTPS_PROXY: "socks5://127.0.0.1:1080" })(request("/", { url: new URL(tlsOrigin) })));
    expect(socks).toMatchObject({ kind: "network", maybeSent: false });
    expect(socks.message).toMatch(/^HTTPS_PROXY names a socks5 proxy/);
  });
});
