/**
 * `intake show` against every fault of the fault server: which are retried (network errors,
 * 429, 502/503/504 — and only those), the exit code of docs/cli.md, one readable line naming the
 * host and the status, and no hang past the timeout plus retries.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { faults, type Reply } from "../helpers/faultServer.js";
import { signTestToken, segmentationIntake } from "./fixtures.js";
import { runFoodctl } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { expectJsonError, expectOneLineError, faultServerPairs, runAgainst } from "./harness.js";

const ROUTE = "GET /v2/intake/1002";
let token: string;

beforeAll(async () => {
  token = await signTestToken();
});
const servers = faultServerPairs();

interface FailureCase {
  name: string;
  replies: () => Reply[];
  args?: string[];
  attempts: number;
  exit: number;
  mentions: Array<string | RegExp>;
}

const failures: FailureCase[] = [
  {
    name: "500 with a JSON error body is not retried",
    replies: () => [faults.internalError()],
    attempts: 1,
    exit: 8,
    mentions: ["answered 500", "internal server error (injected)"],
  },
  {
    name: "503 with a JSON error body is retried, then exit 8",
    replies: () => [faults.unavailable()],
    attempts: 3,
    exit: 8,
    mentions: ["answered 503"],
  },
  {
    name: "502 HTML page is retried, then exit 8 naming the status",
    replies: () => [faults.badGatewayHtml()],
    attempts: 3,
    exit: 8,
    mentions: ["answered 502 Bad Gateway"],
  },
  { name: "504 is retried, then exit 8", replies: () => [faults.gatewayTimeout()], attempts: 3, exit: 8, mentions: ["answered 504"] },
  {
    name: "429 with Retry-After: 1 is retried --retries times, then exit 8",
    replies: () => [faults.rateLimited(1)],
    attempts: 3,
    exit: 8,
    mentions: ["answered 429"],
  },
  {
    name: "429 with --retries 0 is one attempt",
    replies: () => [faults.rateLimited(1)],
    args: ["--retries", "0"],
    attempts: 1,
    exit: 8,
    mentions: ["answered 429"],
  },
  {
    name: "a reset mid-body is a network error: retried, then exit 8",
    replies: () => [faults.resetMidBody()],
    attempts: 3,
    exit: 8,
    mentions: ["unreachable", /connection/],
  },
  {
    name: "no answer within --timeout 1: one retry, then exit 8",
    replies: () => [faults.hang()],
    args: ["--timeout", "1", "--retries", "1"],
    attempts: 2,
    exit: 8,
    mentions: ["no answer within 1 s"],
  },
  {
    name: "a connection closed without an answer is retried, then exit 8",
    replies: () => [faults.closeWithoutAnswer()],
    attempts: 3,
    exit: 8,
    mentions: ["unreachable", "connection reset"],
  },
  {
    name: "a body that drips forever ends at --timeout like no answer",
    replies: () => [faults.drip(200)],
    args: ["--timeout", "1", "--retries", "1"],
    attempts: 2,
    exit: 8,
    mentions: ["no answer within 1 s"],
  },
  {
    name: "headers past the parser's limit are a network error: retried, then exit 8",
    replies: () => [faults.hugeHeaders()],
    attempts: 3,
    exit: 8,
    mentions: ["headers are over"],
  },
  {
    name: "truncated JSON in a 200 is unreadable: exit 1, not retried",
    replies: () => [faults.truncatedJson()],
    attempts: 1,
    exit: 1,
    mentions: ["unreadable response", "200"],
  },
  {
    name: "a 200 whose body is HTML is unreadable: exit 1",
    replies: () => [faults.notJson()],
    attempts: 1,
    exit: 1,
    mentions: ["unreadable response", "200", "not JSON"],
  },
  {
    name: "a 200 without intake_info is unexpected: exit 1",
    replies: () => [faults.withoutIntakeInfo()],
    attempts: 1,
    exit: 1,
    mentions: ["unexpected response", "200", "intake_info"],
  },
  {
    name: "a 50 MB body with Content-Length is refused unread: exit 1",
    replies: () => [faults.huge(true)],
    attempts: 1,
    exit: 1,
    mentions: ["unreadable response", "200", /limit/],
  },
  {
    name: "a 50 MB streamed body without Content-Length is cut off at the limit: exit 1",
    replies: () => [faults.huge(false)],
    attempts: 1,
    exit: 1,
    mentions: ["unreadable response", "200", /limit/],
  },
  {
    name: "400 is not retried: exit 7",
    replies: () => [faults.error(400, "bad id")],
    attempts: 1,
    exit: 7,
    mentions: ["answered 400", "bad id"],
  },
  {
    name: "401 is not retried: exit 4",
    replies: () => [faults.error(401, "token expired")],
    attempts: 1,
    exit: 4,
    mentions: ["answered 401"],
  },
  { name: "403 is not retried: exit 5", replies: () => [faults.error(403, "not yours")], attempts: 1, exit: 5, mentions: ["answered 403"] },
  {
    name: "404 is not retried: exit 6",
    replies: () => [faults.error(404, "no such intake")],
    attempts: 1,
    exit: 6,
    mentions: ["answered 404"],
  },
  { name: "409 is not retried: exit 7", replies: () => [faults.error(409, "conflict")], attempts: 1, exit: 7, mentions: ["answered 409"] },
];

describe.concurrent("intake show against faults", () => {
  it.each(failures)("$name", async ({ replies, args = [], attempts, exit, mentions }) => {
    const { server } = await servers();
    server.route(ROUTE, ...replies());
    const result = await runAgainst(server, token, [...args, "intake", "show", "1002"]);
    expectOneLineError(result, exit, [server.host, ...mentions]);
    expect(server.count(ROUTE)).toBe(attempts);
    expect(server.count()).toBe(attempts);
    expect(result.stdout).toBe("");
  });

  it("a 503 then a valid intake succeeds on the second attempt", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.unavailable(), faults.intake(segmentationIntake()));
    const result = await runAgainst(server, token, ["intake", "show", "1002"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(ROUTE)).toBe(2);
    expect(result.stdout).toContain("spaghetti bolognese");
  });

  it("a 429 with Retry-After then a valid intake succeeds after waiting", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.rateLimited(1), faults.intake(segmentationIntake()));
    const result = await runAgainst(server, token, ["intake", "show", "1002", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(ROUTE)).toBe(2);
    expect(JSON.parse(result.stdout).intake_info.image_id).toBe(1002);
  });

  it("a hang then a valid intake succeeds after one timeout", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.hang(), faults.intake(segmentationIntake()));
    const result = await runAgainst(server, token, ["--timeout", "1", "--retries", "1", "intake", "show", "1002"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(ROUTE)).toBe(2);
  });

  it("--retries 0 makes a 503 a single attempt", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.unavailable());
    const result = await runAgainst(server, token, ["--retries", "0", "intake", "show", "1002"]);
    expectOneLineError(result, 8, [server.host, "503"]);
    expect(server.count(ROUTE)).toBe(1);
  });

  it("a connection refused is retried and ends in exit 8 naming the host", async () => {
    // Port 1 (tcpmux), where nothing listens: a port a closed test server let go of may be another test's by now.
    const url = "http://127.0.0.1:1";
    const result = await runFoodctl(["--api-url", url, "--retries", "1", "intake", "show", "1002"], {
      env: { FOODCTL_TOKEN: token },
      clock: fakeClock(),
    });
    expectOneLineError(result, 8, [new URL(url).host, "connection refused"]);
  });

  it("does not follow a redirect to another host, so the token goes nowhere else", async () => {
    const { server, other } = await servers();
    server.route(ROUTE, faults.redirect(`${other.url}/v2/intake/1002`));
    const result = await runAgainst(server, token, ["intake", "show", "1002"]);
    expectOneLineError(result, 1, [server.host, "302", other.host]);
    expect(server.count(ROUTE)).toBe(1);
    expect(other.count()).toBe(0);
  });

  it("sends the bearer token and user agent on every attempt", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.unavailable(), faults.unavailable(), faults.intake(segmentationIntake()));
    const result = await runAgainst(server, token, ["intake", "show", "1002"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(Array(3).fill(`Bearer ${token}`));
  });

  it("--json errors carry code, exit code and status", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.badGatewayHtml());
    const result = await runAgainst(server, token, ["--retries", "0", "--json", "intake", "show", "1002"]);
    const error = expectJsonError(result, 8, "unavailable", 502);
    expect(error.message).toContain(server.host);
    expect(result.stdout).toBe("");
  });

  it("--json marks an unreadable answer as a failure with its status", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.notJson());
    const result = await runAgainst(server, token, ["--json", "intake", "show", "1002"]);
    expectJsonError(result, 1, "failure", 200);
  });
});
