/** POST and DELETE /v2/intake/{image_id}/display_image against docs/api.md, display images. */
import { describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/server.js";
import { fetchJson, withSandbox, ALL_TIME } from "../helpers/sandbox.js";
import { GIF, getIntake, imageForm, JPEG, paddedTo, PNG, WEBP, type Json, codeFor } from "./fixtures.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../../src/records/fields.js";

const sb = withSandbox({}, { perTest: true });

function attach(
  handle: SandboxHandle,
  imageId: number,
  body: FormData | Uint8Array | string,
  options: { as?: string; query?: Record<string, string | number>; contentType?: string } = {},
) {
  return fetchJson(handle, "POST", `/v2/intake/${imageId}/display_image`, {
    as: options.as ?? "alice",
    rawBody: body,
    query: options.query,
    contentType: options.contentType,
  });
}

function detach(handle: SandboxHandle, imageId: number, as = "alice", query?: Record<string, string | number>) {
  return fetchJson(handle, "DELETE", `/v2/intake/${imageId}/display_image`, { as, query });
}

async function fetchImage(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Everything of the record except what the display image decides. */
function withoutDisplayFields(intake: Json) {
  const { has_display_image: _a, image_url: _b, processed_image_size: _c, ...rest } = intake;
  return rest;
}

describe("attaching (docs/api.md, display images)", () => {
  it("a JPEG is attached: has_display_image, image_url serving the exact bytes, and its dimensions", async () => {
    const answer = await attach(sb.handle, 1003, imageForm(JPEG));
    expect(answer.status).toBe(200);
    const record = answer.body.intake_info;
    expect(record.has_display_image).toBe(true);
    expect(record.processed_image_size).toEqual({ width: 32, height: 24 });
    const served = await fetchImage(record.image_url);
    expect(served.status).toBe(200);
    expect(served.type).toBe("image/jpeg");
    expect(served.bytes.equals(JPEG)).toBe(true);
  });

  const formats: Array<[string, Buffer, string, { width: number; height: number }]> = [
    ["PNG", PNG, "image/png", { width: 20, height: 10 }],
    ["GIF", GIF, "image/gif", { width: 1, height: 1 }],
    ["WebP", WEBP, "image/webp", { width: 32, height: 24 }],
  ];
  for (const [label, bytes, type, size] of formats) {
    it(`a ${label} is accepted and served as ${type}`, async () => {
      const answer = await attach(sb.handle, 1003, imageForm(bytes, "image", "x.bin"));
      expect(answer.status).toBe(200);
      expect(answer.body.intake_info.processed_image_size).toEqual(size);
      const served = await fetchImage(answer.body.intake_info.image_url);
      expect(served.type).toBe(type);
      expect(served.bytes.equals(bytes)).toBe(true);
    });
  }

  it("display image rule 6: GET and the history list return the display image afterwards", async () => {
    const answer = await attach(sb.handle, 1003, imageForm(PNG));
    const url = answer.body.intake_info.image_url;
    expect((await getIntake(sb.handle, 1003, "alice")).image_url).toBe(url);
    const list = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as: "alice", query: ALL_TIME });
    expect(list.body.intakes_list.find((intake: Json) => intake.image_id === 1003).image_url).toBe(url);
  });

  it("display image rule 3: attach replaces an existing display image", async () => {
    const before = await getIntake(sb.handle, 1005, "alice");
    expect(before.has_display_image).toBe(true);
    const answer = await attach(sb.handle, 1005, imageForm(JPEG));
    expect(answer.status).toBe(200);
    expect(answer.body.intake_info.image_url).not.toBe(before.image_url);
    expect(answer.body.intake_info.processed_image_size).toEqual({ width: 32, height: 24 });
    expect((await fetchImage(answer.body.intake_info.image_url)).bytes.equals(JPEG)).toBe(true);
    expect((await fetchImage(before.image_url)).status).toBe(404);
  });

  it("rules 1 and 2: the display image does not change foods, quantities, nutrition, timestamp or occasion", async () => {
    const before = await getIntake(sb.handle, 1003, "alice");
    const answer = await attach(sb.handle, 1003, imageForm(JPEG));
    expect(withoutDisplayFields(answer.body.intake_info)).toEqual(withoutDisplayFields(before));
    expect(withoutDisplayFields(await getIntake(sb.handle, 1003, "alice"))).toEqual(withoutDisplayFields(before));
    expect(sb.handle.stats().nutrition_calculations).toBe(0);
  });

  it("display image rule 4: a manual intake stored as APIImage (a barcode product) accepts a display image", async () => {
    expect((await attach(sb.handle, 1004, imageForm(PNG))).status).toBe(200);
  });

  it("display image rule 4: a display image on a segmentation intake is refused with 409", async () => {
    const before = sb.handle.intake(1002);
    const answer = await attach(sb.handle, 1002, imageForm(JPEG));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: expect.stringContaining("manual"), code: codeFor(409) });
    expect(sb.handle.intake(1002)).toEqual(before);
  });

  it("display image rule 4: a display image on a recognition-only intake is refused with 409", async () => {
    expect((await attach(sb.handle, 1001, imageForm(JPEG))).status).toBe(409);
  });

  it("409 comes before the size and type checks", async () => {
    expect((await attach(sb.handle, 1002, imageForm(Buffer.alloc(MAX_DISPLAY_IMAGE_BYTES + 10)))).status).toBe(409);
    expect((await attach(sb.handle, 1002, imageForm(Buffer.from("not an image")))).status).toBe(409);
  });
});

