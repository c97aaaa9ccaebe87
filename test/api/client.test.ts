/**
 * The API client against the scripted in-memory transport: what it sends, how it reads answers,
 * which failures it retries and how long it waits. A scripted reply left unused fails the test.
 */
import { describe, expect, it } from "vitest";
import { ApiClient, type ClientOptions } from "../../src/api/client.js";
import { CliError, EXIT } from "../../src/errors.js";
import { fakeClock } from "../helpers/clock.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport, transportFaults } from "../helpers/transport.js";

const ORIGIN = "https://api.test";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMDEiLCJyb2xlIjoiQVBJVXNlciJ9.c2lnbmF0dXJlLXBhcnQtc2VjcmV0";
const SHOW = "GET /v2/intake/1002";
const UPDATE = "POST /v2/nutrition/confirm/quantity";

const intakeBody = (imageId = 1002, extra: Record<string, unknown> = {}) => ({
  intake_info: {
    image_id: imageId,
    timestamp: "2026-11-03T12:30:00Z",
    occasion: "lunch",
    user_comment: null,
    has_display_image: false,
    can_edit_display_image: false,
    image_url: "https://img.test/a.jpg",
    processed_image_size: { width: 64, height: 48 },
    foodName: ["Rice"],
    serving_size: 180,
    nutritional_info: { calories: 230, totalNutrients: { ENERC_KCAL: { label: "Energy", quantity: 230, unit: "kcal" } } },
    nutritional_info_per_item: [
      { food_item_position: 1, serving_size: 180, hasNutritionalInfo: true, nutritional_info: { calories: 230 } },
    ],
    recipe_per_item: [
      { food_item_position: 1, name: "Rice", serving_size: 180, salt: "low", sugar: "none", oil: "none", measures: "metric", recipe: [] },
    ],
    ...extra,
  },
});

/** A body as given, with no content type. */
const raw = (status: number, body = "", headers?: Record<string, string>) => ({
  kind: "raw" as const,
  status,
  body,
  ...(headers ? { headers } : {}),
});

function makeClient(options: Partial<ClientOptions> = {}) {
  const clock = fakeClock({ start: Date.now() });
  const sleeps = clock.sleeps;
  const traced: string[] = [];
  const api = scriptedTransport();
  const client = new ApiClient({
    baseUrl: new URL(ORIGIN),
    token: TOKEN,
    timeoutMs: 2000,
    retries: 2,
    userAgent: "foodctl/0.1.0",
    transport: api.transport,
    clock,
    random: () => 0.5,
    trace: (line) => traced.push(line),
    ...options,
  });
  return { client, api, sleeps, traced };
}

async function failureOf(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error("expected the request to fail");
}

/** One readable line naming the host, never the token. */
function expectOneLine(error: CliError) {
  expect(error.message).not.toContain("\n");
  expect(error.message).toContain("api.test");
  expect(error.message).not.toContain(TOKEN);
  expect(error.message).not.toContain("c2lnbmF0dXJlLXBhcnQtc2VjcmV0");
}

describe("what the client sends", () => {
  it("sends the bearer token, a foodctl User-Agent and Accept: application/json", async () => {
    const { client, api } = makeClient();
    api.route(SHOW, faults.json(200, intakeBody()));
    await client.getIntake(1002);
    const [seen] = api.requests;
    expect(seen!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen!.headers["user-agent"]).toMatch(/^foodctl\/\d+\.\d+\.\d+/);
    expect(seen!.headers.accept).toBe("application/json");
  });

  it("sends user_id from the userId option", async () => {
    const { client, api } = makeClient({ userId: 102 });
    api.route("GET /v2/intake/2001", faults.json(200, intakeBody(2001)));
    expect((await client.getIntake(2001)).data.intake_info.image_id).toBe(2001);
    expect(api.requests[0]!.query).toEqual({ user_id: "102" });
  });

  it("sends no user_id without the userId option", async () => {
    const { client, api } = makeClient();
    api.route(SHOW, faults.json(200, intakeBody()));
    await client.getIntake(1002);
    expect(api.requests[0]!.query).toEqual({});
  });

  it("keeps a base path and sends the list's dates and user_id as query parameters", async () => {
    const { client, api } = makeClient({ baseUrl: new URL(`${ORIGIN}/api`), userId: 101 });
    api.route("GET /api/v2/history/getIntakesList", faults.json(200, { intakes_list: [] }));
    const result = await client.listIntakes({ from: "2026/11/01, 00:00:00", to: "2026/11/07, 23:59:59" });
    expect(result.data.intakes_list).toEqual([]);
    expect(api.requests[0]!.query).toEqual({ date_from: "2026/11/01, 00:00:00", date_to: "2026/11/07, 23:59:59", user_id: "101" });
  });

  it("posts an update as JSON", async () => {
    const { client, api } = makeClient();
    api.route(UPDATE, raw(200));
    const result = await client.confirmQuantity({ imageId: 1002, quantity: { "1": 150 } });
    expect(api.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(api.requests[0]!.body.toString())).toEqual({ imageId: 1002, quantity: { "1": 150 } });
    expect(result.data).toBeNull();
  });

  it("masks the token in the trace", async () => {
    const { client, api, traced } = makeClient();
    api.route(SHOW, faults.json(200, intakeBody()));
    await client.getIntake(1002);
    expect(traced.join("\n")).toContain("Bearer ****");
    expect(traced.join("\n")).not.toContain(TOKEN);
    expect(traced.some((line) => line.includes("GET https://api.test/v2/intake/1002"))).toBe(true);
    expect(traced.some((line) => /^< 200 /.test(line))).toBe(true);
  });
});

