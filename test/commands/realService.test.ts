/**
 * docs/api.md, what the public service does: each row of that table held by the CLI, in process,
 * against a loopback server that records what it received.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { TransportRequest, TransportResponse } from "../../src/api/transport.js";
import { parseApiDateTime } from "../../src/intake/dates.js";
import { segmentationIntake, signTestToken } from "../faults/fixtures.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { configHomes, OPAQUE_TOKEN, runIn } from "./helpers.js";

let server: FaultServer;
let jwt: string;
const newHome = configHomes();
const DAY_MS = 86_400_000;
/** Without a zone, a window up to now is sent up to now at UTC+14, the latest clock anywhere. */
const AHEAD_MS = 14 * 3_600_000;

beforeAll(async () => {
  [server, jwt] = await Promise.all([startFaultServer(), signTestToken()]);
});
afterAll(async () => {
  await server.close();
});
// After each case: a scripted reply it left unused fails that case.
afterEach(() => {
  server.reset();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}, options: { tty?: boolean } = {}) =>
  runIn(newHome(), ["--api-url", server.url, ...args], { FOODCTL_TOKEN: OPAQUE_TOKEN, ...env }, options);

/** An intake with positions 1 and 3 only (the public service's positions have gaps). */
function gappedIntake(grams3 = 120) {
  const record = segmentationIntake(1006, [200, grams3]);
  for (const list of [record.recipe_per_item, record.nutritional_info_per_item]) list[1]!.food_item_position = 3;
  return record;
}

/** Not confirmed yet: no recipe, no per-item nutrition, nothing else that tells the kind. */
function unconfirmedIntake() {
  return {
    image_id: 1007,
    timestamp: "2026-11-20T08:00:00Z",
    occasion: "breakfast",
    can_edit_display_image: false,
    has_display_image: false,
    foodName: ["Pasta"],
    serving_size: 300,
  };
}

describe("API tokens: an opaque 40-hex token is sent as it is", () => {
  it.each([
    ["intake list", ["intake", "list"], "GET /v2/history/getIntakesList"],
    ["intake show", ["intake", "show", "1002"], "GET /v2/intake/1002"],
    ["intake show --nutrients all", ["intake", "show", "1002", "--nutrients", "all"], "GET /v2/intake/1002"],
    ["auth status --check", ["auth", "status", "--check"], "GET /v2/history/getIntakesList"],
  ])("%s sends Bearer <opaque token> and succeeds", async (_name, args, route) => {
    server.route(route, route === "GET /v2/intake/1002" ? faults.intake(segmentationIntake()) : faults.json(200, { intakes_list: [] }));
    const result = await cli(args);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.route)).toEqual([route]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${OPAQUE_TOKEN}`);
    expect(result.stdout + result.stderr).not.toContain(OPAQUE_TOKEN);
  });

  it("auth status names the kind and says subject and expiry are known only to the server", async () => {
    const result = await cli(["auth", "status"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/kind\s+opaque: its subject and expiry are known only to the server/);
    const json = JSON.parse((await cli(["auth", "status", "--json"])).stdout);
    expect(json).toMatchObject({ token_kind: "opaque", subject: null, expires_at: null, usable: true });
    expect(server.count()).toBe(0);
  });

  it("auth status says JWT for a JWT and keeps its claims", async () => {
    const json = JSON.parse((await cli(["auth", "status", "--json"], { FOODCTL_TOKEN: jwt })).stdout);
    expect(json).toMatchObject({ token_kind: "jwt", subject: "101", role: "APIUser", usable: true });
  });

  it.each([
    ["an opaque token", OPAQUE_TOKEN],
    ["a JWT", "jwt"],
  ])("auth status --check with %s: exit 0 when the server accepts it, 4 when it answers 401", async (_name, which) => {
    const token = which === "jwt" ? jwt : which;
    server.route("GET /v2/history/getIntakesList", faults.json(200, { intakes_list: [] }));
    const accepted = await cli(["auth", "status", "--check"], { FOODCTL_TOKEN: token });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/server\s+127\.0\.0\.1:\d+ accepts the token \(answered 200\)/);
    server.reset().route("GET /v2/history/getIntakesList", faults.json(401, { message: "unknown token", code: 1002 }));
    const refused = await cli(["auth", "status", "--check"], { FOODCTL_TOKEN: token });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/refused the token \(answered 401\)/);
    expect(server.count()).toBe(1);
  });

  it("auth status --check never shows a 400 for a missing user_id as acceptance: the check could not be made (exit 7)", async () => {
    server.route("GET /v2/history/getIntakesList", faults.json(400, { message: "user_id is required", code: 1201 }));
    const result = await cli(["auth", "status", "--check", "--json"]);
    expect(result.code, result.stderr).toBe(7);
    expect(JSON.parse(result.stdout)).toMatchObject({ usable: false, server_check: { accepted: null, status: 400, quota: null } });
    expect(JSON.parse(result.stderr).error).toMatchObject({ status: 400, service_code: 1201, hint: expect.stringContaining("--user") });
  });

  it.each([
    ["Bearer prefix", `Bearer ${OPAQUE_TOKEN}`, /starts with "Bearer "/, /drop the "Bearer " prefix/],
    ["whitespace inside", "3f9c2b7a1d0e 4c5f8a6b9d2e1f3a4b5c6d7e8f90", /holds whitespace/, /one word/],
    ["a control character", "3f9c2b7a1d0e\u00074c5f8a6b9d2e1f3a4b5c6d7e8f90", /holds control characters/, /copy the token again/],
    ["non-ASCII", "3f9c2b7a1d0e4c5f8a6b9d2e1f3a4b5c6d7e8f9\u00e9", /outside printable ASCII/, /auth login/],
  ])("a token with %s is refused (exit 4) and nothing is sent", async (_name, token, message, hint) => {
    const result = await cli(["intake", "show", "1002"], { FOODCTL_TOKEN: token });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(hint);
    expect(server.count()).toBe(0);
  });

  it("auth login stores an opaque token and a pasted Bearer prefix is refused with the hint", async () => {
    const home = newHome();
    const login = await runIn(home, ["auth", "login", "--with-token"], {}, { stdin: `${OPAQUE_TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("opaque token");
    expect(login.stdout).not.toContain(OPAQUE_TOKEN);
    const token = await runIn(home, ["auth", "token"]);
    expect(token.stdout).toBe(`${OPAQUE_TOKEN}\n`);
    const bearer = await runIn(newHome(), ["auth", "login", "--with-token"], {}, { stdin: `Bearer ${OPAQUE_TOKEN}\n` });
    expect(bearer.code).toBe(4);
    expect(bearer.stderr).toMatch(/hint: drop the "Bearer " prefix/);
  });
});

