/**
 * Waits between attempts are said: on a terminal, one line on stderr before each wait says how
 * long and why; on a pipe nothing, unless --verbose. The fake clock makes the waits cost nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runFoodctl } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";

const ROUTE = "GET /v2/intake/1002";
let server: FaultServer;
let token: string;

beforeAll(async () => {
  [server, token] = await Promise.all([startFaultServer(), signTestToken()]);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.reset();
});

const unavailableFor = (seconds: number) => faults.json(503, { message: "down for maintenance" }, { "retry-after": String(seconds) });

async function show(options: { tty: boolean; verbose?: boolean }) {
  const clock = fakeClock();
  const args = ["--api-url", server.url, ...(options.verbose ? ["--verbose"] : []), "intake", "show", "1002"];
  const result = await runFoodctl(args, { env: { FOODCTL_TOKEN: token }, clock, tty: options.tty });
  return { result, clock };
}

describe("a wait before retrying", () => {
  it("on a terminal: one line says it waits 100 s and why, then the intake shows", async () => {
    server.route(ROUTE, unavailableFor(100), faults.intake(segmentationIntake()));
    const { result, clock } = await show({ tty: true });
    expect(result.code, result.stderr).toBe(0);
    expect(clock.sleeps).toEqual([100_000]);
    expect(result.stderr).toBe("waiting 100 s before retrying (503 Service Unavailable)…\n");
  });

  it("a 429's pause and a backoff after a refused connection are said too", async () => {
    server.route(ROUTE, faults.rateLimited(3), faults.closeWithoutAnswer(), faults.intake(segmentationIntake()));
    const { result } = await show({ tty: true });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("waiting 3 s before retrying (429 Too Many Requests)…");
    expect(lines[1]).toMatch(/^waiting \d+(\.\d)? s before retrying \(.+\)…$/);
  });

  it("on a pipe: nothing is said", async () => {
    server.route(ROUTE, unavailableFor(100), faults.intake(segmentationIntake()));
    const { result } = await show({ tty: false });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("on a pipe with --verbose: said", async () => {
    server.route(ROUTE, unavailableFor(100), faults.intake(segmentationIntake()));
    const { result } = await show({ tty: false, verbose: true });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("waiting 100 s before retrying (503 Service Unavailable)…\n");
  });
});
