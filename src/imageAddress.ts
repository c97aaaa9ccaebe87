/**
 * Where an intake's image may be fetched from (`--image`) or opened (`--web`): an API that is not
 * on this machine does not get to point foodctl, or the browser, at this machine or its network.
 */
import { lookup as lookupWithCallback, type LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { failure } from "./errors.js";
import { isLoopbackHost, isRemoteApisImage } from "./hosts.js";

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
  if (!isRemoteApisImage(image, api)) return null;
  const host = image.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) !== 0 ? [host] : isLoopbackHost(host) || /\.localhost$/i.test(host) ? ["127.0.0.1"] : await lookup(host);
  const local = addresses.find(isLocalAddress);
  return local === undefined ? null : localImageProblem(api, host, local);
}

const localImageProblem = (api: URL, host: string, address: string) =>
  `the API at ${api.host} points at an image on this machine or its local network (${address === host ? host : `${host}, ${address}`})`;

/**
 * The DNS lookup of the connection that fetches an image a remote API names: an address on this
 * machine or its network is refused when foodctl connects, so a name cannot resolve to a public
 * address for the check above and to a local one for the fetch. An address written in the URL is
 * refused at once (no lookup runs for it). For an image the rule applies to (isRemoteApisImage).
 */
export function imageLookup(image: URL, api: URL): LookupFunction {
  const host = image.hostname.replace(/^\[|\]$/g, "");
  if (isLocalAddress(host)) throw failure(`${localImageProblem(api, host, host)}: not fetched; it is at ${image.href}`);
  return (hostname, options, callback) =>
    lookupWithCallback(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      const local = error ? undefined : addresses.find((entry) => isLocalAddress(entry.address));
      const refused = error ?? (local && new Error(`${localImageProblem(api, hostname, local.address)}: not fetched`));
      if (refused) return callback(refused, "", 0);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
}
