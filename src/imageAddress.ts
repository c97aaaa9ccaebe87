/**
 * Where an intake's image may be fetched from (`--image`) or opened (`--web`): an API that is not
 * on this machine does not get to point foodctl, or the browser, at this machine or its network.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { isLoopbackHost } from "./hosts.js";

/** Loopback, private, link-local and the like: addresses no image of a remote API lives at. */
const LOCAL_NETWORKS: ReadonlyArray<[string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"], // "this network": 0.0.0.0 reaches this machine
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"], // link-local, cloud metadata services among them
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["::", 128, "ipv6"],
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"], // unique local
  ["fe80::", 10, "ipv6"], // link-local
];

const localNetworks = new BlockList();
for (const [address, prefix, family] of LOCAL_NETWORKS) localNetworks.addSubnet(address, prefix, family);

/** True for an IP address (IPv4-mapped IPv6 included) on loopback, a private network or a link. */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return false;
  return localNetworks.check(bare, family === 4 ? "ipv4" : "ipv6");
}

export type Lookup = (hostname: string) => Promise<string[]>;

/** The addresses a name resolves to here; none when it does not resolve (the fetch then says so). */
const systemLookup: Lookup = async (hostname) => {
  try {
    return (await dnsLookup(hostname, { all: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
};

/**
 * Why the image may not be fetched or opened, or null: with an API that is not on loopback, an
 * image on loopback, a private or a link-local address (by its name or what the name resolves
 * to) would be a request to this machine or its network on the API's say-so. An image on the
 * API's own host is the API's.
 */
export async function imageAddressProblem(image: URL, api: URL, lookup: Lookup = systemLookup): Promise<string | null> {
  if (isLoopbackHost(api.hostname) || image.hostname === api.hostname) return null;
  const host = image.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) !== 0 ? [host] : isLoopbackHost(host) || /\.localhost$/i.test(host) ? ["127.0.0.1"] : await lookup(host);
  const local = addresses.find(isLocalAddress);
  if (local === undefined) return null;
  const where = local === host ? local : `${host}, ${local}`;
  return `the API at ${api.host} points at an image on this machine or its local network (${where})`;
}
