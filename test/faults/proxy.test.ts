/**
 * The transport behind a proxy (HTTP_PROXY set: http-proxy-agent on node:http) under the same
 * faults: the fault server plays the proxy too, answering each absolute-form request
 * (`GET http://127.0.0.1:9/v2/intake/1002`) from its own routes and tunnelling a CONNECT into them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runFoodctl, tempConfigHome } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, startFaultServer, type FaultServer, type Reply } from "../helpers/faultServer.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";
import { expectOneLineError, faultServerPairs } from "./harness.js";

const ROUTE = "GET /v2/intake/1002";
/** The API address the CLI is given; only the proxy is ever connected to. */
const API = "http://127.0.0.1:9";
let token: string;

beforeAll(async () => {
  token = await signTestToken();
});
const servers = faultServerPairs();

const viaProxy = (proxy: FaultServer, args: string[]) =>
  runFoodctl(["--api-url", API, ...args, "intake", "show", "1002"], {
    env: { FOODCTL_TOKEN: token, HTTP_PROXY: proxy.url, NO_PROXY: "" },
    clock: fakeClock({ deadline: proxy.holdDeadline }),
  });

describe.concurrent("intake show through an HTTP proxy", () => {
  it("reads the intake through the proxy", async () => {
    const { server } = await servers();
    server.route(ROUTE, faults.intake(segmentationIntake()));
    const result = await viaProxy(server, []);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("spaghetti bolognese");
    expect(server.count(ROUTE)).toBe(1);
    expect(server.requests[0]!.target).toBe("http://127.0.0.1:9/v2/intake/1002");
    expect(server.requests[0]!.headers.host).toBe("127.0.0.1:9");
    expect(server.connects).toEqual([]);
  });

  const cases: Array<{
    name: string;
    reply: () => Reply;
    args?: string[];
    attempts: number;
    exit: number;
    mentions: Array<string | RegExp>;
  }> = [
    { name: "503 is retried, then exit 8", reply: () => faults.unavailable(), attempts: 3, exit: 8, mentions: ["answered 503"] },
    { name: "500 is not retried", reply: () => faults.internalError(), attempts: 1, exit: 8, mentions: ["answered 500"] },
    {
      name: "429 with Retry-After: 1 is retried --retries times",
      reply: () => faults.rateLimited(1),
      args: ["--retries", "1"],
      attempts: 2,
      exit: 8,
      mentions: ["answered 429"],
    },
    {
      name: "no answer within --timeout 1: one retry, then exit 8",
      reply: () => faults.hang(),
      args: ["--timeout", "1", "--retries", "1"],
      attempts: 2,
      exit: 8,
      mentions: ["no answer within 1 s"],
    },
    {
      name: "a reset mid-body is retried, then exit 8",
      reply: () => faults.resetMidBody(),
      attempts: 3,
      exit: 8,
      mentions: ["unreachable"],
    },
    {
      name: "a 50 MB body is refused: exit 1",
      reply: () => faults.huge(false),
      attempts: 1,
      exit: 1,
      mentions: ["unreadable response", /limit/],
    },
    {
      name: "a 50 MB body with Content-Length is refused: exit 1",
      reply: () => faults.huge(true),
      attempts: 1,
      exit: 1,
      mentions: ["unreadable response", /limit/],
    },
    { name: "a 200 that is not JSON: exit 1", reply: () => faults.notJson(), attempts: 1, exit: 1, mentions: ["not JSON"] },
  ];
  it.each(cases)("$name", async ({ reply, args = [], attempts, exit, mentions }) => {
    const { server } = await servers();
    server.route(ROUTE, reply());
    const result = await viaProxy(server, args);
    expectOneLineError(result, exit, ["127.0.0.1:9", ...mentions]);
    expect(server.count(ROUTE)).toBe(attempts);
  });

  it("does not follow a redirect to another host", async () => {
    const { server, other } = await servers();
    server.route(ROUTE, faults.redirect(`${other.url}/v2/intake/1002`));
    const result = await viaProxy(server, []);
    expectOneLineError(result, 1, ["302", other.host]);
    expect(other.count()).toBe(0);
    expect(server.count()).toBe(1);
  });

  it("an unreachable proxy is a network error: retried, then exit 8", async () => {
    const closed = await startFaultServer();
    await closed.close();
    const result = await viaProxy(closed, ["--retries", "1"]);
    expectOneLineError(result, 8, ["127.0.0.1:9", "unreachable"]);
  });

  it("a proxy that drops the CONNECT of an https:// request: the timeout ends it, exit 8, no hang", async () => {
    const { server } = await servers();
    server.connectMode = "drop";
    const result = await runFoodctl(["--api-url", "https://127.0.0.1:9", "--timeout", "1", "--retries", "1", "intake", "show", "1002"], {
      env: { FOODCTL_TOKEN: token, HTTPS_PROXY: server.url, NO_PROXY: "" },
      clock: fakeClock({ deadline: server.holdDeadline }),
    });
    expectOneLineError(result, 8, ["127.0.0.1:9", "no answer within 1 s"]);
    expect(server.connects.length).toBeGreaterThan(0);
    expect(server.connects.every((target) => target === "127.0.0.1:9")).toBe(true);
  });

  it("a proxy that closes the CONNECT of an https:// request is a network error: retried, then exit 8", async () => {
    const { server } = await servers();
    server.connectMode = "drop";
    const result = await runFoodctl(["--api-url", "https://127.0.0.1:9", "--retries", "1", "intake", "show", "1002"], {
      env: { FOODCTL_TOKEN: token, HTTPS_PROXY: server.url, NO_PROXY: "" },
      clock: fakeClock(),
    });
    expectOneLineError(result, 8, ["127.0.0.1:9", "unreachable", /proxy connection ended/i]);
    expect(server.connects).toEqual(["127.0.0.1:9", "127.0.0.1:9"]);
  });

  it.each([201, 299, 407])(
    "a proxy that answers the CONNECT with %i: an error naming the proxy and its status, exit 8, never the API's answer",
    async (status) => {
      const { server } = await servers();
      server.connectMode = { status, body: { intake_info: segmentationIntake(1002) } };
      const result = await runFoodctl(["--api-url", "https://127.0.0.1:9", "intake", "show", "1002"], {
        env: { FOODCTL_TOKEN: token, HTTPS_PROXY: server.url, NO_PROXY: "" },
        clock: fakeClock(),
      });
      expectOneLineError(result, 8, [
        `127.0.0.1:9 unreachable: the proxy ${server.host} answered the CONNECT with ${status} instead of 200: no tunnel, nothing was sent`,
      ]);
      expect(result.stdout).toBe("");
      // Refused at once: a proxy that will not tunnel is not asked again.
      expect(server.connects).toEqual(["127.0.0.1:9"]);
    },
  );

  it("a set-quantity whose tunnel a proxy answers with 201 is neither sent nor journaled", async () => {
    const { server } = await servers();
    server.connectMode = { status: 201, body: { intake_info: segmentationIntake(1002), message: "updated", imageId: 1002 } };
    const home = tempConfigHome();
    const env = { FOODCTL_TOKEN: token, HTTPS_PROXY: server.url, NO_PROXY: "", XDG_CONFIG_HOME: home, XDG_STATE_HOME: home };
    const api = ["--api-url", "https://127.0.0.1:9"];
    const result = await runFoodctl([...api, "intake", "set-quantity", "1002", "1=150"], { env, clock: fakeClock() });
    expectOneLineError(result, 8, [`the proxy ${server.host} answered the CONNECT with 201`]);
    expect(result.stdout).not.toMatch(/150/);
    const journal = await runFoodctl([...api, "journal", "--json"], { env });
    expect(journal.code, journal.stderr).toBe(0);
    expect(JSON.parse(journal.stdout)).toEqual([]);
  });
});
