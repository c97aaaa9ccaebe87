/**
 * A fault-injecting HTTP server for tests (node:http on a free loopback port).
 *
 * Each route ("METHOD /path", query ignored) answers from a script: the n-th request gets the
 * n-th reply, and the last reply repeats once the script is used up. Every request is recorded
 * (method, path, query, headers incl. authorization, body size) once its body has arrived, so
 * tests can count attempts and wait for a request to be in flight.
 *
 * A scripted reply that no request reached fails the test: `reset()` (the next case on a shared
 * server) and `close()` throw, naming the route. A reply a case may or may not reach is scripted
 * with `allow()` instead, and the test says when it must have been used.
 */
import { EventEmitter } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  bodySize: number;
  body: Buffer;
  /** "METHOD /path", the key routes are scripted by. */
  route: string;
  /** The request target as received: a path, or an absolute URL when the client took this server for its HTTP proxy. */
  target: string;
}

export type Reply =
  /** A complete answer with a JSON body. */
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  /** A complete answer with any body, sent as given. */
  | { kind: "raw"; status: number; body: string | Buffer; headers?: Record<string, string> }
  /** Headers never come: the client has to time out. Held until the server closes. */
  | { kind: "hang" }
  /** A 200 with a declared length, half the body, then the connection is destroyed. */
  | { kind: "reset"; body: string }
  /** Headers at once, then the body one byte at a time, never finishing. */
  | { kind: "drip"; intervalMs: number }
  /** A huge body, streamed in chunks; with or without Content-Length. */
  | { kind: "huge"; bytes: number; contentLength: boolean }
  /** Custom handling. */
  | { kind: "handler"; handle: (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => void };

/** The faults of the brief, ready to script. */
export const faults = {
  intake: (intake: unknown): Reply => ({ kind: "json", status: 200, body: { intake_info: intake } }),
  json: (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
    kind: "json",
    status,
    body,
    ...(headers ? { headers } : {}),
  }),
  error: (status: number, message = `fault ${status}`): Reply => ({ kind: "json", status, body: { message, code: status } }),
  internalError: (): Reply => faults.error(500, "internal server error (injected)"),
  unavailable: (): Reply => faults.error(503, "service unavailable (injected)"),
  badGatewayHtml: (): Reply => ({
    kind: "raw",
    status: 502,
    body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n",
    headers: { "content-type": "text/html" },
  }),
  gatewayTimeout: (): Reply => faults.error(504, "gateway timeout (injected)"),
  rateLimited: (retryAfterSeconds = 1): Reply => ({
    kind: "json",
    status: 429,
    body: { message: "rate limit exceeded (injected)", code: 429 },
    headers: { "retry-after": String(retryAfterSeconds) },
  }),
  hang: (): Reply => ({ kind: "hang" }),
  resetMidBody: (): Reply => ({ kind: "reset", body: JSON.stringify({ intake_info: { image_id: 1, foodName: ["x".repeat(2000)] } }) }),
  /** The connection is closed as soon as the request has arrived: no status line at all. */
  closeWithoutAnswer: (): Reply => ({ kind: "handler", handle: (req) => req.socket.destroy() }),
  drip: (intervalMs = 200): Reply => ({ kind: "drip", intervalMs }),
  /** A header block past what an HTTP parser accepts (Node's limit is 16 KiB). */
  hugeHeaders: (): Reply => ({ kind: "raw", status: 200, body: "{}", headers: { "x-padding": "p".repeat(64 * 1024) } }),
  truncatedJson: (): Reply => ({
    kind: "raw",
    status: 200,
    body: '{"intake_info": {"image_id": 1002, "foodName": ["Pasta", "Sal',
    headers: { "content-type": "application/json" },
  }),
  notJson: (): Reply => ({
    kind: "raw",
    status: 200,
    body: "<html><body>Welcome to nginx!</body></html>\n",
    headers: { "content-type": "text/html" },
  }),
  withoutIntakeInfo: (): Reply => faults.json(200, { message: "ok", intake: { image_id: 1002 } }),
  huge: (contentLength: boolean, bytes = 50 * 1024 * 1024): Reply => ({ kind: "huge", bytes, contentLength }),
  redirect: (location: string, status = 302): Reply => ({ kind: "raw", status, body: "", headers: { location } }),
  /** What the real service may answer to an update: 200 with nothing in it. */
  empty200: (): Reply => ({ kind: "raw", status: 200, body: "" }),
  updated: (imageId: number): Reply => faults.json(200, { message: "updated", imageId }),
};

