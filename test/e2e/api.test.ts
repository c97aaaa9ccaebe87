/**
 * `foodctl api <path>` against a sandbox, and against a recorder that keeps each request as it
 * arrived: paths, methods, typed and string fields, headers, --input, --include, --dry-run, and
 * the refusals (exit 2, nothing sent).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, expectJsonError, runFoodctl, runTempDir } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport, transportFaults } from "../helpers/transport.js";
import { startWireRecorder, type WireRecorder } from "../helpers/wireRecorder.js";
import { startTestSandbox, type TestSandbox } from "./change/harness.js";

let sandbox: TestSandbox;
let recorder: WireRecorder;
const TOKEN = "recorder-token-0123456789";
beforeAll(async () => {
  sandbox = await startTestSandbox();
  recorder = await startWireRecorder();
});
afterAll(async () => {
  await recorder.close();
  await sandbox.close();
});
afterEach(() => void recorder.requests.splice(0));

/** foodctl api against the recorder, which answers `{}` to everything. */
const recorded = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  runFoodctl(["api", ...args], { stdin: options.stdin, env: { FOODCTL_API_URL: recorder.url, FOODCTL_TOKEN: TOKEN, ...options.env } });

describe("foodctl api against the sandbox", () => {
  it("GETs a path under /v2, written three ways, and prints the body as received when piped", async () => {
    const direct = await fetch(`${sandbox.url}/v2/intake/1002`, { headers: { authorization: `Bearer ${sandbox.token("alice")}` } });
    const expected = await direct.text();
    for (const path of ["intake/1002", "/v2/intake/1002", `${sandbox.url}/v2/intake/1002`]) {
      const result = await sandbox.cli(["api", path]);
      expectExit(result, 0);
      expect(result.stdout, path).toBe(expected);
    }
  });

  it("puts -f fields in a GET's query", async () => {
    const result = await sandbox.cli([
      "api",
      "history/getIntakesList",
      "-X",
      "get",
      "-f",
      "date_from=2026/11/03, 00:00:00",
      "-f",
      "date_to=2026/11/03, 23:59:59",
    ]);
    expectExit(result, 0);
    const ids = (JSON.parse(result.stdout) as { intakes_list: { image_id: number }[] }).intakes_list.map((intake) => intake.image_id);
    expect(ids).toEqual([1002]);
  });

  it("POSTs -F fields as a JSON body, with numbers as numbers: the sandbox applies the change", async () => {
    const result = await sandbox.cli(["api", "nutrition/confirm/quantity", "-F", "imageId=1001", "-F", "quantity=321"]);
    expectExit(result, 0);
    expect(sandbox.intake(1001).serving_size).toBe(321);
  });

  it("sends --input as the body: a nested update from a file, then from stdin", async () => {
    const file = join(runTempDir(), "update.json");
    writeFileSync(file, JSON.stringify({ imageId: 1002, quantity: { "2": 140 } }));
    expectExit(await sandbox.cli(["api", "nutrition/confirm/quantity", "--input", file]), 0);
    expect(sandbox.intake(1002).recipe_per_item?.find((item) => item.food_item_position === 2)?.serving_size).toBe(140);
    const stdin = JSON.stringify({ imageId: 1002, quantity: { "2": 150 } });
    expectExit(await sandbox.cli(["api", "nutrition/confirm/quantity", "--input", "-"], { stdin }), 0);
    expect(sandbox.intake(1002).recipe_per_item?.find((item) => item.food_item_position === 2)?.serving_size).toBe(150);
  });

  it("exits 6 for a 404 and prints the answer's body (as gh api does); under --json only the JSON error", async () => {
    const result = await sandbox.cli(["api", "intake/9999", "--include"]);
    expectErrorLine(result, 6, "404");
    const [head, body] = result.stdout.split("\n\n");
    expect(head).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
    expect(JSON.parse(body!)).toMatchObject({ code: 1301 });
    expectJsonError(await sandbox.cli(["api", "intake/9999", "--json"]), 6, "not_found", 404);
  });

  it("prints the status line and headers first with --include", async () => {
    const result = await sandbox.cli(["api", "intake/1002", "--include"]);
    expectExit(result, 0);
    const [head, body] = result.stdout.split("\n\n");
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body!)).toHaveProperty("intake_info.image_id", 1002);
  });

  it("pretty-prints the body on a terminal", async () => {
    const result = await sandbox.cli(["api", "intake/1002"], { tty: true, columns: 100 });
    expectExit(result, 0);
    expect(result.stdout).toMatch(/^\{\n {2}"intake_info": \{\n/);
  });
});

