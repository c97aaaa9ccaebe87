import { Agent, request as httpRequest } from "node:http";
import { systemClock, type Clock } from "../clock.js";
import {
  describeNetworkError,
  flattenHeaders,
  readLimited,
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./transport.js";

/** node:http(s) with one keep-alive pool per process, so a batch reuses its connections. */
export function createNodeTransport(clock: Clock = systemClock): Transport {
  const plain: Pool = { send: httpRequest, agent: new Agent({ keepAlive: true, maxSockets: 16 }) };
  // node:https (TLS) takes milliseconds to load: the first https request loads it, http never does.
  let secure: Promise<Pool> | undefined;
  const loadSecure = () =>
    (secure ??= import("node:https").then((https) => ({
      send: https.request,
      agent: new https.Agent({ keepAlive: true, maxSockets: 16 }),
    })));
  return async (request: TransportRequest) => exchange(request.url.protocol === "https:" ? await loadSecure() : plain, request, clock);
}

interface Pool {
  send: typeof httpRequest;
  agent: Agent;
}

/** One request over a keep-alive pool: the answer, or a TransportError (timeout, Ctrl-C, network, too large). */
function exchange({ send, agent }: Pool, request: TransportRequest, clock: Clock): Promise<TransportResponse> {
  return new Promise<TransportResponse>((resolve, reject) => {
    let sent = false;
    let settled = false;
    const fail = (error: TransportError) => {
      if (settled) return;
      settled = true;
      stopTimer();
      // A batch shares one signal: a listener left behind per failed request would pile up.
      request.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      reject(error);
    };
    const stopTimer = clock.deadline(request.timeoutMs, () =>
      fail(new TransportError("timeout", `no answer within ${request.timeoutMs / 1000} s`, sent)),
    );
    const headers: Record<string, string> = { ...request.headers };
    if (request.body) headers["content-length"] = String(request.body.byteLength);
    const req = send(request.url, {
      method: request.method,
      headers,
      agent,
    });
    const onAbort = () => fail(new TransportError("aborted", "request cancelled", sent));
    request.signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error: NodeJS.ErrnoException) => {
      fail(new TransportError("network", describeNetworkError(error), sent));
    });
    req.on("finish", () => {
      sent = true;
    });
    req.on("response", (res) => {
      readLimited(res, request.maxResponseBytes, res.headers["content-length"], res.statusCode).then(
        (body) => {
          if (settled) return;
          settled = true;
          stopTimer();
          request.signal?.removeEventListener("abort", onAbort);
          resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body });
        },
        (error: unknown) => {
          fail(
            error instanceof TransportError
              ? error
              : new TransportError("network", `connection broken while reading the answer (${(error as Error).message})`, true),
          );
        },
      );
    });
    req.end(request.body);
  });
}
