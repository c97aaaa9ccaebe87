/**
 * --dry-run for each changing command: the request that would be sent (method, URL with query,
 * JSON body or the file's name, size and type; token masked), and nothing sent but the read
 * of the pre-check.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gif, jpegHeader, png, webpHeader } from "../../fixtures/images.js";
import { expectExit, expectNoToken, GET_INTAKE, startTestSandbox, type TestSandbox } from "./harness.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** The built CLI carries the package's version in its User-Agent. */
const VERSION = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

interface Case {
  name: string;
  imageId: number;
  args: string[];
  as?: string;
  method: string;
  path: string;
  query?: string;
  contentType?: string;
  body: unknown;
}

const image = png(6, 4);
let imagePath = "";
beforeAll(() => {
  imagePath = join(sandbox.tempDir(), "dish.png");
  writeFileSync(imagePath, image);
});

const cases = (): Case[] => [
  {
    name: "set-quantity, itemized",
    imageId: 1002,
    args: ["intake", "set-quantity", "1002", "1=150", "2=80.5"],
    method: "POST",
    path: "/v2/nutrition/confirm/quantity",
    contentType: "application/json",
    body: { imageId: 1002, quantity: { "1": 150, "2": 80.5 } },
  },
  {
    name: "set-quantity, recognition-only, for a managed user",
    imageId: 1001,
    args: ["intake", "set-quantity", "1001", "400", "--user", "101"],
    as: "dave",
    method: "POST",
    path: "/v2/nutrition/confirm/quantity",
    query: "?user_id=101",
    contentType: "application/json",
    body: { imageId: 1001, quantity: 400 },
  },
  {
    name: "set-modifiers",
    imageId: 1002,
    // Levels every item holds another of: a value already there is not sent (test/e2e/change/unchanged.test.ts).
    args: ["intake", "set-modifiers", "1002", "--all-items", "--salt", "high", "--oil", "medium"],
    method: "POST",
    path: "/v2/nutrition/confirm/quantity",
    contentType: "application/json",
    body: { imageId: 1002, salt: { "1": "high", "2": "high", "3": "high" }, oil: { "1": "medium", "2": "medium", "3": "medium" } },
  },
  {
    name: "display-image attach",
    imageId: 1003,
    args: ["display-image", "attach", "1003", "<image>"],
    method: "POST",
    path: "/v2/intake/1003/display_image",
    contentType: "multipart/form-data",
    body: { image: { filename: "dish.png", size: image.length, content_type: "image/png" } },
  },
  {
    name: "display-image remove, without --yes and without a terminal",
    imageId: 1005,
    args: ["display-image", "remove", "1005"],
    method: "DELETE",
    path: "/v2/intake/1005/display_image",
    body: null,
  },
];

function argsOf(testCase: Case): string[] {
  return testCase.args.map((arg) => (arg === "<image>" ? imagePath : arg));
}

/** The headers sent, in the order sent: the same as a --curl line's (test/e2e/curl.test.ts). */
function headersOf(testCase: Case): Record<string, string> {
  return {
    accept: "application/json",
    authorization: "Bearer ****",
    "user-agent": `foodctl/${VERSION}`,
    ...(testCase.contentType ? { "content-type": testCase.contentType } : {}),
  };
}

describe("--dry-run prints the request and sends nothing but the pre-check's read", () => {
  it.each(cases().map((testCase) => [testCase.name, testCase] as const))("%s (text)", async (_name, testCase) => {
    const before = sandbox.intake(testCase.imageId);
    const count = sandbox.countRequests();
    const result = await sandbox.cli([...argsOf(testCase), "--dry-run"], { as: testCase.as ?? "alice" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
    expect(sandbox.intake(testCase.imageId)).toEqual(before);

    const headerLines = Object.entries(headersOf(testCase)).map(([name, value]) => `${name}: ${value}`);
    const head = `${testCase.method} ${sandbox.url}${testCase.path}${testCase.query ?? ""}\n${headerLines.join("\n")}\n`;
    expect(result.stdout).toBe(testCase.body === null ? head : `${head}\n${JSON.stringify(testCase.body, null, 2)}\n`);
    expect(result.stderr).toBe("dry run: nothing was sent\n");
    expectNoToken(sandbox, result);
  });

  it.each(cases().map((testCase) => [testCase.name, testCase] as const))("%s (--json)", async (_name, testCase) => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli([...argsOf(testCase), "--dry-run", "--json"], { as: testCase.as ?? "alice" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
    expect(JSON.parse(result.stdout)).toEqual({
      dry_run: true,
      request: {
        method: testCase.method,
        url: `${sandbox.url}${testCase.path}${testCase.query ?? ""}`,
        headers: headersOf(testCase),
        body: testCase.body,
      },
    });
    expect(result.stderr).toBe("");
    expectNoToken(sandbox, result);
  });

  it("still refuses what cannot apply (exit 7), after the same single read", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "1002", "7=10", "--dry-run"]);
    expectExit(result, 7);
    expect(result.stdout).toBe("");
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("--verbose keeps the token masked in the trace", async () => {
    const result = await sandbox.cli(["intake", "set-modifiers", "1002", "1", "--salt", "none", "--dry-run", "--verbose"]);
    expectExit(result, 0);
    expect(result.stderr).toContain("> authorization: Bearer ****");
    expectNoToken(sandbox, result);
  });

  it.each([
    ["a GIF", "x.gif", gif(), "image/gif"],
    ["a JPEG", "x.jpeg", jpegHeader(), "image/jpeg"],
    ["a WebP", "x.webp", webpHeader(), "image/webp"],
    ["a PNG without an extension", "picture", png(2, 2), "image/png"],
    ["a GIF named .png", "fake.png", gif(), "image/gif"],
  ])("attach names the type its bytes show: %s", async (_name, fileName, bytes, type) => {
    const path = join(sandbox.tempDir(), fileName);
    writeFileSync(path, bytes);
    const result = await sandbox.cli(["display-image", "attach", "1003", path, "--dry-run", "--json"]);
    expectExit(result, 0);
    expect(JSON.parse(result.stdout).request.body).toEqual({ image: { filename: fileName, size: bytes.length, content_type: type } });
  });

  it("attach from stdin names the image after its type", async () => {
    const result = await sandbox.cli(["display-image", "attach", "1003", "-", "--dry-run", "--json"], { stdin: gif() });
    expectExit(result, 0);
    expect(JSON.parse(result.stdout).request.body).toEqual({
      image: { filename: "display-image.gif", size: gif().length, content_type: "image/gif" },
    });
  });
});
