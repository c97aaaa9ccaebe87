/**
 * HTTP_PROXY routes the built CLI's requests through the proxy (undici's EnvHttpProxyAgent,
 * loaded only then: the built bundle must find it), and NO_PROXY takes them off it again (in
 * process: the same choice, and nothing of the bundle in it).
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runFoodctl } from "../helpers/cli.js";

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "101", role: "APIUser", exp: 4_000_000_000 })}.c2ln`;

let api: http.Server;
let proxy: http.Server;
let apiPort = 0;
let proxyPort = 0;
const tunnels: string[] = [];

beforeAll(async () => {
  api = http.createServer((request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ intake_info: { image_id: 1002, occasion: "via proxy", path: request.url } }));
  });
  // A proxy that records where each tunnel was asked to go and connects it to the fake API.
  proxy = http.createServer((_request, response) => response.writeHead(502).end());
  proxy.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(request.url ?? "");
    const upstream = net.connect(apiPort, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const server of [api, proxy]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("HTTP_PROXY", () => {
  // Nothing listens on port 9 of localhost: an answer can only have come through the proxy. A loopback
  // API URL takes a proxy only when NO_PROXY is set and empty; the proxy is on this machine, so plain http is allowed.
  const env = () => ({
    FOODCTL_API_URL: "http://localhost:9",
    FOODCTL_TOKEN: token,
    HTTP_PROXY: `http://127.0.0.1:${proxyPort}`,
    NO_PROXY: "",
  });

  it("sends the request through the proxy and says so under --verbose", async () => {
    const result = await runCli(["intake", "show", "1002", "--json", "--verbose"], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).intake_info).toMatchObject({ image_id: 1002, occasion: "via proxy", path: "/v2/intake/1002" });
    expect(tunnels).toContain("localhost:9");
    expect(result.stderr).toContain("* using proxy from HTTP_PROXY");
  });

  it("goes direct without NO_PROXY (a loopback URL bypasses proxies): the closed port is reported, exit 8", async () => {
    const before = tunnels.length;
    const result = await runFoodctl(["intake", "show", "1002", "--json", "--retries", "0"], { env: { ...env(), NO_PROXY: undefined } });
    expect(result.code).toBe(8);
    expect(tunnels).toHaveLength(before);
  });

  it("goes direct when NO_PROXY names the host: the closed port is reported, exit 8", async () => {
    const before = tunnels.length;
    const result = await runFoodctl(["intake", "show", "1002", "--json", "--retries", "0"], { env: { ...env(), NO_PROXY: "localhost" } });
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stderr).error.message).toMatch(/connection refused/);
    expect(tunnels).toHaveLength(before);
  });
});
