/** The reply-scripting helpers fail the test for a reply no request reached, with no call to remember. */
import { describe, expect, it } from "vitest";
import { faults, startFaultServer } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";

const request = (path: string) => ({
  method: "GET",
  url: new URL(path, "http://127.0.0.1:9"),
  headers: {},
  timeoutMs: 1000,
  maxResponseBytes: 1024,
});

describe("scriptedTransport", () => {
  it.fails("fails the test that scripted a route no request reached", () => {
    scriptedTransport().route("GET /never", faults.json(200, {}));
  });

  it.fails("fails the test for the second reply of a route asked once", async () => {
    const scripted = scriptedTransport().route("GET /once", faults.json(503, {}), faults.json(200, {}));
    await scripted.transport(request("/once"));
  });

  it("passes when every reply was used, the last one repeating", async () => {
    const scripted = scriptedTransport().route("GET /twice", faults.json(503, {}), faults.json(200, {}));
    for (let i = 0; i < 3; i++) await scripted.transport(request("/twice"));
    expect(scripted.count("GET /twice")).toBe(3);
  });

  it("fails reset() for the replies of the script it forgets, and takes allowed ones unused", async () => {
    const scripted = scriptedTransport().route("GET /a", faults.json(200, {})).allow("GET /b", faults.json(200, {}));
    expect(() => scripted.reset()).toThrow(/scripted replies no request reached/);
    await scripted.transport(request("/a"));
    scripted.reset();
  });
});

describe("fault server", () => {
  it("reset() forgets the script and then fails for the replies no request reached, naming where they were scripted", async () => {
    const server = await startFaultServer();
    try {
      server.route("GET /never", faults.json(200, {})).allow("GET /maybe", faults.json(200, {}));
      expect(() => server.reset()).toThrow(
        /^scripted replies no request reached: GET \/never: 1 of 1 replies \(scripted at test\/unit\/scriptedReplies\.test\.ts:\d+:\d+\)$/,
      );
      expect(server.unused()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("close() closes the server, then fails for the replies no request reached", async () => {
    const server = await startFaultServer();
    server.route("GET /used", faults.json(200, {}), faults.json(200, {})).route("GET /never", faults.json(200, {}));
    for (let i = 0; i < 2; i++) await fetch(`${server.url}/used`);
    await expect(server.close()).rejects.toThrow(/GET \/never: 1 of 1 replies/);
    await expect(fetch(`${server.url}/used`)).rejects.toThrow();
  });
});
