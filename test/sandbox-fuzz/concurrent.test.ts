/**
 * 1,000 updates of one intake, 50 in flight at once, each setting every item's quantity: the
 * intake ends equal to exactly one of the requested states — its serving sizes are one
 * request's quantities, and its nutrition is what that request alone gives on a fresh sandbox.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";

const REQUESTS = 1000;
const IN_FLIGHT = 50;
const IMAGE_ID = 1002;
const POSITIONS = ["1", "2", "3"] as const;

let sandbox: SandboxHandle;
let reference: SandboxHandle;
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

beforeAll(async () => {
  [sandbox, reference] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
});
afterAll(async () => {
  agent.destroy();
  await Promise.all([sandbox?.close(), reference?.close()]);
});

function post(handle: SandboxHandle, token: string, body: unknown): Promise<{ status: number; body: string }> {
  const bytes = Buffer.from(JSON.stringify(body));
  const url = new URL("/v2/nutrition/confirm/quantity", handle.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(bytes.byteLength) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
}

interface Item {
  food_item_position: number | string;
  serving_size: number;
}
interface Intake {
  serving_size: number;
  nutritional_info: unknown;
  nutritional_info_per_item: Item[];
  recipe_per_item: Item[];
  image_url?: string;
}

/** Deep equality where numbers may differ in the last bits (repeated rescaling), and image URLs are left out. */
function expectSameIntake(actual: unknown, expected: unknown, path = "intake"): void {
  if (typeof expected === "number") {
    expect(typeof actual, path).toBe("number");
    const scale = Math.max(1, Math.abs(expected));
    expect(Math.abs((actual as number) - expected) / scale, `${path}: ${String(actual)} vs ${expected}`).toBeLessThan(1e-9);
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, path).toBe(expected.length);
    expected.forEach((value, index) => expectSameIntake((actual as unknown[])[index], value, `${path}[${index}]`));
    return;
  }
  if (expected !== null && typeof expected === "object") {
    const keys = Object.keys(expected).filter((key) => key !== "image_url");
    expect(
      Object.keys(actual as object)
        .filter((key) => key !== "image_url")
        .sort(),
      path,
    ).toEqual(keys.sort());
    for (const key of keys)
      expectSameIntake((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
    return;
  }
  expect(actual, path).toEqual(expected);
}

describe("concurrent updates of one intake", () => {
  it(`${REQUESTS} updates, ${IN_FLIGHT} in flight, leave exactly one requested state`, async () => {
    // Distinct quantity triples (grams with two decimals), seeded.
    const triples = fc
      .sample(
        fc.uniqueArray(
          fc.tuple(fc.integer({ min: 10, max: 150_000 }), fc.integer({ min: 10, max: 150_000 }), fc.integer({ min: 10, max: 150_000 })),
          {
            minLength: REQUESTS,
            maxLength: REQUESTS,
            selector: (triple) => triple.join(","),
          },
        ),
        { numRuns: 1, seed: 1002 },
      )[0]!
      .map((triple) => triple.map((hundredths) => hundredths / 100) as [number, number, number]);
    const token = sandbox.tokenFor("alice");

    let next = 0;
    const statuses: number[] = [];
    const worker = async () => {
      while (next < triples.length) {
        const triple = triples[next++]!;
        const quantity = Object.fromEntries(POSITIONS.map((position, index) => [position, triple[index]]));
        const answer = await post(sandbox, token, { imageId: IMAGE_ID, quantity });
        statuses.push(answer.status);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(statuses.length).toBe(REQUESTS);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const final = sandbox.intake(IMAGE_ID) as Intake;
    const sizes = POSITIONS.map(
      (position) => final.recipe_per_item.find((item) => String(item.food_item_position) === position)!.serving_size,
    );
    const matching = triples.filter((triple) => triple.every((grams, index) => grams === sizes[index]));
    expect(matching, `final serving sizes ${sizes.join(", ")} are no request's quantities`).toHaveLength(1);
    const [winner] = matching as [[number, number, number]];
    expect(final.nutritional_info_per_item.map((item) => item.serving_size)).toEqual(winner);
    expect(final.serving_size).toBeCloseTo(winner[0] + winner[1] + winner[2], 6);

    // The same request alone, on a fresh sandbox, gives the same intake.
    const alone = await post(reference, reference.tokenFor("alice"), {
      imageId: IMAGE_ID,
      quantity: Object.fromEntries(POSITIONS.map((position, index) => [position, winner[index]])),
    });
    expect(alone.status).toBe(200);
    expectSameIntake(final, reference.intake(IMAGE_ID));
    expect(sandbox.stats().nutrition_calculations).toBe(REQUESTS);
  });
});
