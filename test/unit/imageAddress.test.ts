/** Where an intake's image may be fetched or opened from: nothing on this machine or its network on a remote API's say-so (N5). */
import { describe, expect, it } from "vitest";
import { imageAddressProblem, isLocalAddress } from "../../src/imageAddress.js";

describe("isLocalAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.0.0.1",
    "100.64.1.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fd00::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
  ])("%s is local", (address) => {
    expect(isLocalAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1", "::ffff:8.8.8.8", "api.example.com", ""])(
    "%s is not",
    (address) => {
      expect(isLocalAddress(address)).toBe(false);
    },
  );
});

describe("imageAddressProblem", () => {
  const api = new URL("https://api.example.com/");
  const lookup = (answers: Record<string, string[]>) => async (hostname: string) => answers[hostname] ?? [];

  it("refuses a name that resolves to a private address, naming both", async () => {
    const problem = await imageAddressProblem(new URL("https://intranet.corp/x.png"), api, lookup({ "intranet.corp": ["10.9.8.7"] }));
    expect(problem).toBe("the API at api.example.com points at an image on this machine or its local network (intranet.corp, 10.9.8.7)");
  });

  it("refuses a name with any local address among those it resolves to", async () => {
    const answers = lookup({ "cdn.example.net": ["93.184.216.34", "127.0.0.1"] });
    expect(await imageAddressProblem(new URL("https://cdn.example.net/x.png"), api, answers)).toMatch(
      /\(cdn\.example\.net, 127\.0\.0\.1\)$/,
    );
  });

  it("refuses *.localhost without asking a resolver", async () => {
    const never = async () => {
      throw new Error("no lookup expected");
    };
    expect(await imageAddressProblem(new URL("http://app.localhost/x.png"), api, never)).toMatch(/\(app\.localhost, 127\.0\.0\.1\)$/);
  });

  it("lets a public name, or one that does not resolve here, be fetched (the fetch then says what fails)", async () => {
    const answers = lookup({ "cdn.example.net": ["93.184.216.34"] });
    expect(await imageAddressProblem(new URL("https://cdn.example.net/x.png"), api, answers)).toBeNull();
    expect(await imageAddressProblem(new URL("https://unknown.example/x.png"), api, answers)).toBeNull();
  });

  it("lets any image be fetched when the API is on this machine (a sandbox), and the API's own host always", async () => {
    const local = lookup({});
    expect(await imageAddressProblem(new URL("http://127.0.0.1:8787/images/a.png"), new URL("http://127.0.0.1:8787"), local)).toBeNull();
    expect(await imageAddressProblem(new URL("https://10.0.0.5/images/a.png"), new URL("http://localhost:8787"), local)).toBeNull();
    expect(await imageAddressProblem(new URL("https://10.0.0.5/images/a.png"), new URL("https://10.0.0.5"), local)).toBeNull();
  });
});
