/**
 * What the public service's clients send (docs/api.md, bodies and model version): a numeric
 * string imageId, body fields the route does not use, the /v1.0 model version. The sandbox
 * accepts them as the service does and notes them in its log; `--strict` refuses them.
 */
import { describe, expect, it } from "vitest";
import { findDish } from "../../src/sandbox/seed.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";
import { getIntake, itemAt, type Json } from "./fixtures.js";

const log: string[] = [];

describe("accepted as the public service accepts them, and noted in the log", () => {
  const sb = withSandbox({ log: (line) => log.push(line) }, { perTest: true });
  const notes = () => log.filter((line) => line.startsWith("note: "));

  it("a numeric string imageId reads the intake it names, on every JSON route", async () => {
    log.length = 0;
    const bodies: Array<[string, Json]> = [
      ["/v2/nutrition/recipe/ingredients", { imageId: "1002" }],
      ["/v2/nutrition/recipe/nutritionalInfo", { imageId: "1002" }],
      ["/v2/nutrition/confirm/quantity", { imageId: "1002", quantity: { "1": 175 } }],
      ["/v2/image/confirm/dish", { imageId: "1002", confirmedClass: [513], food_item_position: [2] }],
    ];
    for (const [path, body] of bodies) {
      const answer = await fetchJson(sb.handle, "POST", path, { as: "alice", body });
      expect([path, answer.status, answer.body.imageId]).toEqual([path, 200, 1002]);
    }
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 1).serving_size).toBe(175);
    expect(notes()).toHaveLength(4);
    expect(notes()[0]).toBe(
      'note: POST /v2/nutrition/recipe/ingredients: imageId given as the string "1002", read as 1002 (--strict refuses it)',
    );
  });

  it("a string that is not a positive whole number is still a 400 (code 1401), and nothing changes", async () => {
    const before = sb.handle.intake(1002);
    for (const imageId of ["1002a", "", " 1002", "01002", "1e3", "-1002", "1002.0"]) {
      const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
        as: "alice",
        body: { imageId, quantity: { "1": 99 } },
      });
      expect([imageId, answer.status, answer.body.code]).toEqual([imageId, 400, 1401]);
    }
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("fields a route does not use are ignored, and the log names them", async () => {
    log.length = 0;
    const info = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo", {
      as: "alice",
      body: { imageId: 1002, class_id: 481, source: "logmeal", food_item_position: [1] },
    });
    expect(info.status).toBe(200);
    expect(info.body.ids).toEqual([513, 514, 503]);
    const update = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
      as: "alice",
      body: { imageId: 1002, quantity: { "2": 60 }, ingredients_per_item: [{ id: 1 }], food_item_position: [2] },
    });
    expect(update.status).toBe(200);
    expect(itemAt(await getIntake(sb.handle, 1002, "alice"), 2).serving_size).toBe(60);
    expect(notes()).toEqual([
      "note: POST /v2/nutrition/recipe/nutritionalInfo: ignored body fields this route does not use: class_id, source, food_item_position (--strict refuses them)",
      "note: POST /v2/nutrition/confirm/quantity: ignored body fields this route does not use: ingredients_per_item, food_item_position (--strict refuses them)",
    ]);
  });

  it("an ignored field never reaches the route: a field named like an update field of another route changes nothing", async () => {
    const before = sb.handle.intake(1002);
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", {
      as: "alice",
      body: { imageId: 1002, quantity: { "1": 5 }, confirmedClass: [501] },
    });
    expect(answer.status).toBe(200);
    expect(sb.handle.intake(1002)).toEqual(before);
    expect(sb.handle.stats().nutrition_calculations).toBe(0);
  });

  it("keys that name an object's machinery are still refused by name (code 1402)", async () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", {
        as: "alice",
        rawBody: `{"imageId": 1002, "${key}": {"quantity": 1}}`,
        contentType: "application/json",
      });
      expect([key, answer.status, answer.body]).toEqual([
        key,
        400,
        { message: expect.stringContaining(`unknown field "${key}"`), code: 1402 },
      ]);
    }
  });
});

