/**
 * Malformed input on every endpoint: always a 4xx JSON error with a message, never a 5xx,
 * and the intakes unchanged. Properties with fast-check plus a table of hand-picked cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEED_INTAKES } from "../../src/sandbox/seed.js";
import { fuzzRuns } from "../helpers/fuzz.js";
import { fetchJson, withSandbox, type JsonAnswer } from "../helpers/sandbox.js";
import { imageForm, JPEG, type Json, codeFor } from "./fixtures.js";

const sb = withSandbox();

const allIntakes = () => SEED_INTAKES.map((seed) => sb.handle.intake(seed.imageId));

function expectClientError(answer: JsonAnswer<Json>, context: unknown) {
  if (answer.status < 400 || answer.status > 499)
    throw new Error(`expected a 4xx for ${JSON.stringify(context)}, got ${answer.status} ${answer.text}`);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ message: expect.any(String), code: codeFor(answer.status) });
  expect(answer.body.message.length).toBeGreaterThan(0);
}

const JSON_ROUTES = [
  "/v2/nutrition/confirm/quantity",
  "/v2/image/confirm/dish",
  "/v2/nutrition/recipe/ingredients",
  "/v2/nutrition/recipe/nutritionalInfo",
] as const;

describe("hand-picked malformed requests", () => {
  const rawBodies: Array<[string, string, string | undefined]> = [
    ["bad JSON", '{"imageId": 1002,', "application/json"],
    ["an empty JSON body", "", "application/json"],
    ["a JSON string", '"hello"', "application/json"],
    ["a JSON number", "1002", "application/json"],
    ["JSON null", "null", "application/json"],
    ["a JSON array", "[1002]", "application/json"],
    ["NaN", '{"imageId": NaN}', "application/json"],
    ["a __proto__ key", '{"imageId": 1002, "__proto__": {"admin": true}}', "application/json"],
    ["a constructor.prototype key", '{"imageId": 1002, "constructor": {"prototype": {}}}', "application/json"],
    ["text/plain", '{"imageId": 1002}', "text/plain"],
    ["form-urlencoded", "imageId=1002", "application/x-www-form-urlencoded"],
    ["an image content type", "xxxx", "image/jpeg"],
    ["a malformed content type", '{"imageId": 1002}', "application/"],
    ["huge numbers written literally", '{"imageId": 1e400, "quantity": 1e400}', "application/json"],
    ["a huge integer id", '{"imageId": 123456789012345678901234567890}', "application/json"],
    ["deeply nested JSON", `{"imageId": ${"[".repeat(500)}1002${"]".repeat(500)}}`, "application/json"],
  ];
  for (const route of JSON_ROUTES) {
    for (const [label, body, contentType] of rawBodies) {
      it(`${route} with ${label} → 4xx and nothing changes`, async () => {
        const before = allIntakes();
        const answer = await fetchJson(sb.handle, "POST", route, { as: "alice", rawBody: body, contentType });
        expectClientError(answer, { route, label });
        expect(allIntakes()).toEqual(before);
      });
    }
    it(`${route} with a multipart body → 415`, async () => {
      const answer = await fetchJson(sb.handle, "POST", route, { as: "alice", rawBody: imageForm(JPEG) });
      expectClientError(answer, route);
      expect(answer.status).toBe(415);
    });
    it(`${route} with a body over 1 MiB → 413`, async () => {
      const body = JSON.stringify({ imageId: 1002, padding: "x".repeat(1_100_000) });
      const answer = await fetchJson(sb.handle, "POST", route, { as: "alice", rawBody: body, contentType: "application/json" });
      expect(answer.status).toBe(413);
      expectClientError(answer, route);
    });
  }

  it("no Content-Type with a body → 415", async () => {
    const response = await fetch(`${sb.handle.url}/v2/nutrition/confirm/quantity`, {
      method: "POST",
      headers: { authorization: `Bearer ${sb.handle.tokenFor("alice")}` },
      body: new Uint8Array(Buffer.from('{"imageId":1002}')),
    });
    expect(response.status).toBe(415);
  });

  it("a POST without any body → 400", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", { as: "alice" });
    expectClientError(answer, "no body");
  });
});

describe("properties", () => {
  it("any JSON value as body on any JSON route gives a 4xx or 200, and a refused one changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...JSON_ROUTES), fc.jsonValue(), async (route, body) => {
        const before = allIntakes();
        const answer = await fetchJson(sb.handle, "POST", route, {
          as: "alice",
          rawBody: JSON.stringify(body),
          contentType: "application/json",
        });
        if (answer.status !== 200) {
          expectClientError(answer, { route, body });
          expect(allIntakes()).toEqual(before);
        }
      }),
      { numRuns: fuzzRuns(50) },
    );
  });

  it("any text as a JSON body gives a 4xx or 200, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
          as: "alice",
          rawBody: text,
          contentType: "application/json",
        });
        if (answer.status !== 200) expectClientError(answer, text);
      }),
      { numRuns: fuzzRuns(30) },
    );
  });

  const positionKey = fc.constantFrom("1", "2", "3", "manual1", "manual2", "9", "0", "x", "__proto__", "constructor", "");
  const anyValue = fc.oneof(
    fc.double(),
    fc.integer({ min: -10, max: 200_000 }),
    fc.constantFrom("none", "low", "medium", "high", "metric", "imperial", "HIGH", ""),
    fc.string({ maxLength: 5 }),
    fc.constant(null),
    fc.boolean(),
  );
  const field = fc.option(fc.oneof(anyValue, fc.dictionary(positionKey, anyValue, { maxKeys: 3 })), { nil: undefined });
  const updateBody = fc.record(
    {
      imageId: fc.constantFrom(1001, 1002, 1003, 1004, 1005, 2002, 3001, 0, -1, 1.5),
      quantity: field,
      salt: field,
      sugar: field,
      oil: field,
      measures: field,
    },
    { requiredKeys: ["imageId"] },
  );

  it("random update bodies: refused ones change nothing; accepted ones leave consistent intakes", async () => {
    await fc.assert(
      fc.asyncProperty(updateBody, async (body) => {
        const before = sb.handle.intake(body.imageId);
        const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body });
        if (answer.status !== 200) {
          expectClientError(answer, body);
          expect(sb.handle.intake(body.imageId)).toEqual(before);
          return;
        }
        const intake = sb.handle.intake(body.imageId) as Json;
        const portions = intake.recipe_per_item ?? [{ serving_size: intake.serving_size, recipe: intake.recipe }];
        for (const portion of portions) {
          expect(portion.serving_size).toBeGreaterThan(0);
          const sum = portion.recipe.reduce((total: number, component: Json) => total + component.weight, 0);
          expect(Math.abs(sum - portion.serving_size)).toBeLessThan(0.01 * portion.recipe.length + 1e-6);
        }
        expect(Number.isFinite(intake.nutritional_info.calories)).toBe(true);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });

  it("random query strings and ids never give a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("user_id", "date_from", "date_to", "image_id", "x"),
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 12 }),
        async (name, value, id) => {
          const list = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "dave", query: { [name]: value } });
          if (list.status !== 200) expectClientError(list, { name, value });
          const one = await fetchJson(sb.handle, "GET", `/v2/intake/${encodeURIComponent(id)}`, { as: "alice", query: { [name]: value } });
          if (one.status !== 200) expectClientError(one, { id, name, value });
        },
      ),
      { numRuns: fuzzRuns(40) },
    );
  });

  it("random bytes as a display image never give a 5xx and never attach", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom("image", "file", "IMAGE"), async (bytes, fieldName) => {
        const before = sb.handle.intake(1003);
        const answer = await fetchJson(sb.handle, "POST", "/v2/intake/1003/display_image", {
          as: "alice",
          rawBody: imageForm(bytes, fieldName),
        });
        expectClientError(answer, { length: bytes.length, fieldName });
        expect(sb.handle.intake(1003)).toEqual(before);
      }),
      { numRuns: fuzzRuns(30) },
    );
  });

  it("random multipart bodies never give a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
        const answer = await fetchJson(sb.handle, "POST", "/v2/intake/1003/display_image", {
          as: "alice",
          rawBody: `--b\r\n${text}`,
          contentType: "multipart/form-data; boundary=b",
        });
        expectClientError(answer, text);
      }),
      { numRuns: fuzzRuns(30) },
    );
  });
});

describe("concurrency", () => {
  it("concurrent updates of one intake never interleave: each is applied whole and calculated once", async () => {
    const start = sb.handle.stats().nutrition_calculations;
    const quantities = Array.from({ length: 40 }, (_, i) => 100 + i);
    const answers = await Promise.all(
      quantities.map((grams, i) =>
        fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
          as: "erin",
          body: { imageId: 4001, quantity: { "1": grams, "2": grams }, salt: { "1": i % 2 ? "high" : "low", "2": i % 2 ? "high" : "low" } },
        }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(sb.handle.stats().nutrition_calculations - start).toBe(quantities.length);
    const intake = sb.handle.intake(4001) as Json;
    const [first, second] = intake.recipe_per_item;
    expect(first.serving_size).toBe(second.serving_size);
    expect(first.salt).toBe(second.salt);
    expect(first.salt).toBe((first.serving_size - 100) % 2 ? "high" : "low");
  });
});