describe("foodctl api: what arrives", () => {
  it("types -F values, keeps -f values as text, reads @file, builds key[] lists and sends -H headers and --user", async () => {
    const file = join(runTempDir(), "note.txt");
    writeFileSync(file, "from a file\n");
    const result = await recorded([
      "things/7?keep=1",
      "-X",
      "put",
      "-F",
      "n=12.5",
      "-F",
      "t=true",
      "-F",
      "z=null",
      "-F",
      "big=12345678901234567890",
      "-F",
      "zero=007",
      "-F",
      `f=@${file}`,
      "-f",
      "s=12",
      "-f",
      "tag[]=a",
      "-f",
      "tag[]=b",
      "-H",
      "X-Trace: it's $HOME",
      "--user",
      "101",
    ]);
    expectExit(result, 0);
    expect(result.stdout).toBe("{}");
    const [request] = recorder.requests;
    expect(request!.method).toBe("PUT");
    expect(request!.target).toBe("/v2/things/7?keep=1&user_id=101");
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers["x-trace"]).toBe("it's $HOME");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body.toString("utf8"))).toEqual({
      n: 12.5,
      t: true,
      z: null,
      big: "12345678901234567890",
      zero: "007",
      f: "from a file\n",
      s: "12",
      tag: ["a", "b"],
    });
  });

  it("nests key[sub] fields as gh api does: per-position values in one body, typed", async () => {
    const result = await recorded(["/v2/intake/1002", "-X", "PATCH", "-F", "quantity[1]=150", "-F", "salt[1]=low", "-f", "tags[]"]);
    expectExit(result, 0);
    const [request] = recorder.requests;
    expect(request!.method).toBe("PATCH");
    expect(request!.body.toString("utf8")).toBe('{"quantity":{"1":150},"salt":{"1":"low"},"tags":[]}');
  });

  it("writes nested fields of a GET in its query in brackets", async () => {
    expectExit(await recorded(["things", "-X", "GET", "-F", "quantity[1]=150", "-f", "tag[]=a"]), 0);
    expect(recorder.requests[0]!.target).toBe("/v2/things?quantity%5B1%5D=150&tag=a");
  });

  it("changes an item through confirm/quantity with nested fields: the sandbox applies it", async () => {
    const args = ["api", "nutrition/confirm/quantity", "-F", "imageId=1002", "-F", "quantity[1]=151", "-F", "salt[1]=high"];
    expectExit(await sandbox.cli(args), 0);
    const shown = await sandbox.cli(["api", "intake/1002"]);
    const recipe = (
      JSON.parse(shown.stdout) as { intake_info: { recipe_per_item: { food_item_position: number; serving_size: number; salt: string }[] } }
    ).intake_info.recipe_per_item.find((item) => item.food_item_position === 1);
    expect(recipe).toMatchObject({ serving_size: 151, salt: "high" });
  });

  it("puts fields in the query beside an --input body, which is sent byte for byte", async () => {
    const body = "not json at all: ü\n";
    expectExit(await recorded(["upload", "--input", "-", "-f", "mode=raw", "-H", "Content-Type: text/plain"], { stdin: body }), 0);
    const [request] = recorder.requests;
    expect(request!.method).toBe("POST");
    expect(request!.target).toBe("/v2/upload?mode=raw");
    expect(request!.headers["content-type"]).toBe("text/plain");
    expect(request!.body.toString("utf8")).toBe(body);
  });

  it("--dry-run prints the request with the token masked and sends nothing", async () => {
    const result = await recorded(["nutrition/confirm/quantity", "-F", "imageId=1001", "--dry-run"]);
    expectExit(result, 0);
    expect(result.stdout).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v2\/nutrition\/confirm\/quantity\naccept: application\/json\nauthorization: Bearer \*\*\*\*\n/,
    );
    expect(result.stdout).toContain('"imageId": 1001');
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    expect(result.stderr).toContain("dry run: nothing was sent");
    expect(recorder.requests).toEqual([]);
  });

  it.each([
    [["https://elsewhere.example/v2/intake/1"], "not the API's origin"],
    [["http://127.0.0.1:1/v2/intake/1"], "not the API's origin"],
    [[""], "names no endpoint"],
    [["/v2/"], "names no endpoint"],
    [["intake/1", "-F", "novalue"], "-F takes key=value"],
    [["intake/1", "-f", "=x"], "-f takes key=value"],
    [["intake/1", "-f", "a=1", "-f", "a=2"], 'the field "a" is given twice'],
    [["intake/1", "-F", "a[=1"], '-F: "a[" is not a field name'],
    [["intake/1", "-F", "a[b]c=1"], '-F: "a[b]c" is not a field name'],
    [["intake/1", "-F", "quantity=150", "-F", "quantity[1]=150"], '"quantity" is given both as a value and as an object'],
    [["intake/1", "-f", "a[b]=1", "-f", "a[b]=2"], 'the field "a[b]" is given twice'],
    [["intake/1", "-H", "Authorization: Bearer x"], "foodctl sets this header itself"],
    [["intake/1", "-H", "no colon"], "-H takes 'Name: value'"],
    [["intake/1", "-H", "X-A: one\ntwo"], "cannot hold a line break"],
    [["intake/1", "-X", "GE T"], "--method must be an HTTP method"],
    [["intake/1", "-F", "a=@/no/such/file"], "no such file"],
    [["intake/1", "--input", "-", "-F", "a=@-"], "stdin can be read once"],
    [["intake/1", "--curl"], "--curl needs --dry-run"],
  ])("refuses %j (exit 2) and sends nothing", async (args, message) => {
    const result = await recorded(args, { stdin: "{}" });
    expectErrorLine(result, 2, message);
    expect(recorder.requests).toEqual([]);
  });

  it("refuses --include with --json (exit 2, as JSON) and sends nothing", async () => {
    const error = expectJsonError(await recorded(["intake/1", "--include", "--json"]), 2, "usage");
    expect(error.message).toContain("cannot be combined");
    expect(recorder.requests).toEqual([]);
  });

  it("is not journaled", async () => {
    const home = runTempDir();
    expectExit(
      await recorded(["nutrition/confirm/quantity", "-F", "imageId=1001", "-F", "quantity=5"], { env: { XDG_STATE_HOME: home } }),
      0,
    );
    const journal = await runFoodctl(["journal", "--json"], { env: { XDG_STATE_HOME: home } });
    expectExit(journal, 0);
    expect(JSON.parse(journal.stdout)).toEqual([]);
  });
});