describe("size and type limits", () => {
  it("a 1 MiB + 1 byte image is refused with 413 and nothing changes", async () => {
    const before = sb.handle.intake(1003);
    const answer = await attach(sb.handle, 1003, imageForm(paddedTo(JPEG, MAX_DISPLAY_IMAGE_BYTES + 1)));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: expect.any(String), code: codeFor(413) });
    expect(sb.handle.intake(1003)).toEqual(before);
  });

  it("exactly 1 MiB is accepted", async () => {
    const bytes = paddedTo(PNG, MAX_DISPLAY_IMAGE_BYTES);
    const answer = await attach(sb.handle, 1003, imageForm(bytes));
    expect(answer.status).toBe(200);
    expect((await fetchImage(answer.body.intake_info.image_url)).bytes.length).toBe(MAX_DISPLAY_IMAGE_BYTES);
  });

  it("a much larger upload is refused with 413 and the connection stays usable", async () => {
    const answer = await attach(sb.handle, 1003, imageForm(paddedTo(JPEG, 3 * MAX_DISPLAY_IMAGE_BYTES)));
    expect(answer.status).toBe(413);
    expect((await getIntake(sb.handle, 1003, "alice")).has_display_image).toBe(false);
  });

  const refused: Array<[string, Buffer]> = [
    ["text", Buffer.from("hello, this is not an image\n")],
    ["an empty file", Buffer.alloc(0)],
    ["a PNG signature without a header", PNG.subarray(0, 8)],
    ["a JPEG cut before its frame header", JPEG.subarray(0, 20)],
    ["a BMP", Buffer.concat([Buffer.from("BM"), Buffer.alloc(60)])],
    ["random bytes", Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 251))],
  ];
  for (const [label, bytes] of refused) {
    it(`${label} is refused with 415 and nothing changes`, async () => {
      const before = sb.handle.intake(1003);
      const answer = await attach(sb.handle, 1003, imageForm(bytes));
      expect(answer.status).toBe(415);
      expect(answer.body.code).toEqual(codeFor(415));
      expect(sb.handle.intake(1003)).toEqual(before);
    });
  }
});