describe("base URL: with or without /v2, the same API; another path is a prefix", () => {
  it.each([
    ["", "/v2/intake/1002"],
    ["/", "/v2/intake/1002"],
    ["/v2", "/v2/intake/1002"],
    ["/v2/", "/v2/intake/1002"],
    ["/food", "/food/v2/intake/1002"],
    ["/food/", "/food/v2/intake/1002"],
    ["/food/v2", "/food/v2/intake/1002"],
  ])("base URL ending %j: the server receives %s (flag, environment and config set alike)", async (suffix, path) => {
    server.route(`GET ${path}`, faults.intake(segmentationIntake()));
    const base = `${server.url}${suffix}`;
    const flag = await runIn(newHome(), ["--api-url", base, "intake", "show", "1002"], { FOODCTL_TOKEN: OPAQUE_TOKEN });
    expect(flag.code, flag.stderr).toBe(0);
    const env = await runIn(newHome(), ["intake", "show", "1002"], { FOODCTL_TOKEN: OPAQUE_TOKEN, FOODCTL_API_URL: base });
    expect(env.code, env.stderr).toBe(0);
    const home = newHome();
    expect((await runIn(home, ["config", "set", "api-url", base])).code).toBe(0);
    const profile = await runIn(home, ["intake", "show", "1002"], { FOODCTL_TOKEN: OPAQUE_TOKEN });
    expect(profile.code, profile.stderr).toBe(0);
    expect(server.requests.map((request) => request.path)).toEqual([path, path, path]);
  });
});

