/**
 * One HTTP exchange, no policy: the client decides retries, errors and parsing.
 * The default transport is node:http(s); undici's
 * EnvHttpProxyAgent takes over when HTTPS_PROXY/HTTP_PROXY applies to the target host.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface TransportRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  timeoutMs: number;
  /** The response body is refused past this many bytes, never buffered whole. */
  maxResponseBytes: number;
  signal?: AbortSignal | undefined;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export type TransportFailure = "timeout" | "network" | "too_large" | "aborted";

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
    /** True when the request may have reached the server (for "was it sent?" messages). */
    readonly maybeSent: boolean,
    /** The HTTP status, when the failure came after the answer's headers (a body too large or cut off). */
    readonly status?: number,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export function flattenHeaders(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

/** A response body as both transports give it: a Node readable stream. */
export interface BodyStream {
  on(event: "data", listener: (chunk: Buffer | Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
}

/**
 * Collects a body stream up to a byte limit; past it, destroys the stream. Events rather than
 * `for await`: the async iterator's machinery is a measurable part of a one-request run.
 */
export function readLimited(stream: BodyStream, maxBytes: number, declaredLength: string | undefined, status?: number): Promise<Buffer> {
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
    stream.on("data", (chunk) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        settle(tooLarge("response body is"));
        stream.destroy();
        return;
      }
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    });
    stream.on("end", () => settle());
    stream.on("error", (error) => settle(error));
    // A stream closed before its end: the connection broke mid-body.
    stream.on("close", () => settle(new Error("Premature close")));
  });
}

/** A network failure in words. Here for both transports, so neither imports the other. */
export function describeNetworkError(error: NodeJS.ErrnoException): string {
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
    case "HPE_HEADER_OVERFLOW":
      return "the answer's headers are over the HTTP parser's limit (16 KiB)";
    default:
      if (error.code?.startsWith("HPE_")) return `malformed HTTP answer (${error.message})`;
      return error.code ? `${error.code.toLowerCase()}: ${error.message}` : error.message;
  }
}

/** Only these are this machine: `localhost`, 127.0.0.0/8 and ::1 (not `*.localhost`: a resolver may send those anywhere). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  // 127.d.d.d, each part one to three digits up to 255.
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every(isOctet);
}

const isOctet = (part: string): boolean =>
  part.length >= 1 && part.length <= 3 && [...part].every((char) => char >= "0" && char <= "9") && Number(part) <= 255;

/** The proxy URL the environment names for this URL's scheme, if any. */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): string | undefined {
  const proxy = url.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return proxy ? proxy : undefined;
}

/**
 * True when HTTPS_PROXY/HTTP_PROXY (or lower case) applies to this URL under NO_PROXY. A loopback
 * URL goes direct unless NO_PROXY is set and empty (docs/cli.md, proxies). Here, not in
 * undiciTransport.ts, so choosing the transport loads nothing of the proxy path.
 */
export function proxyApplies(url: URL, env: NodeJS.ProcessEnv): boolean {
  if (!proxyFor(url, env)) return false;
  const noProxyText = env.NO_PROXY ?? env.no_proxy;
  if (noProxyText === undefined && isLoopbackHost(url.hostname)) return false;
  const noProxy = (noProxyText ?? "").split(/[\s,]+/).filter(Boolean);
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

/**
 * Why a plain-http request may not take this proxy, or null: the token would travel in clear text
 * off the machine when the first hop (the proxy) is not on it.
 */
export function plainHttpProxyProblem(url: URL, env: NodeJS.ProcessEnv): string | null {
  if (url.protocol !== "http:" || !proxyApplies(url, env)) return null;
  const proxy = proxyFor(url, env) ?? "";
  let proxyHost: string;
  try {
    proxyHost = new URL(proxy.includes("://") ? proxy : `http://${proxy}`).hostname;
  } catch {
    return `HTTP_PROXY "${proxy}" is not a URL`;
  }
  if (isLoopbackHost(proxyHost)) return null;
  return `refusing to send the token over plain http:// to ${url.host} through the proxy ${proxyHost} (HTTP_PROXY): it would leave this machine in clear text`;
}
