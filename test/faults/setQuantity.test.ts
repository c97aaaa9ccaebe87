/**
 * `intake set-quantity` against faults at each of its three requests: the read before (nothing
 * may be sent when it fails), the update (retried only for network errors, 429 and 502-504;
 * an empty 200 is fine) and the read after (the change went through: the message says so).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { faults, type Reply } from "../helpers/faultServer.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";
import { expectJsonError, expectOneLineError, faultServerPairs, runAgainst } from "./harness.js";

const READ = "GET /v2/intake/1002";
const UPDATE = "POST /v2/nutrition/confirm/quantity";
const ARGS = ["intake", "set-quantity", "1002", "1=150"];
let token: string;

beforeAll(async () => {
  token = await signTestToken();
});
const servers = faultServerPairs();

const before = () => faults.intake(segmentationIntake(1002, [200, 120]));
const after = () => faults.intake(segmentationIntake(1002, [150, 120]));

interface UpdateFault {
  name: string;
  reply: () => Reply;
  args?: string[];
  updates: number;
  exit: number;
  mentions: Array<string | RegExp>;
}

const updateFaults: UpdateFault[] = [
  { name: "500 is not retried", reply: () => faults.internalError(), updates: 1, exit: 8, mentions: ["answered 500"] },
  { name: "503 is retried twice", reply: () => faults.unavailable(), updates: 3, exit: 8, mentions: ["answered 503"] },
  { name: "502 HTML is retried twice", reply: () => faults.badGatewayHtml(), updates: 3, exit: 8, mentions: ["answered 502 Bad Gateway"] },
  { name: "504 is retried twice", reply: () => faults.gatewayTimeout(), updates: 3, exit: 8, mentions: ["answered 504"] },
  { name: "429 with Retry-After: 1 is retried twice", reply: () => faults.rateLimited(1), updates: 3, exit: 8, mentions: ["answered 429"] },
  { name: "a reset mid-body is retried twice", reply: () => faults.resetMidBody(), updates: 3, exit: 8, mentions: ["unreachable"] },
  {
    name: "a connection closed without an answer is retried twice",
    reply: () => faults.closeWithoutAnswer(),
    updates: 3,
    exit: 8,
    mentions: ["unreachable", /may have reached/],
  },
  {
    name: "a hang past --timeout 1 is retried once",
    reply: () => faults.hang(),
    args: ["--timeout", "1", "--retries", "1"],
    updates: 2,
    exit: 8,
    mentions: ["no answer within 1 s", /may have/],
  },
  {
    name: "400 is not retried: exit 7",
    reply: () => faults.error(400, "quantity must be positive"),
    updates: 1,
    exit: 7,
    mentions: ["answered 400", "quantity must be positive"],
  },
  { name: "401 is not retried: exit 4", reply: () => faults.error(401, "token expired"), updates: 1, exit: 4, mentions: ["answered 401"] },
  { name: "403 is not retried: exit 5", reply: () => faults.error(403, "not yours"), updates: 1, exit: 5, mentions: ["answered 403"] },
  { name: "404 is not retried: exit 6", reply: () => faults.error(404, "no such intake"), updates: 1, exit: 6, mentions: ["answered 404"] },
  {
    name: "a 50 MB answer is refused unread: exit 1",
    reply: () => faults.huge(true),
    updates: 1,
    exit: 1,
    mentions: ["unreadable response", "200", /limit/],
  },
  {
    name: "a 50 MB streamed answer is cut off at the limit: exit 1",
    reply: () => faults.huge(false),
    updates: 1,
    exit: 1,
    mentions: ["unreadable response", "200", /limit/],
  },
];

describe.concurrent("set-quantity: faults on the update", () => {
  it.each(updateFaults)("$name", async ({ reply, args = [], updates, exit, mentions }) => {
    const { server } = await servers();
    server.route(READ, before());
    server.route(UPDATE, reply());
    const result = await runAgainst(server, token, [...args, ...ARGS]);
    expectOneLineError(result, exit, [server.host, ...mentions]);
    expect(server.count(UPDATE)).toBe(updates);
    // No read after a failed update: the CLI does not claim a result it has not seen.
    expect(server.count(READ)).toBe(1);
    expect(result.stdout).toBe("");
    // Every attempt carried the same absolute change.
    for (const request of server.requests.filter((entry) => entry.route === UPDATE)) {
      expect(JSON.parse(request.body.toString("utf8"))).toEqual({ imageId: 1002, quantity: { "1": 150 } });
    }
  });

  it("an empty 200 to the update is fine: the read after decides", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPDATE, faults.empty200());
    const result = await runAgainst(server, token, ARGS);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(UPDATE)).toBe(1);
    expect(server.count(READ)).toBe(2);
    expect(result.stdout).toMatch(/\tgrams\t200\t150\tg$/m);
  });

  it("an empty 200 to the update with --json prints the intake read after it", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPDATE, faults.empty200());
    const result = await runAgainst(server, token, ["--json", ...ARGS]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).intake_info.recipe_per_item[0].serving_size).toBe(150);
  });

  it("a non-JSON 200 to the update is not relied on either", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPDATE, faults.notJson());
    const result = await runAgainst(server, token, ARGS);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(READ)).toBe(2);
  });

  it("a 503 then a 200 applies the change once it gets through", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPDATE, faults.unavailable(), faults.updated(1002));
    const result = await runAgainst(server, token, ARGS);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(UPDATE)).toBe(2);
    expect(result.stdout).toMatch(/\tgrams\t200\t150\tg$/m);
  });

  it("an empty 200 with --no-verify sends one request after the read and says it is unverified", async () => {
    const { server } = await servers();
    server.route(READ, before());
    server.route(UPDATE, faults.empty200());
    const result = await runAgainst(server, token, [...ARGS, "--no-verify"]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(READ)).toBe(1);
    expect(result.stderr).toMatch(/not verified/);
  });

  it("does not follow a redirect of the update to another host", async () => {
    const { server, other } = await servers();
    server.route(READ, before());
    server.route(UPDATE, faults.redirect(`${other.url}/v2/nutrition/confirm/quantity`, 307));
    const result = await runAgainst(server, token, ARGS);
    expectOneLineError(result, 1, [server.host, "307", other.host]);
    expect(other.count()).toBe(0);
    expect(server.count(UPDATE)).toBe(1);
  });

  it("--json: a 503 after retries is an unavailable error with its status", async () => {
    const { server } = await servers();
    server.route(READ, before());
    server.route(UPDATE, faults.unavailable());
    const result = await runAgainst(server, token, ["--json", "--retries", "0", ...ARGS]);
    expectJsonError(result, 8, "unavailable", 503);
    expect(result.stdout).toBe("");
  });
});

describe.concurrent("set-quantity: faults on the read before sends nothing", () => {
  const cases: Array<{ name: string; reply: () => Reply; exit: number; mentions: string[] }> = [
    { name: "503 after retries", reply: () => faults.unavailable(), exit: 8, mentions: ["answered 503"] },
    { name: "truncated JSON", reply: () => faults.truncatedJson(), exit: 1, mentions: ["unreadable response"] },
    { name: "a 200 without intake_info", reply: () => faults.withoutIntakeInfo(), exit: 1, mentions: ["intake_info"] },
    { name: "404", reply: () => faults.error(404, "no such intake"), exit: 6, mentions: ["answered 404"] },
  ];
  it.each(cases)("$name", async ({ reply, exit, mentions }) => {
    const { server } = await servers();
    server.route(READ, reply());
    const result = await runAgainst(server, token, ARGS);
    expectOneLineError(result, exit, [server.host, ...mentions]);
    expect(server.count(UPDATE)).toBe(0);
  });
});

describe.concurrent("set-quantity: faults on the read after say the change went through", () => {
  const cases: Array<{ name: string; reply: () => Reply; args?: string[]; exit: number; mentions: string[] }> = [
    { name: "500", reply: () => faults.internalError(), exit: 8, mentions: ["answered 500"] },
    {
      name: "a hang past the timeout",
      reply: () => faults.hang(),
      args: ["--timeout", "1", "--retries", "1"],
      exit: 8,
      mentions: ["no answer within 1 s"],
    },
    { name: "a 200 that is not JSON", reply: () => faults.notJson(), exit: 1, mentions: ["unreadable response"] },
  ];
  it.each(cases)("$name", async ({ reply, args = [], exit, mentions }) => {
    const { server } = await servers();
    server.route(READ, before(), reply());
    server.route(UPDATE, faults.empty200());
    const result = await runAgainst(server, token, [...args, ...ARGS]);
    expectOneLineError(result, exit, [server.host, /applied/, ...mentions]);
    expect(server.count(UPDATE)).toBe(1);
  });
});