export class FaultServer extends EventEmitter {
  readonly requests: RecordedRequest[] = [];
  /** Targets of CONNECT requests (a client using this server as its proxy). */
  readonly connects: string[] = [];
  /**
   * As a proxy: "tunnel" leads every CONNECT back into this server's own routes; "drop" closes it;
   * `{ status, body }` answers the CONNECT itself with that status and a JSON body (a hostile proxy's forged answer).
   */
  connectMode: "tunnel" | "drop" | { status: number; body: unknown } = "tunnel";
  private readonly scripts = new Map<string, { replies: Reply[]; served: number; required: boolean; scriptedAt: string }>();
  private readonly held = new Set<ServerResponse>();
  private readonly server: http.Server;
  private port = 0;

  constructor() {
    super();
    this.server = http.createServer((req, res) => this.onRequest(req, res));
    this.server.keepAliveTimeout = 1000;
    this.server.on("connect", (request: IncomingMessage, socket: Socket, head: Buffer) => {
      this.connects.push(request.url ?? "");
      if (this.connectMode === "drop") {
        socket.destroy();
        this.emit("held");
        return;
      }
      if (typeof this.connectMode === "object") {
        const body = JSON.stringify(this.connectMode.body);
        socket.end(
          `HTTP/1.1 ${this.connectMode.status} Forged\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        return;
      }
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.byteLength > 0) socket.unshift(head);
      this.server.emit("connection", socket);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Scripts a route whose every reply must be used: `route("GET /v2/intake/1002", faults.unavailable(), faults.intake(x))`. */
  route(route: string, ...replies: Reply[]): this {
    return this.script(route, replies, true);
  }

  /** Scripts replies a case may not reach: never checked (say in the test when they must have been used). */
  allow(route: string, ...replies: Reply[]): this {
    return this.script(route, replies, false);
  }

  /** The routes with scripted replies no request reached, e.g. "GET /v2/intake/1002: 1 of 2 replies". */
  unused(): string[] {
    return [...this.scripts]
      .filter(([, script]) => script.required && script.served < script.replies.length)
      .map(
        ([route, script]) =>
          `${route}: ${script.replies.length - script.served} of ${script.replies.length} replies (scripted at ${script.scriptedAt})`,
      );
  }

  private script(route: string, replies: Reply[], required: boolean): this {
    if (replies.length === 0) throw new Error("a route needs at least one reply");
    const replaced = this.scripts.get(route);
    if (replaced?.required && replaced.served < replaced.replies.length)
      throw new Error(`${route} scripted again before its replies were used`);
    this.scripts.set(route, { replies, served: 0, required, scriptedAt: callerOf(new Error()) });
    return this;
  }

  /**
   * Forgets scripts and recorded requests, for the next case on the same server; then throws for
   * replies no request reached. A shared server is reset in `afterEach`, so that fails the case that scripted them.
   */
  reset(): this {
    const unused = this.unused();
    this.scripts.clear();
    this.requests.length = 0;
    this.connects.length = 0;
    this.connectMode = "tunnel";
    this.releaseHeld();
    if (unused.length > 0) throw new Error(`scripted replies no request reached: ${unused.join("; ")}`);
    return this;
  }

  /**
   * A request time limit (a clock's `deadline`) that passes as soon as this server holds a
   * request (a hang or a drip) or drops a CONNECT: a timeout without waiting for one.
   */
  readonly holdDeadline = (_ms: number, onExpiry: () => void): (() => void) => {
    const expire = () => {
      this.off("held", expire);
      onExpiry();
    };
    this.on("held", expire);
    return () => this.off("held", expire);
  };

  count(route?: string): number {
    return route === undefined ? this.requests.length : this.requests.filter((request) => request.route === route).length;
  }

  /** Resolves with the first recorded request on that route (already recorded or still to come). */
  waitFor(route: string, timeoutMs = 15_000): Promise<RecordedRequest> {
    const found = this.requests.find((request) => request.route === route);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off("request", onRequest);
        reject(new Error(`no ${route} request within ${timeoutMs} ms`));
      }, timeoutMs);
      const onRequest = (request: RecordedRequest) => {
        if (request.route !== route) return;
        clearTimeout(timer);
        this.off("request", onRequest);
        resolve(request);
      };
      this.on("request", onRequest);
    });
  }

  /** Closes the server; then throws for scripted replies no request reached. */
  async close(): Promise<void> {
    this.releaseHeld();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.reset();
  }

  private releaseHeld(): void {
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= 4 * 1024 * 1024) chunks.push(chunk);
    });
    req.on("error", () => {});
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fault.invalid");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        bodySize: size,
        body: Buffer.concat(chunks),
        route: `${req.method ?? ""} ${url.pathname}`,
        target: req.url ?? "/",
      };
      this.requests.push(recorded);
      this.emit("request", recorded);
      const script = this.scripts.get(recorded.route);
      if (!script) {
        send(res, { kind: "json", status: 404, body: { message: `no scripted reply for ${recorded.route}`, code: 404 } });
        return;
      }
      const reply = script.replies[Math.min(script.served, script.replies.length - 1)]!;
      script.served++;
      this.answer(req, res, reply, recorded);
    });
  }

  private answer(req: IncomingMessage, res: ServerResponse, reply: Reply, recorded: RecordedRequest): void {
    switch (reply.kind) {
      case "hang":
        this.held.add(res);
        res.on("close", () => this.held.delete(res));
        this.emit("held");
        return;
      case "reset": {
        const body = Buffer.from(reply.body);
        res.writeHead(200, { "content-type": "application/json", "content-length": String(body.byteLength) });
        res.write(body.subarray(0, Math.floor(body.byteLength / 2)), () => {
          setTimeout(() => req.socket.destroy(), 20);
        });
        return;
      }
      case "drip": {
        this.held.add(res);
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        const timer = setInterval(() => res.write(" "), reply.intervalMs);
        res.on("close", () => {
          clearInterval(timer);
          this.held.delete(res);
        });
        this.emit("held");
        return;
      }
      case "huge": {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (reply.contentLength) headers["content-length"] = String(reply.bytes);
        res.writeHead(200, headers);
        streamFiller(res, reply.bytes);
        return;
      }
      case "handler":
        reply.handle(req, res, recorded);
        return;
      default:
        send(res, reply);
    }
  }
}

/** The test file and line that scripted a route (a server closed after its file names no test). */
function callerOf(error: Error): string {
  const frame = error.stack?.split("\n").find((line) => /\.test\.ts:\d+/.test(line));
  return frame?.match(/test\/[^\s)]+:\d+/)?.[0] ?? "an unknown place";
}

function send(res: ServerResponse, reply: Extract<Reply, { kind: "json" | "raw" }>): void {
  const body = reply.kind === "json" ? Buffer.from(JSON.stringify(reply.body)) : Buffer.from(reply.body);
  const headers: Record<string, string> = {
    ...(reply.kind === "json" ? { "content-type": "application/json" } : {}),
    ...reply.headers,
    "content-length": String(body.byteLength),
  };
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** Streams `total` bytes of a JSON-looking body without holding it in memory; stops when the client goes. */
function streamFiller(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const piece = total - sent >= chunk.byteLength ? chunk : chunk.subarray(0, total - sent);
      sent += piece.byteLength;
      if (!res.write(piece)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.on("error", () => {});
  pump();
}

export async function startFaultServer(): Promise<FaultServer> {
  return new FaultServer().start();
}