describe("reading answers", () => {
  it("keeps the body as received next to the parsed data", async () => {
    const text = JSON.stringify(intakeBody());
    const { client, api } = makeClient();
    api.route(SHOW, raw(200, text, { "content-type": "application/json" }));
    const result = await client.getIntake(1002);
    expect(result.raw).toBe(text);
    expect(result.status).toBe(200);
    expect(result.data.intake_info.foodName).toEqual(["Rice"]);
  });

  it("accepts a record missing every optional field", async () => {
    const { client, api } = makeClient();
    api.route("GET /v2/intake/7", faults.json(200, { intake_info: { image_id: 7 } }));
    const { data } = await client.getIntake(7);
    expect(data.intake_info.image_id).toBe(7);
    expect(data.intake_info.recipe_per_item).toBeUndefined();
    expect(data.intake_info.nutritional_info).toBeUndefined();
  });

  it("accepts nulls where a server leaves values out", async () => {
    const { client, api } = makeClient();
    api.route(
      "GET /v2/intake/8",
      faults.json(200, {
        intake_info: {
          image_id: 8,
          timestamp: null,
          image_url: null,
          processed_image_size: null,
          nutritional_info: { calories: null, totalNutrients: null },
        },
      }),
    );
    expect((await client.getIntake(8)).data.intake_info.processed_image_size).toBeNull();
  });

  it("keeps fields it does not know, in the raw body and in the data", async () => {
    const body = { ...intakeBody(1002, { rating: { stars: 4 } }), request_id: "abc" };
    const { client, api } = makeClient();
    api.route(SHOW, raw(200, JSON.stringify(body)));
    const result = await client.getIntake(1002);
    expect(JSON.parse(result.raw)).toEqual(body);
    expect((result.data.intake_info as Record<string, unknown>).rating).toEqual({ stars: 4 });
    expect((result.data as Record<string, unknown>).request_id).toBe("abc");
  });

  it("fails with exit 1 on a 200 that is not JSON", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, raw(200, "<html>hello</html>", { "content-type": "text/html" }));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.failure);
    expect(error.message).toMatch(/not JSON/);
    expectOneLine(error);
    expect(sleeps).toEqual([]);
  });

  it("fails with exit 1 on a 200 whose JSON does not fit", async () => {
    const { client, api } = makeClient();
    api.route(SHOW, faults.json(200, { intake_info: { image_id: "1002" } }));
    api.route("GET /v2/intake/1003", faults.json(200, { intakes: [] }));
    const wrongType = await failureOf(client.getIntake(1002));
    expect(wrongType.exitCode).toBe(EXIT.failure);
    expect(wrongType.message).toContain("intake_info.image_id");
    expectOneLine(wrongType);
    const missing = await failureOf(client.getIntake(1003));
    expect(missing.exitCode).toBe(EXIT.failure);
    expect(missing.message).toContain("intake_info");
  });

  it("accepts an update answered with an empty or non-JSON body", async () => {
    const { client, api } = makeClient();
    api.route(UPDATE, raw(200, "OK"), raw(200));
    expect((await client.confirmQuantity({ imageId: 1 })).raw).toBe("OK");
    expect((await client.confirmQuantity({ imageId: 1 })).raw).toBe("");
  });
});

