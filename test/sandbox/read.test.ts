/** Reading: GET intake, the history list, the recipe endpoints, images, stats and the seed. */
import { describe, expect, it } from "vitest";
import { IntakeListResponseSchema, IntakeResponseSchema } from "../../src/records/intake.js";
import { readIntakeKind } from "../../src/intake/index.js";
import { SEED_INTAKES, SEED_USERS } from "../../src/sandbox/seed.js";
import { fetchJson, withSandbox, ALL_TIME } from "../helpers/sandbox.js";
import type { Json } from "./fixtures.js";

const sb = withSandbox();

const ownerName = (ownerId: number) => SEED_USERS.find((user) => user.id === ownerId)!.name;

describe("GET /v2/intake/{image_id}", () => {
  for (const seed of SEED_INTAKES) {
    it(`intake ${seed.imageId} (${seed.kind}) parses with IntakeSchema and equals the history list restricted to it`, async () => {
      const answer = await fetchJson(sb.handle, "GET", `/v2/intake/${seed.imageId}`, { as: ownerName(seed.owner) });
      expect(answer.status).toBe(200);
      expect(IntakeResponseSchema.safeParse(answer.body).success).toBe(true);
      const record = answer.body.intake_info;
      expect(readIntakeKind(record)).toBe(seed.kind);
      expect(record.can_edit_display_image).toBe(seed.kind === "manual");
      expect(record.has_display_image).toBe(seed.displayImage !== null);
      expect(record.timestamp).toBe(seed.timestamp);
      expect(record.occasion).toBe(seed.occasion);
      expect(record).toEqual(sb.handle.intake(seed.imageId));

      const list = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: ownerName(seed.owner), query: ALL_TIME });
      expect(list.body.intakes_list.filter((intake: Json) => intake.image_id === seed.imageId)).toEqual([record]);
    });
  }

  it("the seeded positions are as documented", async () => {
    const positions = (record: Json) => record.recipe_per_item?.map((item: Json) => item.food_item_position) ?? null;
    const expected: Record<number, unknown> = {
      1001: null,
      1002: [1, 2, 3],
      1003: ["manual1", "manual2"],
      1004: ["manual1"],
      1005: ["manual1"],
      2001: null,
      2002: [1, 2],
      2003: ["manual1", "manual2"],
      3001: ["manual1", "manual2"],
      3002: [1, 2],
      4001: [1, 2],
      4002: ["manual1"],
      4003: [1, 3],
    };
    for (const [imageId, list] of Object.entries(expected)) {
      expect([imageId, positions(sb.handle.intake(Number(imageId)))]).toEqual([imageId, list]);
    }
  });

  it("a recognition-only record has recipe, salt and sugar and no per-item fields", () => {
    const record = sb.handle.intake(1001) as Json;
    expect(record.recipe.length).toBeGreaterThanOrEqual(2);
    expect(record.recipe.every((c: Json) => c.unit === "g" && typeof c.weight === "number")).toBe(true);
    expect([record.salt, record.sugar]).toEqual(["medium", "none"]);
    expect(record.recipe_per_item).toBeUndefined();
    expect(record.nutritional_info_per_item).toBeUndefined();
  });

  it("the nutrition has the contract's nutrient codes and units", () => {
    const nutrition = (sb.handle.intake(1002) as Json).nutritional_info;
    expect(Object.keys(nutrition.totalNutrients).slice(0, 6)).toEqual(["ENERC_KCAL", "PROCNT", "FAT", "CHOCDF", "SUGAR", "NA"]);
    expect(nutrition.totalNutrients.ENERC_KCAL.unit).toBe("kcal");
    expect(nutrition.totalNutrients.NA.unit).toBe("mg");
    expect(nutrition.calories).toBeGreaterThan(0);
  });

  it("§5 nutrients: every intake's totalNutrients carries at least 12 codes with the public service's labels", () => {
    const extra = ["FIBTG", "FASAT", "FAMS", "FAPU", "CHOLE", "SUGAR.added", "K", "CA", "FE", "VITC"];
    for (const seed of SEED_INTAKES) {
      const record = sb.handle.intake(seed.imageId) as Json;
      const totals = record.nutritional_info.totalNutrients;
      expect(Object.keys(totals).length).toBeGreaterThanOrEqual(12);
      expect(Object.keys(totals)).toEqual(expect.arrayContaining(["ENERC_KCAL", "PROCNT", "FAT", "CHOCDF", "SUGAR", "NA", ...extra]));
      expect(totals.CHOCDF.label).toBe("Carbs");
      for (const item of record.nutritional_info_per_item ?? [])
        expect(Object.keys(item.nutritional_info.totalNutrients)).toEqual(Object.keys(totals));
    }
    const pizza = (sb.handle.intake(1001) as Json).nutritional_info.totalNutrients;
    expect(pizza.CA).toEqual({ label: "Calcium", quantity: expect.any(Number), unit: "mg" });
    expect(pizza.CA.quantity).toBeGreaterThan(0);
  });

  it("§5 extra fields: answers carry more than the contract lists (per-item dish id, ids, dailyIntakeReference, top-level serving_size)", async () => {
    const record = sb.handle.intake(4003) as Json;
    expect(record.recipe_per_item.map((item: Json) => item.id)).toEqual([504, 511]);
    expect(record.nutritional_info_per_item.map((item: Json) => item.id)).toEqual([504, 511]);
    expect(record.serving_size).toBe(390);
    const reference = record.nutritional_info.dailyIntakeReference;
    expect(reference.ENERC_KCAL).toEqual({
      label: "Energy",
      level: "NONE",
      percent: expect.any(Number),
    });
    expect(reference.ENERC_KCAL.percent).toBeCloseTo((record.nutritional_info.calories / 2000) * 100, 0);
    for (const item of record.nutritional_info_per_item)
      expect(
        Object.values(item.nutritional_info.dailyIntakeReference).every(
          (entry: Json) => Object.keys(entry).join() === "label,level,percent",
        ),
      ).toBe(true);
    const info = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo", { as: "erin", body: { imageId: 4003 } });
    expect(info.body.ids).toEqual([504, 511]);
    expect(IntakeResponseSchema.safeParse({ intake_info: record }).success).toBe(true);
  });

  it("§5 positions: the seed holds an itemized intake whose positions have a gap (1 and 3 only)", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/intake/4003", { as: "erin" });
    expect(answer.body.intake_info.recipe_per_item.map((item: Json) => item.food_item_position)).toEqual([1, 3]);
    expect(answer.body.intake_info.nutritional_info_per_item.map((item: Json) => item.food_item_position)).toEqual([1, 3]);
  });

  it("§5 language: the language query parameter is accepted on every endpoint and ignored", async () => {
    const query = { language: "tur" };
    const plain = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    const withLanguage = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice", query });
    expect(withLanguage.body).toEqual(plain.body);
    expect(
      (await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: { ...ALL_TIME, ...query } })).status,
    ).toBe(200);
    for (const path of ["/v2/nutrition/recipe/ingredients", "/v2/nutrition/recipe/nutritionalInfo", "/v2/nutrition/confirm/quantity"]) {
      expect([path, (await fetchJson(sb.handle, "POST", path, { as: "alice", query, body: { imageId: 1001 } })).status]).toEqual([
        path,
        200,
      ]);
    }
    const dish = await fetchJson(sb.handle, "POST", "/v2/image/confirm/dish", {
      as: "carol",
      query,
      body: { imageId: 3002, confirmedClass: [506], food_item_position: [1] },
    });
    expect(dish.status).toBe(200);
    expect((await fetchJson(sb.handle, "DELETE", "/v2/intake/1003/display_image", { as: "alice", query })).status).toBe(200);
    expect((await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice", query: { language: ["tur", "eng"] } })).body.code).toBe(
      1401,
    );
  });

  it("image_url serves the normal image with its content type and the dimensions in processed_image_size", async () => {
    for (const imageId of [1001, 1002, 1003]) {
      const record = sb.handle.intake(imageId) as Json;
      expect(record.image_url).toMatch(new RegExp(`^${sb.handle.url}/images/[0-9a-f]{32}\\.(png|jpg)$`));
      const response = await fetch(record.image_url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(record.image_url.endsWith(".png") ? "image/png" : "image/jpeg");
      const { imageSize } = await import("image-size");
      const size = imageSize(new Uint8Array(await response.arrayBuffer()));
      expect({ width: size.width, height: size.height }).toEqual(record.processed_image_size);
    }
  });

  it("an unknown image name is 404 JSON", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/images/0123456789abcdef0123456789abcdef.png");
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe(1302);
  });

  for (const bad of ["abc", "0", "-1", "1001.0", "1e3", "99999999999999999999"]) {
    it(`a malformed image id "${bad}" → 400`, async () => {
      const answer = await fetchJson(sb.handle, "GET", `/v2/intake/${bad}`, { as: "alice" });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: expect.any(String), code: 1401 });
    });
  }

  for (const name of ["verbose", "__proto__", "constructor", "toString"]) {
    it(`an unknown query parameter "${name}" → 400`, async () => {
      const answer = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice", query: { [name]: "1" } });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(name);
    });
  }

  it("HEAD answers like GET without a body", async () => {
    const response = await fetch(`${sb.handle.url}/v2/intake/1001`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${sb.handle.tokenFor("alice")}` },
    });
    expect(response.status).toBe(200);
  });
});

describe("GET /v2/history/getIntakesList", () => {
  const ids = (answer: Json) => answer.body.intakes_list.map((intake: Json) => intake.image_id);

  it("lists the user's intakes oldest first, and parses with IntakeListResponseSchema", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: ALL_TIME });
    expect(IntakeListResponseSchema.safeParse(answer.body).success).toBe(true);
    expect(ids(answer)).toEqual([1001, 1002, 1003, 1004, 1005]);
  });

  it("date_from and date_to are inclusive", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
      as: "alice",
      query: { date_from: "2026/11/03, 08:15:00", date_to: "2026/11/05, 16:40:00" },
    });
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([1002, 1003, 1004]);
  });

  it("§5 history dates: the history list requires both dates, and a 400 names the missing one", async () => {
    const from = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
      as: "bob",
      query: { date_from: "2026/11/03, 00:00:00" },
    });
    expect(from.status).toBe(400);
    expect(from.body).toEqual({ message: expect.stringMatching(/^date_to is required/), code: 1401 });
    const to = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "bob", query: { date_to: "2026/11/03, 00:00:00" } });
    expect(to.body).toEqual({ message: expect.stringMatching(/^date_from is required/), code: 1401 });
    const none = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "bob" });
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/date_from and date_to are required/);
    const both = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
      as: "bob",
      query: { date_from: "2026/11/03, 00:00:00", date_to: "2026/11/30, 00:00:00" },
    });
    expect(ids(both)).toEqual([2002, 2003]);
  });

  it("a range with no intakes is an empty list", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
      as: "alice",
      query: { date_from: "2025/01/01, 00:00:00", date_to: "2025/12/31, 23:59:59" },
    });
    expect(answer.body).toEqual({ intakes_list: [], total_intake: { calories: 0, carbohydrates: 0, fat: 0, protein: 0 } });
  });

  for (const bad of [
    "2026-11-03 08:00:00",
    "2026/11/03",
    "2026/13/01, 00:00:00",
    "2026/02/30, 00:00:00",
    "2026/11/03, 24:00:00",
    "2026/11/03,08:00:00",
    "yesterday",
    "",
  ]) {
    it(`a malformed date ${JSON.stringify(bad)} → 400`, async () => {
      const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: { date_from: bad } });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(1401);
    });
  }

  it("date_from after date_to → 400", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
      as: "alice",
      query: { date_from: "2026/11/05, 00:00:00", date_to: "2026/11/04, 00:00:00" },
    });
    expect(answer.status).toBe(400);
  });

  it("an unknown or repeated query parameter → 400", async () => {
    expect((await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: { limit: 5 } })).status).toBe(400);
    expect(
      (
        await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", {
          as: "alice",
          query: { date_from: ["2026/11/01, 00:00:00", "2026/11/02, 00:00:00"] },
        })
      ).status,
    ).toBe(400);
  });

  it("a manager lists a managed user's intakes", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "dave", query: { ...ALL_TIME, user_id: 102 } });
    expect(ids(answer)).toEqual([2001, 2002, 2003]);
  });
});

describe("recipe endpoints", () => {
  it("recipe/ingredients of a recognition-only intake gives serving_size and recipe", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", { as: "alice", body: { imageId: 1001 } });
    const record = sb.handle.intake(1001) as Json;
    expect(answer.body).toEqual({ imageId: 1001, serving_size: record.serving_size, recipe: record.recipe });
  });

  it("recipe/nutritionalInfo of a recognition-only intake gives the totals", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo", { as: "bob", body: { imageId: 2001 } });
    const record = sb.handle.intake(2001) as Json;
    expect(answer.body).toEqual({
      imageId: 2001,
      ids: [508],
      foodName: record.foodName,
      serving_size: record.serving_size,
      hasNutritionalInfo: true,
      nutritional_info: record.nutritional_info,
    });
  });

  it("recipe/nutritionalInfo of an itemized intake carries what a captured answer carries: serving_size, ids, per-item id", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/nutritionalInfo", { as: "erin", body: { imageId: 4003 } });
    const record = sb.handle.intake(4003) as Json;
    expect(answer.body).toEqual({
      imageId: 4003,
      ids: [504, 511],
      foodName: record.foodName,
      serving_size: 390,
      hasNutritionalInfo: true,
      nutritional_info: record.nutritional_info,
      nutritional_info_per_item: record.nutritional_info_per_item,
    });
    expect(answer.body.nutritional_info_per_item.map((item: Json) => item.id)).toEqual([504, 511]);
  });

  const badBodies: Array<[string, unknown]> = [
    ["a missing imageId", {}],
    ["a string imageId that is not a number", { imageId: "1001abc" }],
    ["a string imageId with a sign", { imageId: "+1001" }],
    ["an array", [1001]],
  ];
  for (const path of ["/v2/nutrition/recipe/ingredients", "/v2/nutrition/recipe/nutritionalInfo"]) {
    for (const [label, body] of badBodies) {
      it(`${path} with ${label} → 400`, async () => {
        expect((await fetchJson(sb.handle, "POST", path, { as: "alice", body })).status).toBe(400);
      });
    }
    it(`${path} for another user's intake → 403, for an unknown one → 404`, async () => {
      expect((await fetchJson(sb.handle, "POST", path, { as: "alice", body: { imageId: 2001 } })).status).toBe(403);
      expect((await fetchJson(sb.handle, "POST", path, { as: "alice", body: { imageId: 5555 } })).status).toBe(404);
    });
  }
});