describe("the model version /v1.0", () => {
  const sb = withSandbox({}, { perTest: true });

  it("recipe/ingredients, recipe/nutritionalInfo and image/confirm/dish answer with /v1.0 as without it", async () => {
    for (const path of ["/v2/nutrition/recipe/ingredients", "/v2/nutrition/recipe/nutritionalInfo"]) {
      const plain = await fetchJson(sb.handle, "POST", path, { as: "alice", body: { imageId: 1003 } });
      const versioned = await fetchJson(sb.handle, "POST", `${path}/v1.0`, {
        as: "alice",
        body: { imageId: 1003 },
        query: { language: "eng" },
      });
      expect([path, versioned.status, versioned.body]).toEqual([path, 200, plain.body]);
    }
    const dish = await fetchJson(sb.handle, "POST", "/v2/image/confirm/dish/v1.0", {
      as: "carol",
      body: { imageId: 3002, confirmedClass: [506], food_item_position: [1] },
    });
    expect(dish.status).toBe(200);
    expect(itemAt(await getIntake(sb.handle, 3002, "carol"), 1).name).toBe(findDish(506)!.name);
    expect(sb.handle.stats().requests["POST /v2/image/confirm/dish/v1.0"]).toBe(1);
  });

  it("another version, or /v1.0 on a route that has none, is an unknown path (404, code 1302); a wrong method is a 405", async () => {
    const cases: Array<[string, string, number, number]> = [
      ["POST", "/v2/nutrition/recipe/ingredients/v1.1", 404, 1302],
      ["POST", "/v2/nutrition/confirm/quantity/v1.0", 404, 1302],
      ["GET", "/v2/intake/1001/v1.0", 404, 1302],
      ["GET", "/v2/nutrition/recipe/nutritionalInfo/v1.0", 405, 1303],
    ];
    for (const [method, path, status, code] of cases) {
      const answer = await fetchJson(sb.handle, method, path, { as: "alice", ...(method === "POST" ? { body: { imageId: 1001 } } : {}) });
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, status, code]);
    }
  });
});

describe("--strict: the client checked against the documented interface", () => {
  const sb = withSandbox({ strict: true, log: (line) => log.push(line) }, { perTest: true });

  it("refuses a field the route does not use (400, code 1402), names it, and changes nothing", async () => {
    const before = sb.handle.intake(1002);
    const cases: Array<[string, Json, string]> = [
      ["/v2/nutrition/recipe/nutritionalInfo", { imageId: 1002, class_id: 481 }, "class_id"],
      ["/v2/nutrition/recipe/ingredients/v1.0", { imageId: 1002, ingredients_per_item: [] }, "ingredients_per_item"],
      ["/v2/nutrition/confirm/quantity", { imageId: 1002, quantity: { "1": 70 }, food_item_position: [1] }, "food_item_position"],
      ["/v2/image/confirm/dish", { imageId: 1002, confirmedClass: [513], food_item_position: [2], source: "logmeal" }, "source"],
    ];
    for (const [path, body, field] of cases) {
      const answer = await fetchJson(sb.handle, "POST", path, { as: "alice", body });
      expect([path, answer.status, answer.body]).toEqual([
        path,
        400,
        { message: expect.stringMatching(new RegExp(`^unknown field "${field}" .*--strict`)), code: 1402 },
      ]);
    }
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("refuses a string imageId (400, code 1401) and says to send a number", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", { as: "alice", body: { imageId: "1002" } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'imageId must be a positive integer, not "1002" (this sandbox runs with --strict: send a number)',
      code: 1401,
    });
  });

  it("still accepts what the documentation names: integer ids, the update fields, /v1.0, language", async () => {
    log.length = 0;
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo/v1.0", {
      as: "alice",
      body: { imageId: 1002 },
      query: { language: "eng" },
    });
    expect(answer.status).toBe(200);
    expect(
      (await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body: { imageId: 1002, salt: { "1": "low" } } }))
        .status,
    ).toBe(200);
    expect(log.filter((line) => line.startsWith("note: "))).toEqual([]);
  });
});

/** What a replayed request relies on beyond the documented interface; none: it worked before too. */
type Leniency = "string id" | "unused field";
type Reads = (body: Json) => unknown;

interface Replay {
  method: "GET" | "POST";
  path: string;
  body?: Json;
  needs?: Leniency;
  /** What the client reads from the answer: each must be there, with the type it expects. */
  reads: Array<[string, Reads, "number" | "string" | "object" | "boolean"]>;
}

const nutritionalInfo = "/v2/nutrition/recipe/nutritionalInfo";
const ingredients = "/v2/nutrition/recipe/ingredients";
const confirmDish = "/v2/image/confirm/dish";
const confirmQuantity = "/v2/nutrition/confirm/quantity";