describe("HTTP errors", () => {
  it.each([
    [400, EXIT.rejected, "Invalid quantity for position 1."],
    [401, EXIT.auth, "The token has expired."],
    [403, EXIT.forbidden, "You may not act for user 102."],
    [404, EXIT.notFound, "No intake 9 for user 101."],
    [409, EXIT.rejected, "Intake 1002 is not manual."],
    [413, EXIT.rejected, "The display image is over 1 MiB."],
    [415, EXIT.rejected, "The display image is not a JPEG, PNG, GIF or WebP."],
    [500, EXIT.unavailable, "Internal error."],
  ])("maps %d to exit %d with one line naming the host, the status and the server's message", async (status, exitCode, message) => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, faults.json(status, { message, code: status }));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(exitCode);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`api.test answered ${status}: ${message}`);
    expectOneLine(error);
    expect(sleeps).toEqual([]);
  });

  it.each([
    [429, "Too Many Requests"],
    [502, "Bad Gateway"],
    [503, "Service Unavailable"],
    [504, "Gateway Timeout"],
  ])("maps %d to exit 8 once retries are used up", async (status, text) => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, raw(status));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toBe(`api.test answered ${status} ${text}`);
    expect(api.count(SHOW)).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it("falls back to the status for a non-JSON 502 HTML page", async () => {
    const html =
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>\r\n</html>\r\n";
    const { client, api } = makeClient();
    api.route(SHOW, raw(502, html, { "content-type": "text/html" }));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toBe("api.test answered 502 Bad Gateway");
    expect(error.message).not.toContain("<");
    expect(api.count(SHOW)).toBe(3);
  });

  it("hints at --user when a manager's token is refused for a missing user_id", async () => {
    const { client, api } = makeClient();
    api.route(
      "GET /v2/history/getIntakesList",
      faults.json(400, { message: "user_id is required for an APIUserManager token.", code: 400 }),
    );
    const error = await failureOf(client.listIntakes());
    expect(error.exitCode).toBe(EXIT.rejected);
    expect(error.hint).toMatch(/--user/);
  });

  it("hints at logging in on 401", async () => {
    const { client, api } = makeClient();
    api.route(SHOW, faults.json(401, { message: "Invalid token.", code: 401 }));
    expect((await failureOf(client.getIntake(1002))).hint).toMatch(/auth login/);
  });
});

