/** Image bytes for display-image tests, and small helpers shared by the sandbox tests. */
import { expect } from "vitest";
import { SAMPLE_JPEG_BASE64 } from "../../src/sandbox/images.js";
import { encodePng } from "../../src/png.js";
import type { SandboxHandle } from "../../src/sandbox/server.js";
import { fetchJson } from "../helpers/sandbox.js";

export const JPEG = Buffer.from(SAMPLE_JPEG_BASE64, "base64"); // 32×24
export const PNG = encodePng(20, 10, (x, y) => [x * 12, y * 25, 128]); // 20×10
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"); // 1×1
export const WEBP = Buffer.from(
  "UklGRgYBAABXRUJQVlA4IPoAAACQBwCdASogABgAPo02lkglIqIhN/qoAKARiWoAnTM0PhkANwBvM28uI0FcBKghkXiUemjcAlH5My9v5LBn0yGp5dZjQAAA/sM7cdWs48DeUFt/rcyD4e1v1RTn4I6oi4TGMtFsmqmQWHVY8q9yGs0xvX13hUBc6AQkUHR49VyrUb8UO2O7Zuo8R5EmCozMaFY1GAbs3gfpjs30/EyaqI7627osZs7WbkVhF/f4WXqtbq9Hsl6H7bf9yzdTzLntvFL158RHsefsfgoPgwKC5aGSOD3zCspJEfdLsgbMW2uBhm54J+OmuOvkp55yEoU/bPXKObQzuuDllgAA",
  "base64",
); // 32×24

/** A valid image padded with zero bytes after its end to exactly `size` bytes. */
export function paddedTo(image: Buffer, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  image.copy(bytes);
  return bytes;
}

export function imageForm(bytes: Uint8Array, field = "image", filename = "photo.jpg"): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes]), filename);
  return form;
}

export type Json = any;

/** The intake as GET answers it for its owner. */
export async function getIntake(handle: SandboxHandle, imageId: number, as: string): Promise<Json> {
  const answer = await fetchJson(handle, "GET", `/v2/intake/${imageId}`, { as });
  if (answer.status !== 200) throw new Error(`GET intake ${imageId} as ${as}: ${answer.status} ${answer.text}`);
  return answer.body.intake_info;
}

export function update(handle: SandboxHandle, as: string, body: unknown, query?: Record<string, string | number>) {
  return fetchJson(handle, "POST", "/v2/nutrition/confirm/quantity", { as, body, query });
}

export function itemAt(intake: Json, position: number | string): Json {
  return intake.recipe_per_item.find((item: Json) => item.food_item_position === position);
}

export function itemNutritionAt(intake: Json, position: number | string): Json {
  return intake.nutritional_info_per_item.find((item: Json) => item.food_item_position === position);
}

export function nutrient(nutrition: Json, code: string): number {
  return nutrition.totalNutrients[code].quantity;
}

export function weightsSum(recipe: Json[]): number {
  return recipe.reduce((sum: number, component: Json) => sum + component.weight, 0);
}

export function componentWeight(recipe: Json[], name: string): number {
  return recipe.find((component: Json) => component.name === name).weight;
}

/** The service codes an error answer with each status may carry (docs/api.md, service codes). */
export const CODES_BY_STATUS: Record<number, number[]> = {
  400: [1201, 1202, 1401, 1402, 1403, 1404, 1405, 1601],
  401: [1001, 1002, 1003],
  403: [1203, 1204],
  404: [1301, 1302],
  405: [1303],
  408: [1601],
  409: [1501],
  413: [1402, 1502],
  415: [1503],
  429: [114],
  431: [1601],
};

/** A service code that fits the status (never the status itself). */
export const codeFor = (status: number) => expect.toBeOneOf(CODES_BY_STATUS[status] ?? []);