describe("sandbox-only routes and framework answers", () => {
  it("GET /sandbox/stats counts requests by route; stats and images are not counted", async () => {
    const before = (await fetchJson(sb.handle, "GET", "/sandbox/stats")).body;
    await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice" });
    await fetchJson(sb.handle, "GET", "/v2/intake/1003", { as: "alice" });
    await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", { as: "alice", body: { imageId: 1002 } });
    await fetchJson(sb.handle, "GET", "/no/such/path");
    await fetch((sb.handle.intake(1002) as Json).image_url);
    const after = (await fetchJson(sb.handle, "GET", "/sandbox/stats")).body;
    expect(after.total_requests - before.total_requests).toBe(4);
    expect(after.requests["GET /v2/intake/:image_id"] - (before.requests["GET /v2/intake/:image_id"] ?? 0)).toBe(2);
    expect(after.requests["POST /v2/nutrition/recipe/ingredients"] - (before.requests["POST /v2/nutrition/recipe/ingredients"] ?? 0)).toBe(
      1,
    );
    expect(after.requests["GET *"] - (before.requests["GET *"] ?? 0)).toBe(1);
    expect(after).toEqual(sb.handle.stats());
    expect(Object.keys(after.requests).some((key) => key.includes("stats") || key.includes("images"))).toBe(false);
  });

  it("an unknown path is 404 JSON", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/intakes/1001", { as: "alice" });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: expect.any(String), code: 1302 });
  });

  it("a wrong method on a known route is 405 JSON with Allow", async () => {
    const answer = await fetchJson(sb.handle, "PUT", "/v2/intake/1001", { as: "alice" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
    expect(answer.body.code).toBe(1303);
    const post = await fetchJson(sb.handle, "GET", "/v2/nutrition/confirm/quantity", { as: "alice" });
    expect(post.status).toBe(405);
  });

  it("a malformed URL is 400 JSON", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/intake/%E0%A4%A", { as: "alice" });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(1401);
  });
});