describe("retries", () => {
  it("retries a 503 with growing backoff, then succeeds", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, raw(503), raw(503), faults.json(200, intakeBody()));
    expect((await client.getIntake(1002)).data.intake_info.image_id).toBe(1002);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
    expect(sleeps[0]!).toBeGreaterThan(0);
  });

  it("spreads backoff with jitter", async () => {
    const low = makeClient({ random: () => 0 });
    const high = makeClient({ random: () => 0.999 });
    for (const { client, api } of [low, high]) {
      api.route(SHOW, raw(502), faults.json(200, intakeBody()));
      await client.getIntake(1002);
    }
    expect(low.sleeps).toHaveLength(1);
    expect(high.sleeps).toHaveLength(1);
    expect(high.sleeps[0]!).toBeGreaterThan(low.sleeps[0]!);
  });

  it("waits as long as a 503's Retry-After says", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, raw(503, "", { "retry-after": "2" }), faults.json(200, intakeBody()));
    await client.getIntake(1002);
    expect(sleeps).toEqual([2000]);
  });

  it("honours a 429's Retry-After, then succeeds", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, faults.json(429, { message: "Slow down.", code: 429 }, { "retry-after": "3" }), faults.json(200, intakeBody()));
    await client.getIntake(1002);
    expect(sleeps).toHaveLength(1);
    // The pause is measured against the clock, so a millisecond may already have passed.
    expect(sleeps[0]!).toBeGreaterThan(2900);
    expect(sleeps[0]!).toBeLessThanOrEqual(3000);
  });

  it("does not wait for a Retry-After over two minutes: exit 8 at once", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, raw(429, "", { "retry-after": "3600" }));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(sleeps).toEqual([]);
    expect(api.count(SHOW)).toBe(1);
  });

  it.each([400, 401, 403, 404, 409, 500])("does not retry a %d", async (status) => {
    const { client, api, sleeps } = makeClient({ retries: 5 });
    api.route(SHOW, faults.json(status, { message: "no", code: status }));
    await failureOf(client.getIntake(1002));
    expect(api.count(SHOW)).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("makes one attempt with --retries 0", async () => {
    const { client, api, sleeps } = makeClient({ retries: 0 });
    api.route(SHOW, raw(503));
    expect((await failureOf(client.getIntake(1002))).exitCode).toBe(EXIT.unavailable);
    expect(api.count(SHOW)).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("retries a network error, then succeeds", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, transportFaults.network("connection reset"), faults.json(200, intakeBody()));
    expect((await client.getIntake(1002)).status).toBe(200);
    expect(sleeps).toHaveLength(1);
  });

  it("gives up on network errors after the retries with exit 8", async () => {
    const { client, api, sleeps } = makeClient();
    api.route(SHOW, transportFaults.network("connection refused"));
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toContain("api.test");
    expect(error.message).toContain("connection refused");
    expect(error.hint).toMatch(/3 attempts/);
    expectOneLine(error);
    expect(api.count(SHOW)).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it("a refused connection to this machine hints a sandbox; to another host it does not", async () => {
    for (const [origin, hint] of [
      ["http://127.0.0.1:45461", 'start a sandbox there: eval "$(foodctl sandbox --detach --port 45461)"'],
      ["http://localhost:8787", 'start a sandbox there: eval "$(foodctl sandbox --detach --port 8787)"'],
      ["http://[::1]:8788", 'start a sandbox there: eval "$(foodctl sandbox --detach --port 8788 --host ::1)"'],
      // A sandbox speaks http only: an https URL to it would fail again, on TLS.
      [
        "https://localhost:38998",
        'start a sandbox there: eval "$(foodctl sandbox --detach --port 38998)", then use http://localhost:38998 (a sandbox speaks http only)',
      ],
      [ORIGIN, undefined],
    ] as const) {
      const { client, api } = makeClient({ baseUrl: new URL(origin), retries: 0 });
      api.route(SHOW, transportFaults.network("connection refused"));
      const error = await failureOf(client.getIntake(1002));
      expect([error.exitCode, error.hint]).toEqual([EXIT.unavailable, hint]);
    }
  });

  it("a refused connection to this machine where a sandbox was recorded: the hint starts that one again, as the context says", async () => {
    const asked: string[] = [];
    const restartSandbox = async (url: URL) => {
      asked.push(url.href);
      return url.port === "45461" ? "foodctl sandbox --detach --port 45461 --state '/tmp/my state.json'" : undefined;
    };
    for (const [origin, hint] of [
      [
        "http://127.0.0.1:45461",
        `start the sandbox that ran there again: eval "$(foodctl sandbox --detach --port 45461 --state '/tmp/my state.json')"`,
      ],
      ["http://127.0.0.1:45462", 'start a sandbox there: eval "$(foodctl sandbox --detach --port 45462)"'],
      [ORIGIN, undefined],
    ] as const) {
      const { client, api } = makeClient({ baseUrl: new URL(origin), retries: 0, restartSandbox });
      api.route(SHOW, transportFaults.network("connection refused"));
      const error = await failureOf(client.getIntake(1002));
      expect([error.exitCode, error.hint]).toEqual([EXIT.unavailable, hint]);
    }
    // Asked only for this machine's addresses.
    expect(asked).toEqual(["http://127.0.0.1:45461/v2/intake/1002", "http://127.0.0.1:45462/v2/intake/1002"]);
  });

  it("gives up on a server that does not answer in time with exit 8", async () => {
    const { client, api } = makeClient({ timeoutMs: 30, retries: 0 });
    api.route(SHOW, transportFaults.timeout());
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toMatch(/no answer within 0\.03 s/);
    expectOneLine(error);
  });

  it("retries a timeout, then succeeds", async () => {
    const { client, api, sleeps } = makeClient({ timeoutMs: 50, retries: 1 });
    api.route(SHOW, transportFaults.timeout(), faults.json(200, intakeBody(1002, { occasion: "dinner" })));
    expect((await client.getIntake(1002)).data.intake_info.occasion).toBe("dinner");
    expect(sleeps).toHaveLength(1);
  });
});

describe("Ctrl-C", () => {
  it("sends nothing once the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { client, api } = makeClient({ signal: controller.signal });
    const error = await failureOf(client.getIntake(1002));
    expect(error.exitCode).toBe(EXIT.interrupted);
    expect(api.requests).toEqual([]);
  });
});
