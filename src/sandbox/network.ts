/** Addresses the sandbox listens on and the URLs it gives out, never taken from a request's Host header. */
import { isIPv6 } from "node:net";
import { isLoopbackHost as isLoopbackUrlHost } from "../hosts.js";

export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

/** Only `localhost`, 127.0.0.0/8 and ::1 stay on this machine: the client's own rule, plus the IPv4-mapped form a socket may report. */
export function isLoopbackHost(host: string): boolean {
  return host === "::ffff:127.0.0.1" || isLoopbackUrlHost(host);
}

export function httpUrl(host: string, port: number): string {
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** The URL clients on this machine use: a wildcard address is reached through loopback. */
export function clientUrl(host: string, port: number): string {
  return httpUrl(host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "::1" : host, port);
}

/** The warning to print when the sandbox is reachable from other machines; null on loopback. */
export function networkWarning(host: string, listeningUrl: string): string | null {
  if (isLoopbackHost(host)) return null;
  return (
    `the sandbox listens on ${listeningUrl}, reachable from the network: its well-known tokens ` +
    "(printed at start, derived from its secret) give anyone who can reach it full access to its data"
  );
}

/**
 * Where a connection reached the sandbox (the local address of its socket, not the Host header),
 * for image URLs when listening on a wildcard address.
 */
export function socketUrl(localAddress: string | undefined, localPort: number | undefined, fallback: string): string {
  if (localAddress === undefined || localPort === undefined) return fallback;
  const address = localAddress.startsWith("::ffff:") ? localAddress.slice("::ffff:".length) : localAddress;
  return httpUrl(address, localPort);
}
