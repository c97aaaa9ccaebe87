/**
 * A server that echoes the token it was sent (in an error message) never gets it into the
 * results of `intake apply`: not on stdout, not in the --results file, not on a terminal line.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchResult } from "../../src/batch/results.js";
import { APPLY_PRINTER, createBatchOutput, openResultsFile } from "../../src/output/batchOutput.js";
import type { Context } from "../../src/context.js";
import { run } from "../../src/main.js";
import { manualIntake, signTestToken } from "../faults/fixtures.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { runTempDir } from "../helpers/cli.js";

const dir = runTempDir("foodctl-apply-secrets-");
let server: FaultServer;
let jwt: string;
const OPAQUE = "3f9a2c7d1e0b4a6f8c5d2e1f0a9b8c7d6e5f4a3b";

beforeAll(async () => {
  [server, jwt] = await Promise.all([startFaultServer(), signTestToken()]);
  server.route("GET /v2/intake/1003", faults.intake(manualIntake()));
  server.route("POST /v2/nutrition/confirm/quantity", {
    kind: "handler",
    handle: (_req, res, recorded) => {
      const sent = String(recorded.headers.authorization ?? "").replace(/^Bearer /, "");
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `token ${sent} may not change intake 1003`, code: 1402 }));
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("intake apply: the token never reaches the results", () => {
  it("masks a JWT echoed by the server on stdout and in the --results file", async () => {
    const input = join(dir, "fixes.jsonl");
    const resultsFile = join(dir, "results.jsonl");
    writeFileSync(input, '{"image_id": 1003, "quantity": {"manual1": 90}}\n');
    const io = bufferIO({ env: { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: jwt, XDG_CONFIG_HOME: join(dir, "config") } });
    const code = await run(["intake", "apply", input, "--results", resultsFile], { io: io.io });
    expect(code).toBe(7);
    const written = readFileSync(resultsFile, "utf8");
    for (const text of [io.stdout(), written, io.stderr()]) {
      expect(text).not.toContain(jwt);
      expect(text).not.toContain(jwt.split(".")[2]);
    }
    expect(JSON.parse(written).error.message).toMatch(/: token \*\*\*\* may not change intake 1003$/);
    expect(statSync(resultsFile).mode & 0o777).toBe(0o600);
  });

  it("masks an opaque token the same way, in JSON lines, the results file and terminal lines", async () => {
    const resultsFile = join(dir, "opaque.jsonl");
    for (const tty of [false, true]) {
      const io = bufferIO({ tty });
      const printRaw = (text: string) => io.io.stdout.write(text) !== false;
      const ctx = { io: io.io, json: false, printRaw, settings: () => ({ token: { value: OPAQUE } }) } as unknown as Context;
      const output = createBatchOutput(ctx, 1, openResultsFile(resultsFile), () => {}, APPLY_PRINTER);
      const result: BatchResult = {
        line: 1,
        image_id: 1003,
        status: "failed",
        batch_id: "20261123-161504-4fd7c4",
        error: { code: "rejected", exit_code: 7, status: 400, message: `api answered 400: token ${OPAQUE} may not change intake 1003` },
      };
      await output.write(result);
      output.close();
      expect(io.stdout()).toContain("token **** may not change intake 1003");
      expect(io.stdout() + io.stderr()).not.toContain(OPAQUE);
    }
    expect(readFileSync(resultsFile, "utf8")).not.toContain(OPAQUE);
    expect(readFileSync(resultsFile, "utf8").trim().split("\n")).toHaveLength(2);
  });
});
