/**
 * Records other clients have met (docs/api.md, the public service): one food name as a string,
 * a record that fails its check among good ones, error text in `detail` or `error`. In process,
 * through the scripted transport.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, runFoodctl } from "../helpers/cli.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";

const API_URL = "http://127.0.0.1:9";
let token: string;

beforeAll(async () => {
  token = await signTestToken();
});

const LIST = "GET /v2/history/getIntakesList";
const run = (args: string[], transport: ReturnType<typeof scriptedTransport>, tty = false) =>
  runFoodctl(args, {
    env: { FOODCTL_API_URL: API_URL, FOODCTL_TOKEN: token, NO_COLOR: "1" },
    transport: transport.transport,
    tty,
    columns: 200,
  });

const recognition = (imageId: number, foodName: unknown) => ({
  image_id: imageId,
  timestamp: "2026-11-04T12:00:00Z",
  occasion: "lunch",
  foodName,
  serving_size: 300,
  salt: "medium",
  sugar: "none",
  recipe: [{ name: "rice", weight: 300, unit: "g" }],
  nutritional_info: { calories: 420 },
});

describe("one odd record never hides the others", () => {
  it("reads foodName as one string in intake show and intake list", async () => {
    const api = scriptedTransport()
      .route("GET /v2/intake/1001", faults.intake(recognition(1001, "Fried rice")))
      .route(LIST, faults.json(200, { intakes_list: [recognition(1001, "Fried rice")] }));
    const show = await run(["intake", "show", "1001"], api);
    expectExit(show, 0);
    expect(show.stdout).toContain("item\t-\tFried rice\t300");
    const list = await run(["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"], api);
    expectExit(list, 0);
    expect(list.stdout.split("\t")[4]).toBe("Fried rice");
  });

  it("marks a record that fails its check as unreadable, warns on stderr, prints the others and exits 0", async () => {
    const body = { intakes_list: [recognition(1001, ["Rice"]), recognition(1002, [1]), { ...segmentationIntake(), image_id: 1003 }] };
    const api = scriptedTransport().route(LIST, faults.json(200, body), faults.json(200, body), faults.json(200, body));
    const piped = await run(["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"], api);
    expectExit(piped, 0);
    const rows = piped.stdout.trimEnd().split("\n");
    expect(rows.map((row) => row.split("\t")[0])).toEqual(["1001", "1002", "1003"]);
    expect(rows[1]!.split("\t").slice(3, 5)).toEqual(["unreadable", "(unreadable: foodName.0: expected a string, received a number)"]);
    expect(piped.stderr).toBe(
      "warning: intake 1002 of the list is unreadable and is shown as such: foodName.0: expected a string, received a number\n",
    );

    const terminal = await run(["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"], api, true);
    expectExit(terminal, 0);
    expect(terminal.stdout).toMatch(/^1002 .*unreadable/m);

    const json = await run(["intake", "list", "--json", "--from", "2026-11-01", "--to", "2026-11-30"], api);
    expectExit(json, 0);
    expect(JSON.parse(json.stdout)).toEqual(body);
    expect(json.stderr).toBe("");
  });

  it("still refuses a list that is not there at all", async () => {
    const api = scriptedTransport().route(LIST, faults.json(200, { intakes_list: "none" }));
    expectErrorLine(await run(["intake", "list"], api), 1, /answer does not fit: intakes_list/);
  });
});

describe("error text from message, detail or error", () => {
  it.each([
    [{ detail: "Intake not found" }, "answered 404: Intake not found"],
    [{ error: "not_found: no such intake" }, "answered 404: not_found: no such intake"],
    [{ message: "No intake 1001", detail: "ignored" }, "answered 404: No intake 1001"],
    [{ detail: [{ loc: ["path"], msg: "x" }] }, "answered 404 Not Found"],
  ])("%j → %s", async (body, said) => {
    const api = scriptedTransport().route("GET /v2/intake/1001", faults.json(404, body));
    expectErrorLine(await run(["intake", "show", "1001"], api), 6, said);
  });
});
