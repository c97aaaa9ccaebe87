/** Running foodctl against a fault server, in process with a fake clock. */
import { afterAll } from "vitest";
import { runFoodctl, type CliResult } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { startFaultServer, type FaultServer } from "../helpers/faultServer.js";

export { expectErrorLine as expectOneLineError, expectJsonError } from "../helpers/cli.js";

/**
 * A fresh pair of fault servers per test (the API, and another host to redirect to), so the
 * cases of a file run at once; all are closed after the file.
 */
export function faultServerPairs(
  prepare: (server: FaultServer) => void = () => {},
): () => Promise<{ server: FaultServer; other: FaultServer }> {
  const open: FaultServer[] = [];
  afterAll(async () => {
    // Every server is closed; then each one's scripted replies no request reached are named together.
    const closed = await Promise.allSettled(open.map((server) => server.close()));
    const unused = closed.flatMap((outcome) => (outcome.status === "rejected" ? [(outcome.reason as Error).message] : []));
    if (unused.length > 0) throw new Error(unused.join("\n"));
  });
  return async () => {
    const [server, other] = await Promise.all([startFaultServer(), startFaultServer()]);
    open.push(server, other);
    prepare(server);
    return { server, other };
  };
}

/** Long enough for the slowest case; a spawned process must end well before. */
export const KILL_AFTER_MS = 25_000;

/**
 * foodctl against the fault server: backoff and Retry-After cost no real time, and a request
 * time limit passes as soon as the server holds a request (so `--timeout 1` waits no second).
 */
export function runAgainst(
  server: FaultServer,
  token: string,
  args: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return runFoodctl(["--api-url", server.url, ...args], {
    env: { FOODCTL_TOKEN: token, ...options.env },
    clock: fakeClock({ deadline: server.holdDeadline }),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
  });
}
