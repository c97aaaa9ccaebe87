/**
 * A loopback server (port 0) that records each request exactly as it arrived (method, target,
 * headers, body bytes) and then answers it: by forwarding it to a sandbox, with `prefix` taken
 * off the path (so an API URL with an odd path prefix still reaches it), or with `{}` when there
 * is no sandbox. For tests that compare what two clients sent (foodctl and its --curl line).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface WireRequest {
  method: string;
  /** The request target as received: path and query, percent-encoded as sent. */
  target: string;
  /** Lower-case names. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface WireRecorder {
  /** Base URL: `http://127.0.0.1:<port>` and the prefix. */
  url: string;
  requests: WireRequest[];
  close(): Promise<void>;
}

export async function startWireRecorder(options: { forwardTo?: string; prefix?: string } = {}): Promise<WireRecorder> {
  const requests: WireRequest[] = [];
  const prefix = options.prefix ?? "";
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = request.url ?? "";
      requests.push({ method: request.method ?? "", target, headers: request.headers, body });
      if (!options.forwardTo) {
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      const path = target.startsWith(prefix) ? target.slice(prefix.length) : target;
      const headers = { ...request.headers };
      delete headers.host;
      const forward = http.request(new URL(path, options.forwardTo), { method: request.method, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      forward.on("error", () => response.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