describe("foodctl api through the one client", () => {
  const env = { FOODCTL_API_URL: "https://api.example.com", FOODCTL_TOKEN: TOKEN };

  it("retries a 503 and a network error like every command, waiting on the clock, and traces with the token masked", async () => {
    const scripted = scriptedTransport().route(
      "GET /v2/info/limitations",
      faults.unavailable(),
      transportFaults.network(),
      faults.json(200, { calls: 10 }),
    );
    const result = await runFoodctl(["api", "info/limitations", "--verbose"], { env, transport: scripted.transport, clock: fakeClock() });
    expectExit(result, 0);
    expect(result.stdout).toBe('{"calls":10}');
    expect(scripted.count("GET /v2/info/limitations")).toBe(3);
    expect(result.stderr).toContain("> authorization: Bearer ****");
    expect(result.stderr).not.toContain(TOKEN);
  });

  it("waits out a 429's Retry-After, and exits 8 when --retries 0 allows no second attempt", async () => {
    const scripted = scriptedTransport().route("GET /v2/info/limitations", faults.rateLimited(1), faults.json(200, {}));
    expectExit(await runFoodctl(["api", "info/limitations"], { env, transport: scripted.transport, clock: fakeClock() }), 0);
    const once = scriptedTransport().route("GET /v2/info/limitations", faults.rateLimited(1));
    const result = await runFoodctl(["api", "info/limitations", "--retries", "0"], { env, transport: once.transport, clock: fakeClock() });
    expectErrorLine(result, 8, "429");
  });

  it("exits 8 when the API cannot be reached", async () => {
    const scripted = scriptedTransport().route("GET /v2/intake/1", transportFaults.network("connection refused"));
    const result = await runFoodctl(["api", "intake/1", "--retries", "0"], { env, transport: scripted.transport, clock: fakeClock() });
    expectErrorLine(result, 8);
  });
});
