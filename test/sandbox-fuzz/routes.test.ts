/**
 * Property-based robustness of the sandbox over real HTTP: random JSON values, random objects
 * with the update field names, random strings and bytes, random queries and random multipart
 * payloads at every route, with valid tokens. Never a 5xx; every 4xx is a JSON error with a
 * message; and a rejected request leaves every intake exactly as it was.
 * Seeded and bounded (a few dozen runs per route; `FOODCTL_FUZZ_RUNS` for more, test/README.md),
 * so a failure replays the same way.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";
import { TINY_PNG } from "../faults/fixtures.js";
import { fuzzRuns } from "../helpers/fuzz.js";
import { CODES_BY_STATUS } from "../sandbox/fixtures.js";

const RUNS = fuzzRuns(50);
const SEED = 20261121;
const INTAKE_IDS = [1001, 1002, 1003, 1004, 1005, 2001, 2002, 2003, 3001, 3002, 4001, 4002];

let sandbox: SandboxHandle;
let tokens: string[];
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
/** The intakes as they were after the last accepted request. */
let snapshot = "";

function takeSnapshot(): string {
  return JSON.stringify(INTAKE_IDS.map((id) => sandbox.intake(id)));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  tokens = [sandbox.tokenFor("alice"), sandbox.tokenFor("alice"), sandbox.tokenFor("acme"), sandbox.tokenFor("dave")];
  expect(INTAKE_IDS.every((id) => sandbox.intake(id) !== undefined)).toBe(true);
  snapshot = takeSnapshot();
});
afterAll(async () => {
  agent.destroy();
  await sandbox?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(sandbox.url);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: body ? { ...headers, "content-length": String(body.byteLength) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** Answers of the current test, so a property that only ever hit one outcome is noticed. */
let outcomes = { accepted: 0, rejected: 0 };
beforeEach(() => {
  outcomes = { accepted: 0, rejected: 0 };
});
/** The random input reached both sides: some requests accepted, some refused. */
function expectBothOutcomes(): void {
  expect(outcomes.accepted, "no request was accepted: the generators never get past validation").toBeGreaterThan(0);
  expect(outcomes.rejected, "no request was rejected").toBeGreaterThan(0);
}

/** The invariants every answer must keep. */
function check(answer: Answer, what: string): void {
  if (answer.status >= 400) outcomes.rejected++;
  else outcomes.accepted++;
  expect(answer.status, `${what} → ${answer.status} ${answer.body}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
    const parsed = JSON.parse(answer.body) as { message?: unknown; code?: unknown };
    expect(typeof parsed.message, `${what} → ${answer.body}`).toBe("string");
    expect((parsed.message as string).length).toBeGreaterThan(0);
    expect(CODES_BY_STATUS[answer.status] ?? [], what).toContain(parsed.code);
    const now = takeSnapshot();
    if (now !== snapshot) {
      // Show which intake changed.
      expect(JSON.parse(now), `${what} was rejected with ${answer.status} but changed an intake`).toEqual(JSON.parse(snapshot));
    }
  } else {
    snapshot = takeSnapshot();
  }
}

// ---- generators ----

/** Mostly the seeded ids (so requests get past the id checks), sometimes anything. */
const ids = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...INTAKE_IDS) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 99999, 2 ** 53, 1e21) },
  { weight: 1, arbitrary: fc.integer() },
);
const idText = fc.oneof(
  { weight: 6, arbitrary: ids.map(String) },
  { weight: 1, arbitrary: fc.constantFrom("01002", "1002abc", "+1002", "1e3", "%00", "..", "%2F1002", "null", "", "%201002", "1002%20") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
);

const userId = fc.constantFrom("101", "102", "103", "104", "201", "301", "0", "-1", "1e2", "101.0", "");
const queryValue = fc.oneof(
  userId,
  fc.constantFrom("2026/11/03, 08:00:00", "2026/02/30, 00:00:00", "2026-11-03", "2026/11/01, 00:00:00", "2026/12/31, 23:59:59"),
  fc.string({ maxLength: 20 }),
);
const queryPairs = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Array<[string, string]>>([]) },
  { weight: 3, arbitrary: userId.map((id): Array<[string, string]> => [["user_id", id]]) },
  // The history list requires both dates; language is accepted everywhere.
  {
    weight: 2,
    arbitrary: fc.subarray<[string, string]>([
      ["date_from", "2026/11/01, 00:00:00"],
      ["date_to", "2026/12/31, 23:59:59"],
      ["language", "tur"],
    ]),
  },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom("user_id", "date_from", "date_to"), fc.constantFrom("imageId", "user_id"), fc.string({ maxLength: 8 })),
        queryValue,
      ),
      {
        maxLength: 3,
      },
    ),
  },
);
const query = queryPairs.map((pairs) => {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) params.append(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
});

const positionKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("1", "2", "3", "manual1", "manual2") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "4",
      "manual3",
      "0",
      "-1",
      "01",
      "1.5",
      "manual0",
      "manual",
      "Manual1",
      "constructor",
      "toString",
      "hasOwnProperty",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const level = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("none", "low", "medium", "high") },
  { weight: 1, arbitrary: fc.constantFrom("LOW", "", "extreme", "metric", "imperial") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);
const measures = fc.oneof({ weight: 4, arbitrary: fc.constantFrom("metric", "imperial") }, { weight: 1, arbitrary: level });
const quantity = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 2000 }) },
  { weight: 2, arbitrary: fc.double({ min: -10, max: 5000, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, -5, 1e308, 5e-324, 0.1, 80.5, "150", null, true, [150], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);
const perItem = <T>(value: fc.Arbitrary<T>) => fc.dictionary(positionKey, value, { minKeys: 1, maxKeys: 3 });
const scalarOrPerItem = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 1, arbitrary: value }, { weight: 2, arbitrary: perItem(value) });
const updateFields = {
  quantity: scalarOrPerItem(quantity),
  salt: scalarOrPerItem(level),
  sugar: scalarOrPerItem(level),
  oil: scalarOrPerItem(level),
  measures: scalarOrPerItem(measures),
};
const updateObject = fc.record({ imageId: ids, ...updateFields }, { requiredKeys: ["imageId"] });
const dishObject = fc.record(
  {
    imageId: ids,
    confirmedClass: fc.oneof(
      { weight: 4, arbitrary: fc.array(fc.integer({ min: 499, max: 516 }), { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    food_item_position: fc.oneof(
      { weight: 4, arbitrary: fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), positionKey), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    ...updateFields,
  },
  { requiredKeys: ["imageId"] },
);

/** alice's intakes and their positions (null: recognition-only), for requests that should pass. */
const ALICE_INTAKES: Record<number, string[] | null> = {
  1001: null,
  1002: ["1", "2", "3"],
  1003: ["manual1", "manual2"],
  1004: ["manual1"],
  1005: ["manual1"],
};
const validLevel = fc.constantFrom("none", "low", "medium", "high");
const someOf = <T>(keys: string[], value: fc.Arbitrary<T>) =>
  fc.dictionary(fc.constantFrom(...keys), value, { minKeys: 1, maxKeys: keys.length });
/** Valid fields for the intake, then at most one field replaced by something random. */
const mutation = fc.option(
  fc.tuple(
    fc.constantFrom("quantity", "salt", "sugar", "oil", "measures", "imageId", "extra"),
    fc.oneof(quantity, level, perItem(quantity), perItem(level), fc.jsonValue({ maxDepth: 2 })),
  ),
  { freq: 2 },
);
function mutate(body: Record<string, unknown>, change: [string, unknown] | null): Record<string, unknown> {
  if (change === null) return body;
  return { ...body, [change[0]]: change[1] };
}
const nearValidUpdate = fc.constantFrom(1001, 1002, 1003, 1004, 1005).chain((imageId) => {
  const positions = ALICE_INTAKES[imageId]!;
  const fields =
    positions === null
      ? fc.record({ quantity: fc.integer({ min: 1, max: 1500 }), salt: validLevel, sugar: validLevel }, { requiredKeys: [] })
      : fc.record(
          {
            quantity: someOf(positions, fc.double({ min: 0.5, max: 1500, noNaN: true })),
            salt: someOf(positions, validLevel),
            sugar: someOf(positions, validLevel),
            oil: someOf(positions, validLevel),
            measures: someOf(positions, fc.constantFrom("metric", "imperial")),
          },
          { requiredKeys: [] },
        );
  return fc.tuple(fields, mutation).map(([valid, change]) => mutate({ imageId, ...valid }, change));
});
const nearValidDish = fc.constantFrom(1001, 1002, 1003, 1004, 1005).chain((imageId) => {
  const positions = ALICE_INTAKES[imageId]!;
  const confirm =
    positions === null
      ? fc.integer({ min: 501, max: 514 }).map((dish) => ({ confirmedClass: [dish] }))
      : fc
          .subarray(positions, { minLength: 1 })
          .chain((chosen) =>
            fc
              .array(fc.integer({ min: 501, max: 514 }), { minLength: chosen.length, maxLength: chosen.length })
              .map((dishes) => ({ confirmedClass: dishes, food_item_position: chosen })),
          );
  return fc.tuple(confirm, mutation).map(([valid, change]) => mutate({ imageId, ...valid }, change));
});

const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/octet-stream",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "",
);

/** A body as bytes with its content type. */
const jsonBody = (object: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: object.map((value) => ({ type: "application/json", bytes: Buffer.from(JSON.stringify(value) ?? "null") })) },
    {
      weight: 2,
      arbitrary: fc.jsonValue().map((value) => ({ type: "application/json", bytes: Buffer.from(JSON.stringify(value) ?? "null") })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(contentType, fc.string({ maxLength: 300 })).map(([type, text]) => ({ type, bytes: Buffer.from(text) })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(contentType, fc.uint8Array({ maxLength: 300 })).map(([type, bytes]) => ({ type, bytes: Buffer.from(bytes) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{"imageId": 1002, "__proto__": {"quantity": 5}}',
          '{"imageId": 1002, "constructor": {"prototype": {"x": 1}}}',
          '{"imageId": 1002, "quantity": {"1": 150}, "quantity": {"1": -1}}',
          '{"imageId": 1002, "quantity": {"1": 1e999}}',
          '{"imageId": 1002, "quantity": {"1": 150}',
          "",
          "null",
          "[]",
          '"x"',
        )
        .map((text) => ({ type: "application/json", bytes: Buffer.from(text) })),
    },
  );

const filePart = fc.record({
  field: fc.oneof(
    { weight: 5, arbitrary: fc.constant("image") },
    { weight: 1, arbitrary: fc.constantFrom("file", "other", "", 'image"; x="1', "__proto__") },
  ),
  filename: fc.option(fc.constantFrom("photo.png", "x.jpg", "", "../../etc/passwd", "a\u0000b.png"), { nil: undefined }),
  type: fc.option(fc.constantFrom("image/png", "image/jpeg", "text/plain", "application/octet-stream"), { nil: undefined }),
  content: fc.oneof(
    fc.constant(TINY_PNG),
    fc.constant(TINY_PNG),
    fc.constant(TINY_PNG.subarray(0, 20)),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ maxLength: 100 }).map((text) => Buffer.from(text)),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.from(bytes)])),
  ),
});
const multipartBody = fc
  .record({
    parts: fc.oneof(
      { weight: 3, arbitrary: fc.array(filePart, { minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.array(filePart, { maxLength: 4 }) },
    ),
    boundary: fc.constantFrom("fuzzBoundary", "----x", "a"),
    breakage: fc.constantFrom(
      "none",
      "none",
      "none",
      "no-closing",
      "header-boundary-differs",
      "no-boundary-param",
      "garbage-after",
      "no-part-headers",
    ),
  })
  .map(({ parts, boundary, breakage }) => {
    const chunks: Buffer[] = [];
    for (const part of parts) {
      chunks.push(Buffer.from(`--${boundary}\r\n`));
      if (breakage !== "no-part-headers") {
        const disposition = `form-data; name="${part.field}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
        chunks.push(Buffer.from(`Content-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}`));
      }
      chunks.push(Buffer.from("\r\n"), part.content, Buffer.from("\r\n"));
    }
    if (breakage !== "no-closing") chunks.push(Buffer.from(`--${boundary}--\r\n`));
    if (breakage === "garbage-after") chunks.push(Buffer.from("trailing garbage\r\n"));
    const headerBoundary = breakage === "header-boundary-differs" ? "other" : boundary;
    const type = breakage === "no-boundary-param" ? "multipart/form-data" : `multipart/form-data; boundary=${headerBoundary}`;
    return { type, bytes: Buffer.concat(chunks) };
  });

/** An index, not the token itself, so a counterexample never prints a token. */
const token = fc.nat({ max: 3 });
const aliceToken = fc.constantFrom(0, 1);

/** A request that should pass (alice, no query), for the routes random input rarely gets through. */
const nearValidRecipe = fc
  .record({ imageId: fc.constantFrom(1001, 1002, 1003, 1004, 1005), extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ["imageId"] })
  .map((value) => ({ type: "application/json", bytes: Buffer.from(JSON.stringify(value)) }));
const nearValidUpload = fc
  .record({
    filename: fc.constantFrom("photo.png", "x.jpg", "../../etc/passwd"),
    type: fc.option(fc.constantFrom("image/png", "image/jpeg", "application/octet-stream"), { nil: undefined }),
  })
  .map(({ filename, type }) => {
    const headers = `Content-Disposition: form-data; name="image"; filename="${filename}"\r\n${type ? `Content-Type: ${type}\r\n` : ""}`;
    const bytes = Buffer.concat([Buffer.from(`--b\r\n${headers}\r\n`), TINY_PNG, Buffer.from("\r\n--b--\r\n")]);
    return { type: "multipart/form-data; boundary=b", bytes };
  });
const runOptions = { numRuns: RUNS, seed: SEED, endOnFailure: true };

// ---- properties ----

describe("sandbox routes under random input", () => {
  it("GET /v2/intake/{id}", async () => {
    await fc.assert(
      fc.asyncProperty(idText, query, token, async (id, q, bearer) => {
        const path = `/v2/intake/${id}${q}`;
        check(await send("GET", path, { authorization: `Bearer ${tokens[bearer]!}` }), `GET ${path}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("GET /v2/history/getIntakesList", async () => {
    await fc.assert(
      fc.asyncProperty(query, token, async (q, bearer) => {
        const path = `/v2/history/getIntakesList${q}`;
        check(await send("GET", path, { authorization: `Bearer ${tokens[bearer]!}` }), `GET ${path}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("POST /v2/nutrition/confirm/quantity", async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody(fc.oneof(updateObject, nearValidUpdate)), query, token, async (body, q, bearer) => {
        const path = `/v2/nutrition/confirm/quantity${q}`;
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[bearer]!}` };
        if (body.type) headers["content-type"] = body.type;
        check(await send("POST", path, headers, body.bytes), `POST ${path} ${body.type} ${body.bytes.toString("utf8").slice(0, 200)}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("POST /v2/image/confirm/dish", async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody(fc.oneof(dishObject, nearValidDish)), query, token, async (body, q, bearer) => {
        const path = `/v2/image/confirm/dish${q}`;
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[bearer]!}` };
        if (body.type) headers["content-type"] = body.type;
        check(await send("POST", path, headers, body.bytes), `POST ${path} ${body.bytes.toString("utf8").slice(0, 200)}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("POST /v2/nutrition/recipe/ingredients and recipe/nutritionalInfo", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("ingredients", "nutritionalInfo"),
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(
              jsonBody(fc.record({ imageId: ids, extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] })),
              query,
              token,
            ),
          },
          { weight: 1, arbitrary: fc.tuple(nearValidRecipe, fc.constant(""), aliceToken) },
        ),
        async (which, [body, q, bearer]) => {
          const path = `/v2/nutrition/recipe/${which}${q}`;
          const headers: Record<string, string> = { authorization: `Bearer ${tokens[bearer]!}` };
          if (body.type) headers["content-type"] = body.type;
          check(await send("POST", path, headers, body.bytes), `POST ${path} ${body.bytes.toString("utf8").slice(0, 200)}`);
        },
      ),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("POST /v2/intake/{id}/display_image with random multipart and other bodies", async () => {
    const body = fc.oneof({ weight: 3, arbitrary: multipartBody }, { weight: 1, arbitrary: jsonBody(fc.jsonValue()) });
    const target = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("1003", "1004", "1005", "1002", "2003", "3001") },
      { weight: 1, arbitrary: idText },
    );
    const request = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(target, body, query, token) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom("1003", "1004", "1005"), nearValidUpload, fc.constant(""), aliceToken) },
    );
    await fc.assert(
      fc.asyncProperty(request, async ([id, payload, q, bearer]) => {
        const path = `/v2/intake/${id}/display_image${q}`;
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[bearer]!}` };
        if (payload.type) headers["content-type"] = payload.type;
        check(await send("POST", path, headers, payload.bytes), `POST ${path} ${payload.type}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("DELETE /v2/intake/{id}/display_image", async () => {
    await fc.assert(
      fc.asyncProperty(idText, query, token, async (id, q, bearer) => {
        const path = `/v2/intake/${id}/display_image${q}`;
        check(await send("DELETE", path, { authorization: `Bearer ${tokens[bearer]!}` }), `DELETE ${path}`);
      }),
      runOptions,
    );
    expectBothOutcomes();
  });

  it("unknown paths, wrong methods and image names", async () => {
    const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    const path = fc.oneof(
      fc.constantFrom(
        "/v2/intake",
        "/v2/intake/",
        "/v2/nutrition/confirm/quantity",
        "/v2/intake/1003/display_image",
        "/v2/history/getIntakesList",
        "/v2",
        "/v3/intake/1002",
        "/images/",
        "/v2/intake/1002/extra",
      ),
      fc.string({ maxLength: 12 }).map((text) => `/v2/${encodeURIComponent(text)}`),
      fc.string({ maxLength: 12 }).map((text) => `/images/${encodeURIComponent(text)}`),
    );
    await fc.assert(
      fc.asyncProperty(method, path, query, token, jsonBody(updateObject), async (verb, where, q, bearer, body) => {
        const withBody = verb === "POST" || verb === "PUT" || verb === "PATCH";
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[bearer]!}` };
        if (withBody && body.type) headers["content-type"] = body.type;
        check(await send(verb, `${where}${q}`, headers, withBody ? body.bytes : undefined), `${verb} ${where}${q}`);
      }),
      runOptions,
    );
  });

  it("random authorization headers are 401 JSON errors and change nothing", async () => {
    const header = fc.oneof(
      fc.constantFrom("", "Bearer", "Bearer ", "Basic YWxpY2U6cGFzcw==", "bearer x.y.z"),
      fc.string({ maxLength: 40 }).map((text) => `Bearer ${text.replace(/[^\x21-\x7e]/g, "")}`),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(header, jsonBody(updateObject), async (auth, body) => {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (auth !== null) headers.authorization = auth;
        const answer = await send("POST", "/v2/nutrition/confirm/quantity", headers, body.bytes);
        check(answer, `POST with authorization ${JSON.stringify(auth)}`);
        expect(answer.status).toBe(401);
      }),
      runOptions,
    );
  });
});
