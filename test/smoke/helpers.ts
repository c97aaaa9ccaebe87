/** Running `foodctl smoke` in process (the shared runFoodctl) against a sandbox or a fault server. */
import { afterAll } from "vitest";
import { segmentationIntake } from "../faults/fixtures.js";
import { runFoodctl, type CliResult } from "../helpers/cli.js";
import { startFaultServer, type FaultServer } from "../helpers/faultServer.js";

export const UPDATE = "POST /v2/nutrition/confirm/quantity";
export const READ = "GET /v2/intake/1002";
export const HISTORY = "GET /v2/history/getIntakesList";
/** Intake 1002 as a fault server serves it. */
export const original = segmentationIntake(1002, [200, 120]);
/** What the smoke change (position 1 one gram heavier) produces. */
export const changed = segmentationIntake(1002, [201, 120]);

/** Starts fault servers for a test file, each closed after the file's tests. */
export function faultServers(): () => Promise<FaultServer> {
  const servers: FaultServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async () => {
    const started = await startFaultServer();
    servers.push(started);
    return started;
  };
}

/** foodctl with this API and token, no retries unless asked. */
export function runAgainstApi(
  apiUrl: string,
  token: string,
  args: string[],
  options: { tty?: boolean; retries?: number } = {},
): Promise<CliResult> {
  return runFoodctl(["--api-url", apiUrl, "--retries", String(options.retries ?? 0), ...args], {
    env: { FOODCTL_TOKEN: token },
    tty: options.tty ?? false,
  });
}

/** The piped output's rows: step → its result and detail. */
export function stepRows(stdout: string): Map<string, { result: string; detail: string }> {
  const rows = stdout
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));
  return new Map(rows.map(([step, result, , detail]) => [step!, { result: result!, detail: detail ?? "" }]));
}
