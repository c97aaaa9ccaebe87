import type { Dispatcher } from "undici";
import { systemClock, type Clock } from "../clock.js";
import { describeNetworkError, flattenHeaders, readLimited, TransportError, type Transport, type TransportRequest } from "./transport.js";

/**
 * undici with a given dispatcher (a MockAgent in tests), else the proxy agent, its proxies
 * read from the run's environment (`env`), the same one the choice of transport read.
 */
export async function createUndiciTransport(
  dispatcher?: Dispatcher,
  clock: Clock = systemClock,
  env: NodeJS.ProcessEnv = {},
): Promise<Transport> {
  // Bundled, a CommonJS package's dynamic import arrives as its default export only.
  const loaded: typeof import("undici") & { default?: typeof import("undici") } = await import("undici");
  const { request, EnvHttpProxyAgent } = typeof loaded.request === "function" ? loaded : loaded.default!;
  const proxies = {
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  };
  const newAgent = () => new EnvHttpProxyAgent(proxies);
  let agent = dispatcher ?? newAgent();
  return async (req) => {
    const { signal, gaveUp, stop } = limitsOf(req, clock);
    let answered = false;
    let settled = false;
    try {
      const pending = request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.body ? { ...req.headers, "content-length": String(req.body.byteLength) } : req.headers,
        body: req.body,
        dispatcher: agent,
        signal,
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      const res = await Promise.race([pending, gaveUp]);
      answered = true;
      const headers = flattenHeaders(res.headers as Record<string, string | string[] | undefined>);
      const body = await Promise.race([readLimited(res.body, req.maxResponseBytes, headers["content-length"], res.statusCode), gaveUp]);
      return { status: res.statusCode, headers, body };
    } catch (error) {
      if (signal.aborted && signal.reason instanceof TransportError) {
        if (!dispatcher && !settled) {
          // Later requests (a retry) get a fresh agent. If undici has not let go of this one a
          // moment later, the old agent is destroyed, else it is closed once its requests end.
          const old = agent;
          agent = newAgent();
          setTimeout(() => void (settled ? old.close() : old.destroy()).catch(() => undefined), 500).unref();
        }
        throw signal.reason;
      }
      if (error instanceof TransportError) throw error;
      const cause = ((error as { cause?: NodeJS.ErrnoException }).cause ?? error) as NodeJS.ErrnoException;
      throw new TransportError(
        "network",
        answered ? `connection broken while reading the answer (${cause.message})` : describeNetworkError(cause),
        answered,
      );
    } finally {
      stop();
    }
  };
}

/** Timeout and Ctrl-C as one signal, and a race undici cannot ignore (a proxy that drops CONNECT makes it reconnect in a loop). */
function limitsOf(req: TransportRequest, clock: Clock): { signal: AbortSignal; gaveUp: Promise<never>; stop: () => void } {
  const controller = new AbortController();
  const stopTimer = clock.deadline(req.timeoutMs, () =>
    controller.abort(new TransportError("timeout", `no answer within ${req.timeoutMs / 1000} s`, true)),
  );
  const onAbort = () => controller.abort(new TransportError("aborted", "request cancelled", true));
  req.signal?.addEventListener("abort", onAbort, { once: true });
  const gaveUp = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  gaveUp.catch(() => undefined);
  const stop = () => {
    stopTimer();
    req.signal?.removeEventListener("abort", onAbort);
  };
  return { signal: controller.signal, gaveUp, stop };
}
