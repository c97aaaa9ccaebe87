/** Where an intake's image may be fetched or opened from: nothing on this machine or its network on a remote API's say-so (N5). */
import { describe, expect, it } from "vitest";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isRemoteApisImage } from "../../src/hosts.js";
import { imageAddressProblem, imageLookup, isLocalAddress } from "../../src/imageAddress.js";

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

describe("imageLookup: the address is checked again when foodctl connects (a name cannot resolve one way for the check, another for the fetch)", () => {
  const api = new URL("https://api.example.com");
  /** What the lookup answers for `hostname` (an address written as a name: no resolver is asked). */
  const answer = (lookup: LookupFunction, hostname: string, all: boolean) =>
    new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
      lookup(hostname, { all }, (error: Error | null, address: string | LookupAddress[]) => resolve({ error, address })),
    );

  it("refuses, when connecting, a name that resolves to this machine or its network", async () => {
    const lookup = imageLookup(new URL("https://images.example.com/a.png"), api);
    for (const all of [true, false]) {
      const { error } = await answer(lookup, "127.0.0.1", all);
      expect(error?.message).toBe(
        "the API at api.example.com points at an image on this machine or its local network (127.0.0.1): not fetched",
      );
    }
    expect((await answer(lookup, "10.1.2.3", false)).error?.message).toMatch(/local network \(10\.1\.2\.3\): not fetched$/);
  });

  it("lets a public address through, in the form asked for", async () => {
    const lookup = imageLookup(new URL("https://images.example.com/a.png"), api);
    expect(await answer(lookup, "93.184.215.14", true)).toEqual({ error: null, address: [{ address: "93.184.215.14", family: 4 }] });
    expect((await answer(lookup, "93.184.215.14", false)).address).toBe("93.184.215.14");
  });

  it("refuses an address written in the URL at once (no lookup runs for it)", () => {
    expect(() => imageLookup(new URL("http://192.168.1.20/a.png"), api)).toThrow(
      "the API at api.example.com points at an image on this machine or its local network (192.168.1.20): not fetched; it is at http://192.168.1.20/a.png",
    );
  });

  it("applies to a remote API's images on other hosts only: not with an API on this machine (a sandbox), nor to the API's own host", () => {
    expect(isRemoteApisImage(new URL("https://images.example.com/a.png"), api)).toBe(true);
    expect(isRemoteApisImage(new URL("http://127.0.0.1:9/a.png"), new URL("http://127.0.0.1:8787"))).toBe(false);
    expect(isRemoteApisImage(new URL("https://api.example.com/images/a.png"), api)).toBe(false);
  });
});
