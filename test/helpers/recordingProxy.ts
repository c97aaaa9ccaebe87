/**
 * A recording HTTP proxy in front of a sandbox (loopback, port 0): every request is forwarded
 * as is and noted in arrival order with the intake it names (path or JSON body) and the times it
 * arrived and was answered, so tests can see the order of requests per intake.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  path: string;
  imageId: number | null;
  arrived: number;
  answered: number;
  /** The update body (POST), parsed. */
  body: Record<string, unknown> | null;
}

export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

function imageIdOf(path: string, body: Record<string, unknown> | null): number | null {
  const match = /\/intake\/(\d+)/.exec(path);
  if (match) return Number(match[1]);
  return typeof body?.imageId === "number" ? body.imageId : null;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const arrived = performance.now();
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: Record<string, unknown> | null;
      try {
        body = raw.length ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const path = (req.url ?? "/").split("?")[0]!;
      const entry: ProxiedRequest = { method: req.method ?? "GET", path, imageId: imageIdOf(path, body), arrived, answered: 0, body };
      requests.push(entry);
      const forward = http.request(
        { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("end", () => (entry.answered = performance.now()));
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
