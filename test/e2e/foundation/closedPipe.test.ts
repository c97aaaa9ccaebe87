/** `foodctl intake list | head -1`: a reader that stops early is not an error. */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseEnv, cliBin } from "../../helpers/cli.js";

const TOKEN_PAYLOAD = Buffer.from(JSON.stringify({ sub: "101", role: "APIUser", exp: 4_102_444_800 })).toString("base64url");
const TOKEN = `eyJhbGciOiJIUzI1NiJ9.${TOKEN_PAYLOAD}.c2ln`;

let server: http.Server;
let url = "";

beforeAll(async () => {
  // Far more than a pipe buffer holds, so the CLI is still writing when the reader leaves.
  const intakes = Array.from({ length: 20_000 }, (_, i) => ({
    image_id: i + 1,
    timestamp: "2026-11-01T10:00:00Z",
    occasion: "lunch",
    foodName: ["Rice with vegetables"],
  }));
  const body = JSON.stringify({ intakes_list: intakes });
  server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function runUntilFirstLine(args: string[]): Promise<{ code: number | null; firstLine: string; stderr: string }> {
  const child = spawn(process.execPath, [cliBin(), ...args], {
    env: baseEnv({ FOODCTL_API_URL: url, FOODCTL_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    if (stdout.includes("\n")) child.stdout.destroy();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, firstLine: stdout.split("\n")[0]!, stderr });
    });
  });
}

describe("a reader that closes stdout early", () => {
  it.each([
    ["table rows", ["intake", "list"], /^1\t2026-11-01T10:00:00Z\tlunch\t/],
    ["--json", ["intake", "list", "--json"], /^\{"intakes_list":\[/],
  ])("stops quietly with exit 0 (%s)", async (_name, args, firstLine) => {
    const result = await runUntilFirstLine(args);
    expect(result.firstLine).toMatch(firstLine);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });
});
