/**
 * A recording HTTP proxy on loopback (port 0). In front of a sandbox (`startRecordingProxy(url)`)
 * it forwards every request as is; as the CLI's HTTP_PROXY/HTTPS_PROXY it forwards an
 * absolute-form request (`GET http://host/path`) to the host it names and opens a CONNECT tunnel
 * (an https:// target) to the host:port asked for. Every request is noted in arrival order with
 * the intake it names (path or JSON body) and the times it arrived and was answered, so tests
 * can see the order of requests per intake; every tunnel by its target.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The request target as received: a path in front of a server, an absolute URL as a forward proxy. */
  target: string;
  imageId: number | null;
  arrived: number;
  answered: number;
  /** The update body (POST), parsed. */
  body: Record<string, unknown> | null;
}

export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  /** The host:port of each CONNECT, in arrival order. */
  tunnels: string[];
  close(): Promise<void>;
}

function imageIdOf(path: string, body: Record<string, unknown> | null): number | null {
  const match = /\/intake\/(\d+)/.exec(path);
  if (match) return Number(match[1]);
  return typeof body?.imageId === "number" ? body.imageId : null;
}

function parseBody(raw: Buffer): Record<string, unknown> | null {
  try {
    return raw.length ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A proxy in front of `target` (a reverse proxy), and a forward proxy for absolute-form requests and CONNECT. */
export async function startRecordingProxy(target?: string): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const tunnels: string[] = [];
  const upstream = target ? new URL(target) : null;
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const arrived = performance.now();
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = parseBody(raw);
      const requestTarget = req.url ?? "/";
      const absolute = /^https?:\/\//.test(requestTarget) ? new URL(requestTarget) : null;
      const path = (absolute ? absolute.pathname + absolute.search : requestTarget).split("?")[0]!;
      const entry: ProxiedRequest = {
        method: req.method ?? "GET",
        path,
        target: requestTarget,
        imageId: imageIdOf(path, body),
        arrived,
        answered: 0,
        body,
      };
      requests.push(entry);
      const destination = absolute ?? upstream;
      if (!destination) return res.writeHead(502).end();
      const headers = { ...req.headers };
      delete headers["proxy-connection"];
      const forward = http.request(
        {
          agent,
          host: destination.hostname,
          port: destination.port,
          method: req.method,
          path: absolute ? absolute.pathname + absolute.search : requestTarget,
          headers,
        },
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
  server.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const hostPort = request.url ?? "";
    tunnels.push(hostPort);
    const [host = "", port = "443"] = hostPort.split(/:(?=\d+$)/);
    const tunnel = net.connect(Number(port), host.replace(/^\[|\]$/g, ""), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      tunnel.write(head);
      tunnel.pipe(client).pipe(tunnel);
    });
    for (const socket of [tunnel, client]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    tunnel.on("error", () => client.destroy());
    client.on("error", () => tunnel.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tunnels,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
