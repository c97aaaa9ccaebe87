/**
 * The sandbox's nutrition answers as the service's reference pages and a captured answer give
 * them (docs/api.md, nutrition, the history list, language, rate limit, levels and measures),
 * checked through plain HTTP against a sandbox on loopback.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGE_CODES } from "../../src/records/languages.js";
import { DEFAULT_RATE_WINDOW_MS } from "../../src/sandbox/rateLimit.js";
import { ALL_TIME, fetchJson, withSandbox } from "../helpers/sandbox.js";
import type { Json } from "./fixtures.js";

const INFO = "/v2/nutrition/recipe/nutritionalInfo";
const LIST = "/v2/history/getIntakesList";
const REFERENCE_CODES = ["CHOCDF", "ENERC_KCAL", "FASAT", "FAT", "NA", "PROCNT", "SUGAR", "SUGAR.added"];

describe("dailyIntakeReference", () => {
  const sb = withSandbox();

  it("has the service's eight codes with upper-case levels on the 20/35 rule; energy and sugars are NONE", async () => {
    const answer = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1002 } });
    expect(answer.status).toBe(200);
    const records: Json[] = [
      answer.body.nutritional_info,
      ...answer.body.nutritional_info_per_item.map((item: Json) => item.nutritional_info),
    ];
    for (const record of records) {
      const reference = record.dailyIntakeReference as Record<string, Json>;
      expect(Object.keys(reference).sort()).toEqual(REFERENCE_CODES);
      for (const [code, entry] of Object.entries(reference)) {
        expect(Object.keys(entry)).toEqual(["label", "level", "percent"]);
        expect(entry.label).toBe(record.totalNutrients[code].label);
        const expected = ["ENERC_KCAL", "SUGAR"].includes(code)
          ? "NONE"
          : entry.percent < 20
            ? "LOW"
            : entry.percent < 35
              ? "MEDIUM"
              : "HIGH";
        expect([code, entry.level]).toEqual([code, expected]);
      }
    }
    const total = answer.body.nutritional_info;
    expect(total.dailyIntakeReference.ENERC_KCAL.percent).toBeCloseTo((total.calories / 2000) * 100, 1);
  });

  it("the history list and reading one intake carry the same entries", async () => {
    const list = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: ALL_TIME });
    const one = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice" });
    const listed = list.body.intakes_list.find((intake: Json) => intake.image_id === 1001);
    expect(listed.nutritional_info.dailyIntakeReference).toEqual(one.body.intake_info.nutritional_info.dailyIntakeReference);
    expect(Object.keys(listed.nutritional_info.dailyIntakeReference).sort()).toEqual(REFERENCE_CODES);
  });
});

describe("labels and units", () => {
  const sb = withSandbox();

  it("are the service's: Saturated fats, Monounsaturated fats, Polyunsaturated fats, Added sugars, Trans fat, and µg", async () => {
    const one = await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice" });
    const nutrients = one.body.intake_info.nutritional_info.totalNutrients;
    expect(nutrients.FASAT.label).toBe("Saturated fats");
    expect(nutrients.FAMS.label).toBe("Monounsaturated fats");
    expect(nutrients.FAPU.label).toBe("Polyunsaturated fats");
    expect(nutrients["SUGAR.added"].label).toBe("Added sugars");
    expect(nutrients.FATRN).toEqual({ label: "Trans fat", quantity: expect.any(Number), unit: "g" });
    expect(nutrients.VITD).toEqual({ label: "Vitamin D", quantity: expect.any(Number), unit: "µg" });
    expect(nutrients.VITD.quantity).toBeGreaterThan(0);
    expect(nutrients.CHOCDF.label).toBe("Carbs");
  });
});

describe("ids and the per-item id are dish (class) ids", () => {
  const sb = withSandbox();

  it("nutritionalInfo's ids and every per-item id name the dish, and they stay when the intake changes", async () => {
    const before = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1002 } });
    expect(before.body.ids).toEqual([513, 514, 503]);
    expect(before.body.nutritional_info_per_item.map((item: Json) => item.id)).toEqual([513, 514, 503]);
    const record = (await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice" })).body.intake_info;
    expect(record.recipe_per_item.map((item: Json) => item.id)).toEqual([513, 514, 503]);
    await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", { as: "alice", body: { imageId: 1002, quantity: { "1": 99 } } });
    expect((await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1002 } })).body.ids).toEqual([513, 514, 503]);
  });

  it("a recognition-only intake's one id is its dish's", async () => {
    const answer = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1001 } });
    expect(answer.body.ids).toEqual([509]);
  });

  it("an id carries on to the dish call: confirm/dish takes it back", async () => {
    const info = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1003 } });
    const confirmed = await fetchJson(sb.handle, "POST", "/v2/image/confirm/dish", {
      as: "alice",
      body: { imageId: 1003, confirmedClass: [info.body.ids[1]], food_item_position: ["manual2"] },
    });
    expect(confirmed.status).toBe(200);
  });
});

describe("class_id alone", () => {
  const sb = withSandbox({}, { perTest: true });

  it("answers that dish's standard portion, with its id and name", async () => {
    const answer = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { class_id: 509 } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      class_id: 509,
      ids: [509],
      foodName: ["Margherita pizza"],
      serving_size: 320,
      hasNutritionalInfo: true,
    });
    expect(answer.body.imageId).toBeUndefined();
    const info = answer.body.nutritional_info;
    expect(info.calories).toBeGreaterThan(0);
    expect(info.calories).toBe(info.totalNutrients.ENERC_KCAL.quantity);
    expect(Object.keys(info.dailyIntakeReference).sort()).toEqual(REFERENCE_CODES);
  });

  it("takes the model version and a string of digits, and any user's token (a dish belongs to no one)", async () => {
    const versioned = await fetchJson(sb.handle, "POST", `${INFO}/v1.0`, { as: "bob", body: { class_id: "503" } });
    expect([versioned.status, versioned.body.ids]).toEqual([200, [503]]);
    const manager = await fetchJson(sb.handle, "POST", INFO, { as: "dave", body: { class_id: 503 }, query: { user_id: 101 } });
    expect(manager.status).toBe(200);
  });

  it("with an imageId, the imageId decides and class_id is ignored, as before", async () => {
    const answer = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1001, class_id: 503 } });
    expect([answer.status, answer.body.imageId, answer.body.ids]).toEqual([200, 1001, [509]]);
  });

  it("refuses an unknown dish (404), a malformed class_id (400, 1401) and a body with neither (400, 1402), and changes nothing", async () => {
    const unknown = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { class_id: 999 } });
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, 1302, "no dish has class_id 999"]);
    for (const class_id of [0, -5, 1.5, "abc", "05", null, [509], true]) {
      const bad = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { class_id } });
      expect([class_id, bad.status, bad.body.code]).toEqual([class_id, 400, 1401]);
    }
    const neither = await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: {} });
    expect([neither.status, neither.body.code]).toEqual([400, 1402]);
    expect(neither.body.message).toMatch(/imageId or class_id is required/);
    expect(sb.handle.stats().nutrition_calculations).toBe(0);
  });

  it("--strict refuses a string class_id, as it refuses a string imageId", async () => {
    const strict = await import("../../src/sandbox/server.js").then((m) => m.startSandbox({ port: 0, strict: true }));
    try {
      const answer = await fetchJson(strict, "POST", INFO, { as: "alice", body: { class_id: "509" } });
      expect([answer.status, answer.body.code]).toEqual([400, 1401]);
      expect((await fetchJson(strict, "POST", INFO, { as: "alice", body: { class_id: 509 } })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe("the history list", () => {
  const sb = withSandbox();

  it("every record carries hasNutritionalInfo, equal to reading the intake alone", async () => {
    const list = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: ALL_TIME });
    expect(list.body.intakes_list.length).toBeGreaterThan(0);
    for (const listed of list.body.intakes_list) {
      expect(listed.hasNutritionalInfo).toBe(true);
      expect(listed.nutritional_info).toBeDefined();
      const one = await fetchJson(sb.handle, "GET", `/v2/intake/${listed.image_id}`, { as: "alice" });
      expect(one.body.intake_info.hasNutritionalInfo).toBe(listed.hasNutritionalInfo);
    }
  });

  it("the answer carries the period's total of calories, carbohydrates, fat and protein: the sums of the records listed", async () => {
    const query = { date_from: "2026/11/03, 00:00:00", date_to: "2026/11/05, 00:00:00" };
    const list = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query });
    const sum = (code: string) =>
      Math.round(
        list.body.intakes_list.reduce((total: number, intake: Json) => total + intake.nutritional_info.totalNutrients[code].quantity, 0) *
          10,
      ) / 10;
    expect(list.body.intakes_list.map((intake: Json) => intake.image_id)).toEqual([1002, 1003]);
    expect(list.body.total_intake).toEqual({
      calories: sum("ENERC_KCAL"),
      carbohydrates: sum("CHOCDF"),
      fat: sum("FAT"),
      protein: sum("PROCNT"),
    });
    expect(list.body.total_intake.calories).toBeGreaterThan(0);
  });
});

describe("language", () => {
  const sb = withSandbox();

  it("GET /v2/info/languages serves the ten ISO 639-2/T codes", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/info/languages", { as: "alice" });
    expect(answer.status).toBe(200);
    expect(answer.body.languages.map((language: Json) => language.code)).toEqual([
      "spa",
      "eng",
      "fre",
      "ita",
      "nld",
      "ger",
      "gre",
      "tur",
      "heb",
      "cat",
    ]);
    expect(answer.body.languages.map((language: Json) => language.code)).toEqual(LANGUAGE_CODES);
    expect(answer.body.languages[0]).toEqual({ code: "spa", name: "Spanish" });
    expect((await fetchJson(sb.handle, "GET", "/v2/info/languages")).status).toBe(401);
    expect((await fetchJson(sb.handle, "POST", "/v2/info/languages", { as: "alice" })).status).toBe(405);
  });

  it("spa names dishes in Spanish in reading, the history, ingredients and nutritionalInfo; no language is the user's own (English)", async () => {
    const spa = { language: "spa" };
    const one = await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice", query: spa });
    expect(one.body.intake_info.foodName).toEqual([
      "Huevos revueltos con tostada",
      "Macedonia de fruta fresca",
      "Tortitas con sirope de arce",
    ]);
    expect(one.body.intake_info.recipe_per_item[0].name).toBe("Huevos revueltos con tostada");
    const list = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: { ...ALL_TIME, ...spa } });
    expect(list.body.intakes_list[0].foodName).toEqual(["Pizza margarita"]);
    const ingredients = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", {
      as: "alice",
      query: spa,
      body: { imageId: 1003 },
    });
    expect(ingredients.body.recipe_per_item.map((item: Json) => item.name)).toEqual(["Espaguetis a la boloñesa", "Ensalada verde mixta"]);
    const info = await fetchJson(sb.handle, "POST", INFO, { as: "alice", query: spa, body: { imageId: 1001 } });
    expect(info.body.foodName).toEqual(["Pizza margarita"]);
    const dish = await fetchJson(sb.handle, "POST", INFO, { as: "alice", query: spa, body: { class_id: 512 } });
    expect(dish.body.foodName).toEqual(["Tarta de manzana"]);
    const plain = await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice" });
    expect(plain.body.intake_info.foodName[0]).toBe("Scrambled eggs on toast");
  });

  it("a listed language without names in the catalogue falls back to English", async () => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/intake/1001", { as: "alice", query: { language: "tur" } });
    expect([answer.status, answer.body.intake_info.foodName]).toEqual([200, ["Margherita pizza"]]);
  });

  it("any other value is a 400 (code 1401) naming the ten, on every route, and nothing changes", async () => {
    const before = sb.handle.intake(1002);
    for (const language of ["es", "en", "SPA", "english", "", "deu"]) {
      const answers = [
        await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice", query: { language } }),
        await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: { ...ALL_TIME, language } }),
        await fetchJson(sb.handle, "POST", INFO, { as: "alice", query: { language }, body: { imageId: 1002 } }),
        await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
          as: "alice",
          query: { language },
          body: { imageId: 1002, quantity: { "1": 42 } },
        }),
      ];
      for (const answer of answers) {
        expect([language, answer.status, answer.body.code]).toEqual([language, 400, 1401]);
        expect(answer.body.message).toContain("spa, eng, fre, ita, nld, ger, gre, tur, heb, cat");
      }
    }
    const twice = await fetchJson(sb.handle, "GET", "/v2/intake/1002", { as: "alice", query: { language: ["spa", "eng"] } });
    expect(twice.status).toBe(400);
    expect(sb.handle.intake(1002)).toEqual(before);
  });
});

describe("credits and the daily window", () => {
  const sb = withSandbox({ rateLimit: { limit: 3, windowMs: DEFAULT_RATE_WINDOW_MS }, credits: 100 }, { perTest: true });
  const used = (answer: { headers: Headers }) => answer.headers.get("x-account-credits-used");

  it("the history list, nutritionalInfo and the languages spend neither a credit nor a call of the window, but still say both", async () => {
    for (let round = 0; round < 5; round += 1) {
      const answers = [
        await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: ALL_TIME }),
        await fetchJson(sb.handle, "POST", INFO, { as: "alice", body: { imageId: 1001 } }),
        await fetchJson(sb.handle, "POST", `${INFO}/v1.0`, { as: "alice", body: { class_id: 509 } }),
        await fetchJson(sb.handle, "GET", "/v2/info/languages", { as: "alice" }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect([used(answer), answer.headers.get("x-account-credits-remaining")]).toEqual(["0", "100"]);
        expect([answer.headers.get("ratelimit-remaining"), answer.headers.get("ratelimit-reset")]).toEqual([
          "3",
          String(DEFAULT_RATE_WINDOW_MS / 1000),
        ]);
      }
    }
  });

  it("the other routes still spend both, and the free reads answer past the limit and show it", async () => {
    for (const imageId of [1001, 1002, 1003]) {
      const answer = await fetchJson(sb.handle, "GET", `/v2/intake/${imageId}`, { as: "alice" });
      expect(answer.status).toBe(200);
    }
    const over = await fetchJson(sb.handle, "POST", "/v2/nutrition/recipe/ingredients", { as: "alice", body: { imageId: 1001 } });
    expect([over.status, over.body.code]).toEqual([429, 114]);
    const list = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: ALL_TIME });
    expect(list.status).toBe(200);
    expect([used(list), list.headers.get("ratelimit-remaining")]).toEqual(["3", "0"]);
    expect(Number(list.headers.get("ratelimit-reset"))).toBeGreaterThan(86_000);
    expect(list.headers.get("retry-after")).toBeNull();
  });

  it("a free route refused for its request (a bad date) still spends nothing", async () => {
    const bad = await fetchJson(sb.handle, "GET", LIST, { as: "alice", query: { date_from: "yesterday", date_to: "today" } });
    expect([bad.status, used(bad)]).toEqual([400, "0"]);
  });
});

describe("measures", () => {
  const sb = withSandbox();

  it("other than metric and imperial: 400 (code 1404) naming the two and why, and nothing changes", async () => {
    const before = sb.handle.intake(1002);
    for (const measures of ["cooking", "portions", "us", "METRIC"]) {
      const answer = await fetchJson(sb.handle, "POST", "/v2/nutrition/confirm/quantity", {
        as: "alice",
        body: { imageId: 1002, quantity: { "1": 42 }, measures: { "1": measures } },
      });
      expect([measures, answer.status, answer.body.code]).toEqual([measures, 400, 1404]);
      expect(answer.body.message).toMatch(
        /^measures of position 1 must be metric or imperial, got "[^"]+"(; did you mean metric\?)?: the service also has cooking measures and portions, but has not published their names$/,
      );
    }
    expect(sb.handle.intake(1002)).toEqual(before);
  });
});
