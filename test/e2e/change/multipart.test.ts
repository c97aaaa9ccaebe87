/**
 * The upload as it goes over the wire: the built CLI against a small recording server (the
 * sandbox does not expose request headers), so the multipart form and its Content-Length are
 * checked byte for byte.
 */
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../fixtures/images.js";
import { expectExit, startTestSandbox, type TestSandbox } from "./harness.js";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let sandbox: TestSandbox;
let server: Server;
let baseUrl = "";
const recorded: Recorded[] = [];

beforeAll(async () => {
  // The sandbox only lends a well-formed token and a manual intake record to answer with.
  sandbox = await startTestSandbox();
  const intake = sandbox.intake(1003);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      recorded.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ intake_info: intake }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await sandbox.close();
});

describe("display-image attach on the wire", () => {
  it("sends one multipart file field `image` with the file's name, the type its bytes show, and a Content-Length", async () => {
    const image = png(10, 10);
    const path = join(sandbox.tempDir(), "lunch.jpg");
    writeFileSync(path, image);
    recorded.length = 0;
    const result = await sandbox.cli(["display-image", "attach", "1003", path, "--user", "101", "--no-verify"], {
      env: { FOODCTL_API_URL: baseUrl },
    });
    expectExit(result, 0);

    expect(recorded.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /v2/intake/1003?user_id=101",
      "POST /v2/intake/1003/display_image?user_id=101",
    ]);
    const upload = recorded[1]!;
    expect(upload.headers["transfer-encoding"]).toBeUndefined();
    expect(upload.headers["content-length"]).toBe(String(upload.body.length));
    expect(upload.headers.authorization).toBe(`Bearer ${sandbox.token("alice")}`);
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(upload.headers["content-type"] ?? "")?.[1];
    expect(boundary).toBeDefined();

    const expected = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="lunch.jpg"\r\nContent-Type: image/png\r\n\r\n`),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(upload.body.equals(expected)).toBe(true);
  });

  it("sends the bytes read from stdin the same way, named after their type", async () => {
    const image = png(2, 5);
    recorded.length = 0;
    const result = await sandbox.cli(["display-image", "attach", "1003", "-", "--no-verify"], {
      env: { FOODCTL_API_URL: baseUrl },
      stdin: image,
    });
    expectExit(result, 0);
    const upload = recorded.find((request) => request.method === "POST")!;
    expect(upload.headers["content-length"]).toBe(String(upload.body.length));
    expect(upload.body.includes(Buffer.from('name="image"; filename="display-image.png"\r\nContent-Type: image/png\r\n\r\n'))).toBe(true);
    expect(upload.body.includes(image)).toBe(true);
  });
});
