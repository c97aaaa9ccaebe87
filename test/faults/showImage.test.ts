/**
 * `intake show --image` and `--web` against a fault server: the picture drawn on a terminal (half-blocks
 * where the terminal has no image protocol), its URL when piped, and the API's safety rules for the
 * fetch (no token, https or this machine, a size cap, a timeout).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, runFoodctl } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { png } from "../fixtures/images.js";
import { manualIntake, segmentationIntake, signTestToken } from "./fixtures.js";

let server: FaultServer;
let token: string;
beforeAll(async () => {
  server = await startFaultServer();
  token = await signTestToken();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const INTAKE = "GET /v2/intake/1002";
const IMAGE = "GET /images/plate.png";
const show = (args: string[], options: { tty?: boolean; env?: Record<string, string | undefined> } = {}) =>
  runFoodctl(["intake", "show", "1002", ...args], {
    tty: options.tty ?? true,
    columns: 80,
    clock: fakeClock({ deadline: server.holdDeadline }),
    env: { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: token, NO_COLOR: "1", FOODCTL_RETRIES: "0", ...options.env },
  });
const withImage = (url: string) => ({ ...segmentationIntake(1002), image_url: url });

describe("intake show --image", () => {
  it("draws the image below the summary in half-blocks on a terminal without an image protocol, without sending the token", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, { kind: "raw", status: 200, body: png(16, 8, { rgb: [230, 176, 74] }), headers: { "content-type": "image/png" } });
    const result = await show(["--image"]);
    expectExit(result, 0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/image_id\s+1002|^\s*1002/);
    // 16×8 pixels drawn 40 columns wide (the most it takes): 20 pixel rows, two to a line of half-blocks.
    const drawn = lines.filter((line) => line.includes("\u2584"));
    expect(drawn).toHaveLength(10);
    expect(drawn.every((line) => [...line.replace(/\u001b\[[0-9;]*m/g, "")].length === 40)).toBe(true);
    expect(result.stdout.indexOf("\u2584")).toBeGreaterThan(result.stdout.indexOf("spaghetti bolognese"));
    expect(server.requests.find((request) => request.route === IMAGE)?.headers.authorization).toBeUndefined();
  });

  it("prints just the display image's URL when stdout is not a terminal, and fetches nothing", async () => {
    const attached = { ...manualIntake(1002, true), image_url: `${server.url}/images/plate.png` };
    server.route(INTAKE, faults.intake(attached));
    const result = await show(["--image"], { tty: false });
    expectExit(result, 0);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(`${server.url}/images/plate.png`);
    expect(server.count(IMAGE)).toBe(0);
  });

  it.each([
    [
      "an http image on another host",
      "http://images.example.com/plate.png",
      /its image is not on https \(http:\/\/images\.example\.com\): not fetched/,
    ],
    ["an image_url that is not a URL", "plate.png", /its image_url is not a URL/],
  ])("refuses %s with one line, exit 1, nothing fetched", async (_what, url, message) => {
    server.route(INTAKE, faults.intake(withImage(url)));
    const result = await show(["--image"]);
    expectErrorLine(result, 1, message);
  });

  it("refuses an image over 8 MiB without reading it whole", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, faults.huge(true, 9 * 1024 * 1024));
    const result = await show(["--image"]);
    expectErrorLine(result, 1, /the image is larger than 8 MiB: not drawn/);
  });

  it("an image host that never answers: exit 8 after the timeout", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, faults.hang());
    const result = await show(["--image"]);
    expectErrorLine(result, 8, /cannot fetch the image from 127\.0\.0\.1:\d+/);
  });

  it("bytes that are no image: exit 1, one line", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, { kind: "raw", status: 200, body: "not a picture" });
    const result = await show(["--image"]);
    expectErrorLine(result, 1, /cannot be drawn/);
  });

  it("with --json: exit 2 before any request", async () => {
    const result = await runFoodctl(["intake", "show", "1002", "--image", "--json"], {
      env: { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: token },
    });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: "usage" } });
    expect(server.count()).toBe(0);
  });
});

describe("intake show --web", () => {
  it("without a display: prints the image's URL and says no browser can be opened", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    const result = await show(["--web"], { tty: false, env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined } });
    expectExit(result, 0);
    expect(result.stderr).toBe(`no browser to open here (no display): the image is at ${server.url}/images/plate.png\n`);
    expect(server.count(IMAGE)).toBe(0);
  });
});
