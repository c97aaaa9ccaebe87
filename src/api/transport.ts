/**
 * One HTTP exchange, no policy: the client decides retries, errors and parsing. The transport
 * is node:http(s) (nodeTransport.ts); behind a proxy, an agent of proxy.ts carries the request.
 */
import type { LookupFunction } from "node:net";

export interface TransportRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  timeoutMs: number;
  /** The response body is refused past this many bytes, never buffered whole. */
  maxResponseBytes: number;
  signal?: AbortSignal | undefined;
  /** How the host's name becomes an address (dns.lookup when not given): src/imageAddress.ts's for an image a remote API names. */
  lookup?: LookupFunction | undefined;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** "proxy": the proxy refused the tunnel (a CONNECT answered other than 200); nothing was sent. */
export type TransportFailure = "timeout" | "network" | "too_large" | "aborted" | "proxy";

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

/** A JSON request body's bytes, as every request sends them (and a `--curl` line shows them). */
export const jsonRequestBody = (body: unknown): Buffer => Buffer.from(JSON.stringify(body));

/** True when the environment names a proxy: only then are proxy.ts and its packages loaded. */
export function proxyVariableSet(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}
