/**
 * Which proxy a URL takes (proxy-from-env under NO_PROXY, from the run's environment, with
 * foodctl's loopback rule on top), and when plain http may not take it.
 */
import { describe, expect, it } from "vitest";
import { plainHttpProxyProblem, proxyFor, ProxySettingError } from "../../src/api/proxy.js";

const api = new URL("https://api.example.com/v2/intake/1");
const plain = new URL("http://127.0.0.1:8787/v2/intake/1");
const PROXY = "http://proxy.example:3128";
const href = (url: URL, env: NodeJS.ProcessEnv) => proxyFor(url, env)?.href ?? null;

describe("proxyFor", () => {
  it("takes HTTPS_PROXY for https and HTTP_PROXY for http, upper or lower case", () => {
    expect(href(api, { HTTPS_PROXY: PROXY })).toBe(`${PROXY}/`);
    expect(href(api, { https_proxy: PROXY })).toBe(`${PROXY}/`);
    expect(href(plain, { HTTP_PROXY: PROXY, NO_PROXY: "" })).toBe(`${PROXY}/`);
    expect(href(plain, { http_proxy: PROXY, no_proxy: "" })).toBe(`${PROXY}/`);
  });

  it("does not take one scheme's proxy for the other, nor ALL_PROXY, nor an empty one", () => {
    expect(href(api, { HTTP_PROXY: PROXY })).toBeNull();
    expect(href(plain, { HTTPS_PROXY: PROXY, NO_PROXY: "" })).toBeNull();
    expect(href(api, { ALL_PROXY: PROXY, all_proxy: PROXY })).toBeNull();
    expect(href(api, { HTTPS_PROXY: "" })).toBeNull();
    expect(href(api, {})).toBeNull();
  });

  it("reads the run's environment, not the process's, and leaves process.env as it was", () => {
    const own = process.env;
    expect(href(api, {})).toBeNull();
    expect(href(api, { HTTPS_PROXY: PROXY })).toBe(`${PROXY}/`);
    expect(process.env).toBe(own);
  });

  it("a loopback URL goes direct unless NO_PROXY is set and empty", () => {
    expect(href(plain, { HTTP_PROXY: PROXY })).toBeNull();
    expect(href(plain, { HTTP_PROXY: PROXY, NO_PROXY: "other.example" })).toBeNull();
    expect(href(new URL("https://[::1]:8443/"), { HTTPS_PROXY: PROXY })).toBeNull();
    expect(href(new URL("http://localhost:8787/"), { HTTP_PROXY: PROXY })).toBeNull();
    expect(href(plain, { HTTP_PROXY: PROXY, NO_PROXY: "" })).toBe(`${PROXY}/`);
    expect(href(plain, { HTTP_PROXY: PROXY, no_proxy: "" })).toBe(`${PROXY}/`);
  });

  it.each([
    ["*", false],
    ["api.example.com", false],
    [".example.com", false],
    ["*.example.com", false],
    ["api.example.com:443", false],
    ["other.com,api.example.com", false],
    ["other.com api.example.com", false],
    ["api.example.com:8443", true],
    ["example.com", true],
    ["pi.example.com", true],
    ["other.com, localhost", true],
  ])("with NO_PROXY=%j the proxy is taken: %s", (noProxy, taken) => {
    expect(href(api, { HTTPS_PROXY: PROXY, NO_PROXY: noProxy }) !== null).toBe(taken);
    expect(href(api, { HTTPS_PROXY: PROXY, no_proxy: noProxy }) !== null).toBe(taken);
  });

  it("reads a proxy without a scheme as http://", () => {
    expect(href(api, { HTTPS_PROXY: "proxy.example:3128" })).toBe(`${PROXY}/`);
  });

  it("refuses a proxy it cannot use, naming the variable and not the value", () => {
    expect(() => proxyFor(api, { HTTPS_PROXY: "socks5://user:secret@proxy.example:1080" })).toThrow(
      new ProxySettingError("HTTPS_PROXY names a socks5 proxy: only http:// and https:// proxies are supported"),
    );
    expect(() => proxyFor(api, { HTTPS_PROXY: "http://[bad" })).toThrow(new ProxySettingError("HTTPS_PROXY is not a URL"));
  });
});

describe("plainHttpProxyProblem", () => {
  const remote = new URL("http://api.example.com/v2");

  it("refuses plain http through a proxy off this machine", () => {
    expect(plainHttpProxyProblem(remote, new URL(PROXY))).toBe(
      "refusing to send the token over plain http:// to api.example.com through the proxy proxy.example (HTTP_PROXY): it would leave this machine in clear text",
    );
  });

  it("allows https through any proxy, plain http through one on this machine, and a direct request", () => {
    expect(plainHttpProxyProblem(api, new URL(PROXY))).toBeNull();
    expect(plainHttpProxyProblem(remote, new URL("http://127.0.0.1:3128"))).toBeNull();
    expect(plainHttpProxyProblem(remote, new URL("http://[::1]:3128"))).toBeNull();
    expect(plainHttpProxyProblem(remote, null)).toBeNull();
  });
});
