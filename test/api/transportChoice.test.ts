/**
 * Which transport a request takes: the proxy rule (HTTPS_PROXY/HTTP_PROXY under NO_PROXY), and
 * the node transport's https path, whose module is loaded on the first https request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeTransport } from "../../src/api/nodeTransport.js";
import { proxyApplies, TransportError } from "../../src/api/transport.js";

describe("proxyApplies", () => {
  const api = new URL("https://api.example.com/v2/intake/1");
  const plain = new URL("http://127.0.0.1:8787/v2/intake/1");

  it("applies HTTPS_PROXY to https and HTTP_PROXY to http, upper or lower case", () => {
    expect(proxyApplies(api, { HTTPS_PROXY: "http://proxy:3128" })).toBe(true);
    expect(proxyApplies(api, { https_proxy: "http://proxy:3128" })).toBe(true);
    expect(proxyApplies(plain, { HTTP_PROXY: "http://proxy:3128", NO_PROXY: "" })).toBe(true);
    expect(proxyApplies(plain, { http_proxy: "http://proxy:3128", no_proxy: "" })).toBe(true);
  });

  it("issue 15 #2: a loopback API URL bypasses the proxy unless NO_PROXY is set and empty", () => {
    expect(proxyApplies(plain, { HTTP_PROXY: "http://proxy:3128" })).toBe(false);
    expect(proxyApplies(new URL("https://[::1]:8443/"), { HTTPS_PROXY: "http://proxy:3128" })).toBe(false);
    expect(proxyApplies(new URL("http://localhost:8787/"), { HTTP_PROXY: "http://proxy:3128" })).toBe(false);
    expect(proxyApplies(plain, { HTTP_PROXY: "http://proxy:3128", NO_PROXY: "" })).toBe(true);
  });

  it("does not apply one scheme's proxy to the other, nor without any", () => {
    expect(proxyApplies(api, { HTTP_PROXY: "http://proxy:3128" })).toBe(false);
    expect(proxyApplies(plain, { HTTPS_PROXY: "http://proxy:3128" })).toBe(false);
    expect(proxyApplies(api, {})).toBe(false);
    expect(proxyApplies(api, { HTTPS_PROXY: "" })).toBe(false);
  });

  it.each([
    ["*", false],
    ["api.example.com", false],
    ["example.com", false],
    [".example.com", false],
    ["*.example.com", false],
    ["api.example.com:443", false],
    ["api.example.com:8443", true],
    ["other.com, localhost", true],
    ["pi.example.com", true],
    ["other.com,example.com", false],
  ])("with NO_PROXY=%j the proxy applies: %s", (noProxy, applies) => {
    expect(proxyApplies(api, { HTTPS_PROXY: "http://proxy:3128", NO_PROXY: noProxy })).toBe(applies);
    expect(proxyApplies(api, { HTTPS_PROXY: "http://proxy:3128", no_proxy: noProxy })).toBe(applies);
  });
});

describe("node transport over https", () => {
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    server = http.createServer((_request, response) => response.end("plain http"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("speaks TLS to an https URL: a plain-http server fails the handshake as a network error", async () => {
    const transport = createNodeTransport();
    const attempt = transport({
      method: "GET",
      url: new URL(`https://127.0.0.1:${port}/`),
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    });
    const error = await attempt.then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe("network");
  });

  it("still answers http requests from the same transport after an https one", async () => {
    const transport = createNodeTransport();
    await transport({
      method: "GET",
      url: new URL(`https://127.0.0.1:${port}/`),
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    }).catch(() => undefined);
    const response = await transport({
      method: "GET",
      url: new URL(`http://127.0.0.1:${port}/`),
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("plain http");
  });
});
