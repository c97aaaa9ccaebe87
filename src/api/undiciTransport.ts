import type { Dispatcher } from "undici";
import { describeNetworkError } from "./nodeTransport.js";
import { flattenHeaders, readLimited, TransportError, type Transport } from "./transport.js";

/** undici with a given dispatcher: the proxy agent in use, a MockAgent in tests. */
export async function createUndiciTransport(dispatcher?: Dispatcher): Promise<Transport> {
  const { request, EnvHttpProxyAgent } = await import("undici");
  const agent = dispatcher ?? new EnvHttpProxyAgent();
  return async (req) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TransportError("timeout", `no answer within ${req.timeoutMs / 1000} s`, true)), req.timeoutMs);
    const onAbort = () => controller.abort(new TransportError("aborted", "request cancelled", true));
    req.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.body ? { ...req.headers, "content-length": String(req.body.byteLength) } : req.headers,
        body: req.body,
        dispatcher: agent,
        signal: controller.signal,
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      const headers = flattenHeaders(res.headers as Record<string, string | string[] | undefined>);
      const body = await readLimited(res.body, req.maxResponseBytes, headers["content-length"], res.statusCode);
      return { status: res.statusCode, headers, body };
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof TransportError) throw controller.signal.reason;
      if (error instanceof TransportError) throw error;
      const cause = ((error as { cause?: NodeJS.ErrnoException }).cause ?? error) as NodeJS.ErrnoException;
      throw new TransportError("network", describeNetworkError(cause), false);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
    }
  };
}

/** True when HTTPS_PROXY/HTTP_PROXY (or lower case) applies to this URL under NO_PROXY. */
export function proxyApplies(url: URL, env: NodeJS.ProcessEnv): boolean {
  const proxy = url.protocol === "https:" ? env.HTTPS_PROXY ?? env.https_proxy : env.HTTP_PROXY ?? env.http_proxy;
  if (!proxy) return false;
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? "").split(/[\s,]+/).filter(Boolean);
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const entry of noProxy) {
    if (entry === "*") return false;
    const [entryHost = "", entryPort] = entry.toLowerCase().split(":");
    if (entryPort && entryPort !== port) continue;
    const bare = entryHost.replace(/^\*?\./, "");
    if (host === bare || host.endsWith(`.${bare}`)) return false;
  }
  return true;
}