describe("malformed uploads", () => {
  it("a file in another field than image is refused with 400", async () => {
    const answer = await attach(sb.handle, 1003, imageForm(JPEG, "photo"));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("image");
  });

  it("an extra text field is refused with 400", async () => {
    const form = imageForm(JPEG);
    form.append("note", "hello");
    expect((await attach(sb.handle, 1003, form)).status).toBe(400);
  });

  it("two files are refused with 400", async () => {
    const form = imageForm(JPEG);
    form.append("image", new Blob([PNG]), "second.png");
    const before = sb.handle.intake(1003);
    expect((await attach(sb.handle, 1003, form)).status).toBe(400);
    expect(sb.handle.intake(1003)).toEqual(before);
  });

  it("a form without a file is refused with 400", async () => {
    const form = new FormData();
    expect((await attach(sb.handle, 1003, form)).status).toBe(400);
  });

  it("a truncated multipart body is refused with 400 and nothing changes", async () => {
    const before = sb.handle.intake(1003);
    const head = '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
    const body = Buffer.concat([Buffer.from(head), JPEG.subarray(0, 100)]);
    const answer = await attach(sb.handle, 1003, body, { contentType: "multipart/form-data; boundary=xyz" });
    expect(answer.status).toBe(400);
    expect(sb.handle.intake(1003)).toEqual(before);
  });

  it("multipart without a boundary is refused with 400", async () => {
    expect((await attach(sb.handle, 1003, "abc", { contentType: "multipart/form-data" })).status).toBe(400);
  });

  it("a JSON body is refused with 415", async () => {
    const answer = await attach(sb.handle, 1003, JSON.stringify({ image: "x" }), { contentType: "application/json" });
    expect(answer.status).toBe(415);
  });

  it("the raw image bytes without multipart are refused with 415", async () => {
    expect((await attach(sb.handle, 1003, JPEG, { contentType: "image/jpeg" })).status).toBe(415);
  });

  it("a malformed image id is refused with 400", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/intake/abc/display_image", { as: "alice", rawBody: imageForm(JPEG) });
    expect(answer.status).toBe(400);
  });
});

describe("who may attach (display image rule 5)", () => {
  it("a token is checked before the upload: none → 401", async () => {
    const answer = await fetchJson(sb.handle, "POST", "/v2/intake/1003/display_image", { rawBody: imageForm(JPEG) });
    expect(answer.status).toBe(401);
  });

  it("another user's intake is refused with 403", async () => {
    expect((await attach(sb.handle, 2003, imageForm(JPEG), { as: "alice" })).status).toBe(403);
  });

  it("a manager attaches for a user it manages", async () => {
    expect((await attach(sb.handle, 2003, imageForm(JPEG), { as: "dave", query: { user_id: 102 } })).status).toBe(200);
  });

  it("a manager is refused with 403 for a user it does not manage", async () => {
    expect((await attach(sb.handle, 3001, imageForm(JPEG), { as: "dave", query: { user_id: 103 } })).status).toBe(403);
  });

  it("a company attaches for its users", async () => {
    expect((await attach(sb.handle, 4002, imageForm(JPEG), { as: "acme", query: { user_id: 104 } })).status).toBe(200);
  });
});

describe("removing (docs/api.md, display images)", () => {
  it("after DELETE image_url is the normal image again", async () => {
    const original = await getIntake(sb.handle, 1003, "alice");
    await attach(sb.handle, 1003, imageForm(JPEG));
    const answer = await detach(sb.handle, 1003);
    expect(answer.status).toBe(200);
    expect(answer.body.intake_info).toEqual(original);
    expect(await getIntake(sb.handle, 1003, "alice")).toEqual(original);
  });

  it("a seeded display image is removed and the normal image with its dimensions comes back", async () => {
    const before = await getIntake(sb.handle, 1005, "alice");
    const answer = await detach(sb.handle, 1005);
    const record = answer.body.intake_info;
    expect(record.has_display_image).toBe(false);
    expect(record.image_url).not.toBe(before.image_url);
    const normal = await fetchImage(record.image_url);
    expect(normal.type).toBe("image/png");
    expect(record.processed_image_size).toEqual({ width: 48, height: 48 });
    expect((await fetchImage(before.image_url)).status).toBe(404);
    expect(withoutDisplayFields(record)).toEqual(withoutDisplayFields(before));
  });

  it("removing when none is attached answers 200 and changes nothing", async () => {
    const before = sb.handle.intake(1003);
    const answer = await detach(sb.handle, 1003);
    expect(answer.status).toBe(200);
    expect(answer.body.intake_info).toEqual(before);
    expect(sb.handle.intake(1003)).toEqual(before);
  });

  it("DELETE on a segmentation intake is refused with 409", async () => {
    expect((await detach(sb.handle, 1002)).status).toBe(409);
  });

  it("DELETE for another user's intake is refused with 403, for a managed user's it works", async () => {
    expect((await detach(sb.handle, 3001)).status).toBe(403);
    expect((await detach(sb.handle, 3001, "acme", { user_id: 103 })).status).toBe(200);
  });
});