/**
 * Requests in the shape public clients of the service send them (alice's token, her intakes):
 * string ids, fields a route does not use, the /v1.0 model version, `?language=`, and the
 * fields they read back, such as a top-level serving_size and dailyIntakeReference percents.
 */
const REPLAYS: Replay[] = [
  { method: "POST", path: nutritionalInfo, body: { imageId: 1001 }, reads: [["calories", (b) => b.nutritional_info.calories, "number"]] },
  {
    method: "POST",
    path: `${nutritionalInfo}?language=eng`,
    body: { imageId: 1002 },
    reads: [["protein", (b) => b.nutritional_info.totalNutrients.PROCNT.quantity, "number"]],
  },
  {
    method: "POST",
    path: `${nutritionalInfo}/v1.0`,
    body: { imageId: 1002 },
    reads: [["carbs", (b) => b.nutritional_info.totalNutrients.CHOCDF.quantity, "number"]],
  },
  {
    method: "POST",
    path: `${nutritionalInfo}/v1.0?language=spa`,
    body: { imageId: 1001 },
    reads: [["first name", (b) => b.foodName[0], "string"]],
  },
  { method: "POST", path: nutritionalInfo, body: { imageId: "1002" }, needs: "string id", reads: [["ids", (b) => b.ids, "object"]] },
  {
    method: "POST",
    path: `${nutritionalInfo}/v1.0`,
    body: { imageId: 1002, class_id: 481 },
    needs: "unused field",
    reads: [["calories", (b) => b.nutritional_info.calories, "number"]],
  },
  { method: "POST", path: nutritionalInfo, body: { imageId: 1001 }, reads: [["serving size", (b) => b.serving_size, "number"]] },
  {
    method: "POST",
    path: `${nutritionalInfo}/v1.0`,
    body: { imageId: 1002 },
    reads: [
      ["fat %", (b) => b.nutritional_info.dailyIntakeReference.FAT.percent, "number"],
      ["carbs %", (b) => b.nutritional_info.dailyIntakeReference.CHOCDF.percent, "number"],
      ["protein %", (b) => b.nutritional_info.dailyIntakeReference.PROCNT.percent, "number"],
    ],
  },
  {
    method: "POST",
    path: nutritionalInfo,
    body: { imageId: 1003 },
    reads: [["item calories", (b) => b.nutritional_info_per_item[0].nutritional_info.calories, "number"]],
  },
  {
    method: "POST",
    path: `${nutritionalInfo}?language=eng`,
    body: { imageId: 1002 },
    reads: [
      ["highlight label", (b) => Object.values(b.nutritional_info.dailyIntakeReference as Record<string, Json>)[0].label, "string"],
      ["highlight level", (b) => Object.values(b.nutritional_info.dailyIntakeReference as Record<string, Json>)[0].level, "string"],
    ],
  },
  {
    method: "POST",
    path: nutritionalInfo,
    body: { imageId: "1004" },
    needs: "string id",
    reads: [["has info", (b) => b.hasNutritionalInfo, "boolean"]],
  },
  { method: "POST", path: ingredients, body: { imageId: 1001 }, reads: [["recipe", (b) => b.recipe, "object"]] },
  {
    method: "POST",
    path: `${ingredients}/v1.0?language=eng`,
    body: { imageId: 1002 },
    reads: [["first item's recipe", (b) => b.recipe_per_item[0].recipe, "object"]],
  },
  {
    method: "POST",
    path: `${ingredients}/v1.0`,
    body: { imageId: "1003" },
    needs: "string id",
    reads: [["items", (b) => b.recipe_per_item, "object"]],
  },
  {
    method: "POST",
    path: ingredients,
    body: { imageId: 1002, ingredients_per_item: true },
    needs: "unused field",
    reads: [["first ingredient", (b) => b.recipe_per_item[0].recipe[0].name, "string"]],
  },
  { method: "POST", path: ingredients, body: { imageId: 1001 }, reads: [["serving size", (b) => b.serving_size, "number"]] },
  {
    method: "POST",
    path: confirmDish,
    body: { imageId: 1002, confirmedClass: [513], food_item_position: [1] },
    reads: [["message", (b) => b.message, "string"]],
  },
  {
    method: "POST",
    path: `${confirmDish}/v1.0?language=eng`,
    body: { imageId: 1001, confirmedClass: [509] },
    reads: [["id", (b) => b.imageId, "number"]],
  },
  {
    method: "POST",
    path: `${confirmDish}/v1.0`,
    body: { imageId: 1002, confirmedClass: [514], food_item_position: [2], source: ["logmeal", "other"] },
    needs: "unused field",
    reads: [["id", (b) => b.imageId, "number"]],
  },
  {
    method: "POST",
    path: confirmDish,
    body: { imageId: "1003", confirmedClass: [501], food_item_position: ["manual1"] },
    needs: "string id",
    reads: [["id", (b) => b.imageId, "number"]],
  },
  { method: "POST", path: confirmQuantity, body: { imageId: 1001, quantity: 300 }, reads: [["message", (b) => b.message, "string"]] },
  { method: "POST", path: confirmQuantity, body: { imageId: 1002, quantity: { "1": 150 } }, reads: [["id", (b) => b.imageId, "number"]] },
  {
    method: "POST",
    path: confirmQuantity,
    body: { imageId: "1002", quantity: { "2": 80 } },
    needs: "string id",
    reads: [["id", (b) => b.imageId, "number"]],
  },
  {
    method: "POST",
    path: confirmQuantity,
    body: { imageId: 1003, quantity: { manual1: 120 }, food_item_position: ["manual1"] },
    needs: "unused field",
    reads: [["id", (b) => b.imageId, "number"]],
  },
  {
    method: "POST",
    path: `${confirmQuantity}?language=eng`,
    body: { imageId: 1003, salt: { manual1: "low" } },
    reads: [["message", (b) => b.message, "string"]],
  },
  { method: "GET", path: "/v2/intake/1002", reads: [["serving size", (b) => b.intake_info.serving_size, "number"]] },
  {
    method: "GET",
    path: "/v2/history/getIntakesList?date_from=2026%2F11%2F01%2C%2000%3A00%3A00&date_to=2026%2F11%2F30%2C%2023%3A59%3A59",
    reads: [["first intake", (b) => b.intakes_list[0].image_id, "number"]],
  },
  {
    method: "GET",
    path: "/v2/intake/1001?language=eng",
    reads: [["energy %", (b) => b.intake_info.nutritional_info.dailyIntakeReference.ENERC_KCAL.percent, "number"]],
  },
];

