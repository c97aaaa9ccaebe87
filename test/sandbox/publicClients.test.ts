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
    expect(info.body.ids).toEqual([1002001, 1002002, 1002003]);
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
