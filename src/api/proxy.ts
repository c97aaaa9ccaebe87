/**
 * Proxies, loaded only when the environment names one (`proxyVariableSet`): proxy-from-env
 * decides which proxy a URL takes under NO_PROXY; https-proxy-agent (a CONNECT tunnel) or
 * http-proxy-agent (plain http) is the node:http agent that carries the request there.
 */
import type { Agent, ClientRequest } from "node:http";
import type { Socket } from "node:net";
import { HttpProxyAgent } from "http-proxy-agent";
import { HttpsProxyAgent } from "https-proxy-agent";
import { getProxyForUrl } from "proxy-from-env";
import { TransportError } from "./transport.js";
import { isLoopbackHost } from "../hosts.js";

/** The variables docs/cli.md names: proxy-from-env is shown these and no others (not ALL_PROXY). */
const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];
const NO_PROXY_VARIABLES = ["NO_PROXY", "no_proxy"];

/** A proxy setting that cannot be used: refused before anything is sent. */
export class ProxySettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProxySettingError";
  }
}

/** The variable a URL's proxy comes from, for messages. */
export const proxyVariable = (url: URL): string => (url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY");

/**
 * The proxy this URL goes through, or null for a direct connection. A loopback URL goes direct
 * unless NO_PROXY is set and empty (docs/cli.md, proxies); otherwise proxy-from-env decides.
 */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): URL | null {
  const noProxySet = env.NO_PROXY !== undefined || env.no_proxy !== undefined;
  const noProxyEmpty = !env.no_proxy && !env.NO_PROXY;
  if (isLoopbackHost(url.hostname) && !(noProxySet && noProxyEmpty)) return null;
  const proxy = withEnvironment(env, () => getProxyForUrl(url));
  if (!proxy) return null;
  let parsed: URL;
  try {
    parsed = new URL(proxy);
  } catch {
    throw new ProxySettingError(`${proxyVariable(url)} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ProxySettingError(
      `${proxyVariable(url)} names a ${parsed.protocol.slice(0, -1)} proxy: only http:// and https:// proxies are supported`,
    );
  }
  return parsed;
}

/** proxy-from-env reads process.env: the run's own proxy variables stand in for the one synchronous call. */
function withEnvironment(env: NodeJS.ProcessEnv, read: () => string): string {
  const own = process.env;
  const shown: NodeJS.ProcessEnv = {};
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (value === undefined) continue;
    // A proxy without a scheme is http:// (as curl reads it); proxy-from-env would take the target's scheme.
    shown[name] = NO_PROXY_VARIABLES.includes(name) || value === "" || value.includes("://") ? value : `http://${value}`;
  }
  process.env = shown;
  try {
    return read();
  } finally {
    process.env = own;
  }
}

/**
 * Why a plain-http request may not take this proxy, or null: the token would travel in clear text
 * off the machine when the first hop (the proxy) is not on it.
 */
export function plainHttpProxyProblem(url: URL, proxy: URL | null): string | null {
  if (url.protocol !== "http:" || proxy === null || isLoopbackHost(proxy.hostname)) return null;
  return `refusing to send the token over plain http:// to ${url.host} through the proxy ${proxy.hostname} (${proxyVariable(url)}): it would leave this machine in clear text`;
}

/**
 * https-proxy-agent hands back a proxy's answer other than 200 to a CONNECT as if the server had
 * given it (a 201 or 299 with a body becomes the API's answer): here it is an error naming the
 * proxy and its status, and no request goes anywhere.
 */
class TunnelAgent extends HttpsProxyAgent<string> {
  override async connect(req: ClientRequest, options: Parameters<HttpsProxyAgent<string>["connect"]>[1]): Promise<Socket> {
    let status: number | undefined;
    req.once("proxyConnect", (answer: { statusCode?: number }) => (status = answer.statusCode));
    const socket = await super.connect(req, options);
    if (status === 200) return socket;
    socket.destroy();
    throw new TransportError(
      "proxy",
      `the proxy ${this.proxy.host} answered the CONNECT with ${status ?? "no status"} instead of 200: no tunnel, nothing was sent`,
      false,
    );
  }
}

/** The agent for each request's URL, or null to go direct: one keep-alive agent per proxy and scheme, so a batch reuses its tunnels. */
export function proxyAgents(env: NodeJS.ProcessEnv, options: { keepAlive: boolean; maxSockets: number }): (url: URL) => Agent | null {
  const agents = new Map<string, Agent>();
  return (url) => {
    let proxy: URL | null;
    try {
      proxy = proxyFor(url, env);
    } catch (error) {
      throw new TransportError("network", (error as Error).message, false);
    }
    if (proxy === null) return null;
    const problem = plainHttpProxyProblem(url, proxy);
    if (problem) throw new TransportError("network", problem, false);
    const key = `${url.protocol} ${proxy.href}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = url.protocol === "https:" ? new TunnelAgent(proxy.href, options) : new HttpProxyAgent(proxy, options);
      agents.set(key, agent);
    }
    return agent;
  };
}