describe("history dates: intake list always sends both dates", () => {
  const sentWindow = () => {
    const query = server.requests[0]!.query;
    const from = parseApiDateTime(query.date_from ?? "");
    const to = parseApiDateTime(query.date_to ?? "");
    expect(from, JSON.stringify(query)).not.toBeNull();
    expect(to, JSON.stringify(query)).not.toBeNull();
    return { from: from!, to: to!, query };
  };
  const list = async (args: string[], options: { tty?: boolean } = {}) => {
    server.route("GET /v2/history/getIntakesList", faults.json(200, { intakes_list: [segmentationIntake()] }));
    return cli(["intake", "list", ...args], {}, options);
  };
  /** A window refused before anything is sent: nothing scripted. */
  const refusedList = (args: string[]) => cli(["intake", "list", ...args]);

  it("with no flags: both dates, the 7 days up to now, sent up to now at UTC+14 (no zone named: it reaches every zone's now)", async () => {
    const before = Date.now();
    expect((await list([])).code).toBe(0);
    const { from, to } = sentWindow();
    expect(to.getTime() - from.getTime()).toBe(7 * DAY_MS + AHEAD_MS);
    expect(to.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + AHEAD_MS);
    expect(to.getTime()).toBeLessThanOrEqual(Date.now() + AHEAD_MS);
  });

  it("--from and --to: sent as given, a bare --to date through the end of its day", async () => {
    expect((await list(["--from", "2026-11-01", "--to", "2026-11-07"])).code).toBe(0);
    expect(sentWindow().query).toMatchObject({ date_from: "2026/11/01, 00:00:00", date_to: "2026/11/07, 23:59:59" });
  });

  it("--to alone: the 7 days before it", async () => {
    expect((await list(["--to", "2026-11-07T12:00:00Z"])).code).toBe(0);
    expect(sentWindow().query).toMatchObject({ date_from: "2026/10/31, 12:00:00", date_to: "2026/11/07, 12:00:00" });
  });

  it("--days 3: the last 3 days up to now", async () => {
    expect((await list(["--days", "3"])).code).toBe(0);
    const { from, to } = sentWindow();
    expect(to.getTime() - from.getTime()).toBe(3 * DAY_MS + AHEAD_MS);
  });

  it("--from with --days: that many whole days from it (to the last one's last second); --from alone: up to now", async () => {
    expect((await list(["--from", "2026-11-01", "--days", "2"])).code).toBe(0);
    expect(sentWindow().query).toMatchObject({ date_from: "2026/11/01, 00:00:00", date_to: "2026/11/02, 23:59:59" });
    server.reset();
    const from = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);
    expect((await list(["--from", from])).code).toBe(0);
    expect(sentWindow().to.getTime()).toBeLessThanOrEqual(Date.now() + AHEAD_MS);
  });

  it("over a year is refused (exit 2, nothing sent) unless both --from and --to are given", async () => {
    for (const args of [
      ["--days", "400"],
      ["--from", "2024-01-01"],
      ["--to", "2026-11-07", "--days", "367"],
    ]) {
      const result = await refusedList(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/over a year .*give both --from and --to/);
    }
    expect(server.count()).toBe(0);
    expect((await list(["--from", "2024-01-01", "--to", "2026-11-07"])).code).toBe(0);
    expect(server.count()).toBe(1);
  });

  it.each([
    [["--days", "0"], /--days must be a whole number/],
    [["--days", "1.5"], /--days must be a whole number/],
    [["--from", "2026-11-01", "--to", "2026-11-07", "--days", "2"], /--days goes with --from or --to, not both/],
    [["--from", "2026-11-07", "--to", "2026-11-01"], /starts .* after it ends/],
  ])("%j is refused with exit 2 and nothing sent", async (args, message) => {
    const result = await refusedList(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(server.count()).toBe(0);
  });

  it("the terminal's heading shows the window used", async () => {
    const result = await list(["--from", "2026-11-01", "--to", "2026-11-07"], { tty: true });
    // Wider than the terminal's 80 columns: the note goes on a line of its own.
    expect(result.stdout.split("\n").slice(0, 2)).toEqual([
      "Intakes of Sun 1 Nov – Sat 7 Nov 2026, times in UTC",
      "(the user's zone is not known: --tz names it)",
    ]);
    server.reset();
    const piped = await list(["--from", "2026-11-01", "--to", "2026-11-07"]);
    expect(piped.stdout).not.toContain("Intakes of");
  });
});

