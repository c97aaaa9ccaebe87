/** The sandbox's addresses and JSON duplicate-key check, as pure functions. */
import { describe, expect, it } from "vitest";
import { findDuplicateKey, nestedDeeperThan } from "../../src/json.js";
import { clientUrl, httpUrl, isLoopbackHost, networkWarning, socketUrl } from "../../src/sandbox/network.js";

describe("--host 0.0.0.0 (issue 15: printed a 127.0.0.1 URL and warned of nothing)", () => {
  it("the listening address is the real one; clients on this machine still get a loopback URL", () => {
    expect(httpUrl("0.0.0.0", 8787)).toBe("http://0.0.0.0:8787");
    expect(clientUrl("0.0.0.0", 8787)).toBe("http://127.0.0.1:8787");
    expect(clientUrl("::", 8787)).toBe("http://[::1]:8787");
    expect(httpUrl("::", 8787)).toBe("http://[::]:8787");
  });

  it("a non-loopback address comes with a warning that the well-known tokens are reachable from the network", () => {
    expect(networkWarning("0.0.0.0", "http://0.0.0.0:8787")).toMatch(
      /listens on http:\/\/0\.0\.0\.0:8787, reachable from the network: its well-known tokens/,
    );
    expect(networkWarning("192.168.1.20", "http://192.168.1.20:8787")).not.toBeNull();
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost", "::ffff:127.0.0.1"]) expect(networkWarning(host, "x")).toBeNull();
    for (const host of ["evil.localhost", "127.0.0.256", "::ffff:10.0.0.1"]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it("image URLs on a wildcard address come from the socket's local address, never from the Host header", () => {
    expect(socketUrl("::ffff:192.168.1.20", 8787, "http://127.0.0.1:8787")).toBe("http://192.168.1.20:8787");
    expect(socketUrl("fe80::1", 8787, "x")).toBe("http://[fe80::1]:8787");
    expect(socketUrl(undefined, undefined, "http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787");
  });
});

describe("findDuplicateKey", () => {
  it.each([
    ['{"a": 1, "a": 2}', "a"],
    ['{"a": {"b": 1, "b": 2}}', "b"],
    ['[{"x": 1}, {"y": {"z": [1, {"q": 1, "\\u0071": 2}]}}]', "q"],
    ['{"a": "b", "b": "a", "c": ["a", "a"], "a": 1}', "a"],
  ])("finds the duplicate in %s", (text, key) => {
    expect(findDuplicateKey(text)).toBe(key);
  });

  it.each(['{"a": 1, "b": {"a": 1}}', '[{"a": 1}, {"a": 2}]', '{"a\\"b": 1, "a": "\\"b"}', '"a"', "[]"])("finds none in %s", (text) => {
    expect(findDuplicateKey(text)).toBeNull();
  });

  it("walks 100,000 levels of nesting without recursion", () => {
    const deep = `${"[".repeat(100_000)}{"k": 1, "k": 2}${"]".repeat(100_000)}`;
    expect(findDuplicateKey(deep)).toBe("k");
  });
});

describe("nestedDeeperThan", () => {
  it("counts objects and lists alike, and stops at the limit however deep the value goes", () => {
    expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestedDeeperThan("text", 0)).toBe(false);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(nestedDeeperThan(deep)).toBe(true);
  });
});
