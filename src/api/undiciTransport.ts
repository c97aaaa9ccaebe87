import type { Dispatcher } from "undici";
import { describeNetworkError } from "./nodeTransport.js";
import { flattenHeaders, readLimited, TransportError, type Transport } from "./transport.js";

/** undici with a given dispatcher: the proxy agent in use, a MockAgent in tests. */
export async function createUndiciTransport(dispatcher?: Dispatcher): Promise<Transport> {
  // Bundled, a CommonJS package's dynamic import arrives as its default export only.
  const loaded: typeof import("undici") & { default?: typeof import("undici") } = await import("undici");
  const { request, EnvHttpProxyAgent } = typeof loaded.request === "function" ? loaded : loaded.default!;
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