describe("error bodies: the service's own code is shown, the exit code comes from the status", () => {
  it("text: `answered 400 (code 1201): user_id is required`, exit 7", async () => {
    server.route("GET /v2/intake/1002", faults.json(400, { message: "user_id is required", code: 1201 }));
    const result = await cli(["intake", "show", "1002"]);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/^error: 127\.0\.0\.1:\d+ answered 400 \(code 1201\): user_id is required$/m);
  });

  it("JSON: service_code beside status and exit_code", async () => {
    server.route("GET /v2/intake/1002", faults.json(403, { message: "user 999 is not managed by this token", code: 1203 }));
    const result = await cli(["intake", "show", "1002", "--json"]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: "forbidden", exit_code: 5, status: 403, service_code: 1203 });
  });

  it("an error message echoing the opaque token is masked (it has no shape to recognise it by)", async () => {
    server.route("GET /v2/intake/1002", faults.json(401, { message: `unknown token ${OPAQUE_TOKEN}`, code: 1002 }));
    const home = newHome();
    const login = await runIn(home, ["auth", "login", "--with-token"], {}, { stdin: OPAQUE_TOKEN });
    expect(login.code, login.stderr).toBe(0);
    for (const json of [[], ["--json"]]) {
      const result = await runIn(home, ["--api-url", server.url, "intake", "show", "1002", ...json]);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain("(code 1002): unknown token ****");
      expect(result.stderr).not.toContain(OPAQUE_TOKEN);
    }
  });

  it("a code equal to the status is not repeated in the message", async () => {
    server.route("GET /v2/intake/1002", faults.json(404, { message: "no such intake", code: 404 }));
    const result = await cli(["intake", "show", "1002"]);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/answered 404: no such intake/);
  });

  it("429 with the service's code 114 after the retries: exit 8 from the status", async () => {
    server.route("GET /v2/intake/1002", faults.json(429, { message: "rate limit", code: 114 }, { "ratelimit-reset": "0" }));
    const result = await cli(["intake", "show", "1002", "--retries", "0", "--json"]);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stderr).error).toMatchObject({ status: 429, service_code: 114, exit_code: 8 });
  });
});

