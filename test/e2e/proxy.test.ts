/**
 * HTTPS_PROXY and HTTP_PROXY route the CLI's requests through a recording proxy on loopback: an
 * https:// API through a CONNECT tunnel (the built CLI, spawned: its bundle must find the proxy
 * agents, and only a process can be given the test certificate through NODE_EXTRA_CA_CERTS), a
 * plain http:// API as absolute-form requests; NO_PROXY and the loopback rule take them off it
 * again (in process: the same choice, and nothing of the bundle in it).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runFoodctl } from "../helpers/cli.js";
import { startRecordingProxy, type RecordingProxy } from "../helpers/recordingProxy.js";

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "101", role: "APIUser", exp: 4_000_000_000 })}.c2ln`;
const CERT = fileURLToPath(new URL("../fixtures/tls/loopback.crt", import.meta.url));
const KEY = fileURLToPath(new URL("../fixtures/tls/loopback.key", import.meta.url));

let api: http.Server;
let tlsApi: https.Server;
let proxy: RecordingProxy;
let apiPort = 0;
let tlsPort = 0;

/** The fake API: one intake naming the path and scheme it was asked on. */
function answer(scheme: string) {
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ intake_info: { image_id: 1002, occasion: `via ${scheme}`, path: request.url } }));
  };
}

beforeAll(async () => {
  api = http.createServer(answer("http"));
  tlsApi = https.createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, answer("https"));
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => tlsApi.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  tlsPort = (tlsApi.address() as AddressInfo).port;
  proxy = await startRecordingProxy();
});

afterAll(async () => {
  await proxy.close();
  for (const server of [api, tlsApi]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("proxies", () => {
  // A loopback API URL takes a proxy only when NO_PROXY is set and empty; the proxy is on this machine, so plain http is allowed.
  const httpEnv = (extra: Record<string, string | undefined> = {}) => ({
    FOODCTL_API_URL: `http://localhost:${apiPort}`,
    FOODCTL_TOKEN: token,
    HTTP_PROXY: proxy.url,
    NO_PROXY: "",
    ...extra,
  });

  it("tunnels an https:// API through HTTPS_PROXY with CONNECT and says so under --verbose (built CLI)", async () => {
    const result = await runCli(["intake", "show", "1002", "--json", "--verbose"], {
      env: {
        FOODCTL_API_URL: `https://localhost:${tlsPort}`,
        FOODCTL_TOKEN: token,
        HTTPS_PROXY: proxy.url,
        NO_PROXY: "",
        NODE_EXTRA_CA_CERTS: CERT,
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).intake_info).toMatchObject({ occasion: "via https", path: "/v2/intake/1002" });
    expect(proxy.tunnels).toContain(`localhost:${tlsPort}`);
    expect(result.stderr).toContain(`* using proxy ${new URL(proxy.url).host} from HTTPS_PROXY`);
  });

  it("sends a plain http:// API's requests to HTTP_PROXY in absolute form", async () => {
    const before = proxy.requests.length;
    const result = await runFoodctl(["intake", "show", "1002", "--json"], { env: httpEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).intake_info).toMatchObject({ occasion: "via http", path: "/v2/intake/1002" });
    expect(proxy.requests.slice(before).map((request) => request.target)).toEqual([`http://localhost:${apiPort}/v2/intake/1002`]);
  });

  it.each([
    ["NO_PROXY unset (a loopback URL bypasses proxies)", { NO_PROXY: undefined }],
    ["NO_PROXY naming another host (still loopback)", { NO_PROXY: "api.example.com" }],
    ["NO_PROXY naming the host", { NO_PROXY: "localhost" }],
  ])("goes direct with %s", async (_name, extra) => {
    const before = proxy.requests.length;
    const result = await runFoodctl(["intake", "show", "1002", "--json"], { env: httpEnv(extra) });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.requests.length).toBe(before);
  });

  it("refuses a proxy setting it cannot use with exit 2, sending nothing", async () => {
    const before = proxy.requests.length;
    const result = await runFoodctl(["intake", "show", "1002"], { env: httpEnv({ HTTP_PROXY: "socks5://127.0.0.1:1080" }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: HTTP_PROXY names a socks5 proxy: only http:\/\/ and https:\/\/ proxies are supported$/m);
    expect(proxy.requests.length).toBe(before);
  });
});
