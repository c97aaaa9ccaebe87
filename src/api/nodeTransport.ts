import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { systemClock, type Clock } from "../clock.js";
import { proxyVariableSet, TransportError, type Transport, type TransportRequest, type TransportResponse } from "./transport.js";

export interface NodeTransportOptions {
  clock?: Clock | undefined;
  /** The run's environment, where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read. */
  env?: NodeJS.ProcessEnv | undefined;
}

const POOL = { keepAlive: true, maxSockets: 16 };

/**
 * The one transport: node:http(s) with one keep-alive pool per process (one per proxy behind
 * proxies), so a batch reuses its connections. Behind a proxy, the agent of src/api/proxy.ts.
 */
export function createNodeTransport({ clock = systemClock, env = {} }: NodeTransportOptions = {}): Transport {
  const plain: Pool = { send: httpRequest, agent: new Agent(POOL) };
  // node:https (TLS) is loaded by the first https request: a plain http run (the sandbox) never needs it.
  let secure: Promise<Pool> | undefined;
  const loadSecure = () =>
    (secure ??= import("node:https").then((https) => ({
      send: https.request,
      agent: new https.Agent(POOL),
    })));
  // The proxy packages are loaded only when the environment names a proxy.
  let proxies: Promise<(url: URL) => Agent | null> | undefined;
  const loadProxies = () => (proxies ??= import("./proxy.js").then(({ proxyAgents }) => proxyAgents(env, POOL)));
  return async (request: TransportRequest) => {
    const direct = request.url.protocol === "https:" ? await loadSecure() : plain;
    const proxyAgent = proxyVariableSet(env) ? (await loadProxies())(request.url) : null;
    return exchange(proxyAgent ? { send: direct.send, agent: proxyAgent } : direct, request, clock);
  };
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
    /** True for the first outcome only: it stops the timer and lets go of the signal. */
    const settle = () => {
      if (settled) return false;
      settled = true;
      stopTimer();
      // A batch shares one signal: a listener left behind per request would pile up.
      request.signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const fail = (error: TransportError) => {
      if (!settle()) return;
      req.destroy();
      reject(error);
    };
    const stopTimer = clock.deadline(request.timeoutMs, () =>
      fail(new TransportError("timeout", `no answer within ${request.timeoutMs / 1000} s`, sent)),
    );
    const headers: Record<string, string> = { ...request.headers };
    if (request.body) headers["content-length"] = String(request.body.byteLength);
    const req = send(request.url, { method: request.method, headers, agent, ...(request.lookup && { lookup: request.lookup }) });
    const onAbort = () => fail(new TransportError("aborted", "request cancelled", sent));
    request.signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A proxy agent's own failure (src/api/proxy.ts) is already in words.
      fail(error instanceof TransportError ? error : new TransportError("network", describeNetworkError(error), sent));
    });
    req.on("finish", () => {
      sent = true;
    });
    req.on("response", (res) => {
      readLimited(res, request.maxResponseBytes, res.headers["content-length"], res.statusCode).then(
        (body) => {
          if (settle()) resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body });
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

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

/**
 * Collects a body stream up to a byte limit; past it, destroys the stream. Events rather than
 * `for await`: the async iterator's machinery is a measurable part of a one-request run.
 */
function readLimited(stream: IncomingMessage, maxBytes: number, declaredLength: string | undefined, status?: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const tooLarge = (what: string) => new TransportError("too_large", `${what} over the ${maxBytes}-byte limit`, true, status);
    if (declaredLength !== undefined && Number(declaredLength) > maxBytes) {
      stream.destroy();
      return reject(tooLarge(`response body of ${declaredLength} bytes is`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    stream.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        settle(tooLarge("response body is"));
        stream.destroy();
        return;
      }
      chunks.push(chunk);
    });
    stream.on("end", () => settle());
    stream.on("error", (error) => settle(error));
    // A stream closed before its end: the connection broke mid-body.
    stream.on("close", () => settle(new Error("Premature close")));
  });
}

/** A network failure in words. */
function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "ECONNRESET":
      return "connection reset";
    case "EPIPE":
      return "connection closed while sending";
    case "ETIMEDOUT":
      return "connection timed out";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `TLS certificate not trusted (${error.code})`;
    case "EPROTO":
    case "ERR_SSL_WRONG_VERSION_NUMBER":
      // OpenSSL's words for a plain-http answer to an https:// request.
      if (/wrong version number/i.test(error.message)) return "the server does not speak TLS: use http://";
      return `TLS failed (${error.code})`;
    case "HPE_HEADER_OVERFLOW":
      return "the answer's headers are over the HTTP parser's limit (16 KiB)";
    default:
      if (error.code?.startsWith("HPE_")) return `malformed HTTP answer (${error.message})`;
      return error.code ? `${error.code.toLowerCase()}: ${error.message}` : error.message;
  }
}