describe("rate limit: RateLimit-Reset is honoured when there is no Retry-After", () => {
  const limited = (reset: string) =>
    faults.json(
      429,
      { message: "rate limit", code: 114 },
      { "ratelimit-reset": reset, "ratelimit-remaining": "0", "ratelimit-limit": "10" },
    );

  it("the client waits RateLimit-Reset seconds, then retries within --retries", async () => {
    const replies: TransportResponse[] = [
      { status: 429, headers: { "ratelimit-reset": "3" }, body: Buffer.from('{"message":"rate limit","code":114}') },
      {
        status: 200,
        headers: { "ratelimit-remaining": "9", "ratelimit-limit": "10", "ratelimit-reset": "60" },
        body: Buffer.from(JSON.stringify({ intake_info: segmentationIntake() })),
      },
    ];
    const clock = fakeClock();
    const sent: TransportRequest[] = [];
    const client = new ApiClient({
      baseUrl: new URL("https://api.test"),
      token: OPAQUE_TOKEN,
      timeoutMs: 1000,
      retries: 1,
      userAgent: "foodctl/test",
      transport: async (request) => {
        sent.push(request);
        return replies.shift()!;
      },
      clock,
    });
    const result = await client.getIntake(1002);
    expect(sent).toHaveLength(2);
    expect(clock.sleeps).toEqual([3000]);
    expect(result.headers["ratelimit-remaining"]).toBe("9");
  });

  it("in the CLI: a sub-second reset is waited and retried, and --retries 0 means one attempt", async () => {
    server.route("GET /v2/intake/1002", limited("0.05"), faults.intake(segmentationIntake()));
    const retried = await cli(["intake", "show", "1002", "--retries", "1"]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(server.count("GET /v2/intake/1002")).toBe(2);
    server.reset().route("GET /v2/intake/1002", limited("0.05"));
    const once = await cli(["intake", "show", "1002", "--retries", "0"]);
    expect(once.code).toBe(8);
    expect(once.stderr).toMatch(/answered 429 \(code 114\): rate limit/);
    expect(server.count("GET /v2/intake/1002")).toBe(1);
  });
});

describe("positions: integers with gaps (1 and 3 only)", () => {
  it("intake show lists positions 1 and 3", async () => {
    server.route("GET /v2/intake/1006", faults.intake(gappedIntake()));
    const result = await cli(["intake", "show", "1006"]);
    expect(result.code, result.stderr).toBe(0);
    const items = result.stdout.split("\n").filter((line) => line.startsWith("item\t"));
    expect(items.map((line) => line.split("\t")[1])).toEqual(["1", "3"]);
    expect(result.stdout).toMatch(/^kind\tsegmentation$/m);
  });

  it("set-quantity 3=80 is sent and the diff names position 3; 2=80 is refused (exit 7, nothing sent)", async () => {
    server.route("GET /v2/intake/1006", faults.intake(gappedIntake(120)), faults.intake(gappedIntake(80)));
    server.route("POST /v2/nutrition/confirm/quantity", faults.updated(1006));
    const changed = await cli(["intake", "set-quantity", "1006", "3=80"]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(server.requests[1]!.body.toString())).toEqual({ imageId: 1006, quantity: { "3": 80 } });
    expect(changed.stdout).toMatch(/^item\t1006\t3\t.*\tgrams\t120\t80\tg$/m);
    server.reset().route("GET /v2/intake/1006", faults.intake(gappedIntake()));
    const refused = await cli(["intake", "set-quantity", "1006", "2=80"]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toMatch(/unknown position 2 \(this intake has 1, 3\)/);
    expect(server.count("POST /v2/nutrition/confirm/quantity")).toBe(0);
  });

  it("set-modifiers --all-items targets 1 and 3", async () => {
    server.route("GET /v2/intake/1006", faults.intake(gappedIntake()));
    server.route("POST /v2/nutrition/confirm/quantity", faults.updated(1006));
    const result = await cli(["intake", "set-modifiers", "1006", "--all-items", "--salt", "low", "--no-verify"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(server.requests[1]!.body.toString())).toEqual({ imageId: 1006, salt: { "1": "low", "3": "low" } });
  });
});

describe("nutrients: --nutrients all prints every code, per intake and per item", () => {
  it("every totalNutrients code with label, quantity and unit; the default stays the six", async () => {
    const record = segmentationIntake();
    const extra = { FIBTG: { label: "Fiber", quantity: 4.25, unit: "g" }, "SUGAR.added": { label: "Added sugar", quantity: 1, unit: "g" } };
    record.nutritional_info.totalNutrients = {
      ...record.nutritional_info.totalNutrients,
      ...extra,
    } as typeof record.nutritional_info.totalNutrients;
    server.route("GET /v2/intake/1002", faults.intake(record));
    const all = await cli(["intake", "show", "1002", "--nutrients", "all"]);
    expect(all.code, all.stderr).toBe(0);
    const rows = all.stdout.split("\n").filter((line) => line.startsWith("nutrient\t"));
    expect(rows).toContain("nutrient\ttotal\tFIBTG\tFiber\t4.25\tg");
    expect(rows).toContain("nutrient\ttotal\tSUGAR.added\tAdded sugar\t1\tg");
    expect(rows.filter((row) => row.startsWith("nutrient\t1\t"))).toHaveLength(6);
    expect(rows.filter((row) => row.startsWith("nutrient\t2\t"))).toHaveLength(6);
    const six = await cli(["intake", "show", "1002"]);
    expect(six.stdout).not.toContain("FIBTG");
    expect(six.stdout.split("\n").filter((line) => line.startsWith("total\t"))).toHaveLength(6);
    const bad = await cli(["intake", "show", "1002", "--nutrients", "some"]);
    expect(bad.code).toBe(2);
  });
});

describe("not yet confirmed intakes: the kind is not guessed from a missing recipe_per_item", () => {
  beforeEach(() => {
    server.route("GET /v2/intake/1007", faults.intake(unconfirmedIntake()));
  });
  const posts = () => server.count("POST /v2/nutrition/confirm/quantity");
  const answerUpdate = () => server.route("POST /v2/nutrition/confirm/quantity", faults.updated(1007));

  it("intake show says the kind is unknown and shows the one row it has", async () => {
    const result = await cli(["intake", "show", "1007"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^kind\tunknown \(not confirmed yet\)$/m);
    expect(result.stdout).toMatch(/^item\t-\tPasta\t300/m);
  });

  it("set-quantity with a total is refused (exit 7) with a hint to give per-position values; nothing is sent", async () => {
    const result = await cli(["intake", "set-quantity", "1007", "300"]);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/does not tell whether this intake is recognition-only or itemized/);
    expect(result.stderr).toMatch(/give values per position \(e\.g\. 1=150\)/);
    expect(posts()).toBe(0);
  });

  it("set-quantity per position is sent: the server judges the positions", async () => {
    answerUpdate();
    const result = await cli(["intake", "set-quantity", "1007", "1=250", "--no-verify"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(server.requests[1]!.body.toString())).toEqual({ imageId: 1007, quantity: { "1": 250 } });
  });

  it("set-modifiers without positions (or with --all-items) is refused (exit 7); with a position it is sent", async () => {
    for (const args of [
      ["--salt", "low"],
      ["--all-items", "--salt", "low"],
    ]) {
      const result = await cli(["intake", "set-modifiers", "1007", ...args]);
      expect(result.code, args.join(" ")).toBe(7);
      expect(result.stderr).toMatch(/name the positions/);
    }
    expect(posts()).toBe(0);
    answerUpdate();
    const sent = await cli(["intake", "set-modifiers", "1007", "1", "--salt", "low", "--no-verify"]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(posts()).toBe(1);
  });
});