async function replay(handle: Parameters<typeof fetchJson>[0], request: Replay) {
  const answer = await fetchJson(handle, request.method, request.path, {
    as: "alice",
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const reads = request.reads.map(([name, read]) => {
    try {
      return [name, typeof read(answer.body)];
    } catch {
      return [name, "missing"];
    }
  });
  return { status: answer.status, code: answer.body?.code as number | undefined, reads };
}

const expected = (request: Replay) => request.reads.map(([name, , type]) => [name, type]);
const label = (request: Replay) => `${request.method} ${request.path} ${JSON.stringify(request.body ?? null)}`;

describe("replay: requests public clients send, answered as they expect", () => {
  it("the table holds 28 requests, over every route clients send to and each leniency", () => {
    expect(REPLAYS).toHaveLength(28);
    expect(new Set(REPLAYS.map((request) => request.needs)).size).toBe(3);
    expect(REPLAYS.filter((request) => request.path.includes("/v1.0"))).toHaveLength(8);
  });

  describe("the sandbox as started by default", () => {
    const sb = withSandbox();
    for (const [index, request] of REPLAYS.entries()) {
      it(`#${index + 1} ${label(request)} → 200 with what the client reads`, async () => {
        const answer = await replay(sb.handle, request);
        expect({ status: answer.status, reads: answer.reads }).toEqual({ status: 200, reads: expected(request) });
      });
    }
  });

  describe("--strict: exactly the requests that rely on a leniency are refused", () => {
    const sb = withSandbox({ strict: true });
    for (const [index, request] of REPLAYS.entries()) {
      const outcome = request.needs === undefined ? "200" : `400 (${request.needs})`;
      it(`#${index + 1} ${label(request)} → ${outcome}`, async () => {
        const answer = await replay(sb.handle, request);
        if (request.needs === undefined) expect(answer.status).toBe(200);
        else expect([answer.status, answer.code]).toEqual([400, request.needs === "string id" ? 1401 : 1402]);
      });
    }
  });
});
