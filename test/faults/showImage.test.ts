/**
 * `intake show --image` and `--web` against a fault server: the picture drawn on a terminal (kitty's
 * protocol, iTerm2's, else half-blocks), its URL when piped, what is not drawn (too large, not an
 * image, unreadable: said with the URL, exit 0), and the safety rules for the fetch (no token, https
 * or this machine, a size cap, a timeout, nothing on this machine's network for a remote API).
 */
import { PNG } from "pngjs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, runFoodctl } from "../helpers/cli.js";
import { fakeClock } from "../helpers/clock.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { scriptedTransport } from "../helpers/transport.js";
import { blackPng, LEFT_RED, png, RIGHT_BLUE, twoTone } from "../fixtures/images.js";
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
/** A terminal without an image protocol or 24-bit colour, whatever the one running the tests has. */
const PLAIN_TERMINAL = {
  TERM: "xterm-256color",
  TERM_PROGRAM: undefined,
  KITTY_WINDOW_ID: undefined,
  LC_TERMINAL: undefined,
  KONSOLE_VERSION: undefined,
  COLORTERM: undefined,
  TMUX: undefined,
  STY: undefined,
};
const show = (args: string[], options: { tty?: boolean; env?: Record<string, string | undefined> } = {}) =>
  runFoodctl(["intake", "show", "1002", ...args], {
    tty: options.tty ?? true,
    columns: 80,
    clock: fakeClock({ deadline: server.holdDeadline }),
    env: { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: token, NO_COLOR: "1", FOODCTL_RETRIES: "0", ...PLAIN_TERMINAL, ...options.env },
  });
/** The image route answering these bytes. */
const serveImage = (body: Buffer) => server.route(IMAGE, { kind: "raw", status: 200, body, headers: { "content-type": "image/png" } });
const stripStyles = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
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

  it("does not draw an image over 10 MB, read no further than that: says so with its URL, exit 0", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, faults.huge(true, 10_000_001));
    const result = await show(["--image"]);
    expectExit(result, 0);
    expect(result.stdout).toContain("spaghetti bolognese");
    expect(result.stderr).toBe(`the image is larger than 10 MB: not drawn; it is at ${server.url}/images/plate.png\n`);
  });

  it("does not decode a 10,000 × 10,000 PNG: its header says too large, and the intake is still shown (exit 0)", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    serveImage(blackPng(10_000, 10_000));
    // Its time and memory, measured in a process of its own: test/e2e/terminal.test.ts.
    const result = await show(["--image"]);
    expectExit(result, 0);
    expect(result.stdout).toContain("spaghetti bolognese");
    expect(result.stdout).not.toContain("\u2584");
    expect(result.stderr).toBe(
      `the image is not drawn: it is 10000 × 10000 pixels, more than foodctl draws (at most 4096 × 4096, 16 megapixels); it is at ${server.url}/images/plate.png\n`,
    );
  });
  it("an image host that never answers: exit 8 after the timeout", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    server.route(IMAGE, faults.hang());
    const result = await show(["--image"]);
    expectErrorLine(result, 8, /cannot fetch the image from 127\.0\.0\.1:\d+/);
  });

  it.each([
    [4096, 2, true],
    [4097, 2, false],
    [2, 4097, false],
  ])("a %i × %i PNG is drawn: %s (at most 4096 on a side)", async (width, height, drawn) => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    serveImage(blackPng(width, height));
    const result = await show(["--image"]);
    expectExit(result, 0);
    expect(/[\u2580\u2584]/.test(result.stdout)).toBe(drawn);
    if (drawn) expect(result.stderr).toBe("");
    else expect(result.stderr).toContain(`it is ${width} × ${height} pixels, more than foodctl draws`);
  });

  it.each([
    ["bytes that are no image", Buffer.from("not a picture"), "the image is not a JPEG, PNG, GIF or WebP foodctl can read: not drawn"],
    ["a TIFF", Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]), "the image is not a JPEG, PNG, GIF or WebP foodctl can read"],
    ["a PNG cut short", twoTone("png").subarray(0, 60), "the image cannot be drawn ("],
  ])("%s: not drawn, said with its URL, exit 0", async (_what, body, message) => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    serveImage(body);
    const result = await show(["--image"]);
    expectExit(result, 0);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(new RegExp(`; it is at ${server.url}/images/plate\\.png\n$`));
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

/** The PNG a kitty or iTerm2 sequence carries, decoded. */
const carriedPng = (base64: string) => PNG.sync.read(Buffer.from(base64, "base64"));
const colourAt = (image: { width: number; data: Uint8Array }, x: number, y: number) => [
  ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3),
];

describe("intake show --image in each kind of terminal", () => {
  const drawTwoTone = async (format: Parameters<typeof twoTone>[0], env: Record<string, string | undefined>) => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    serveImage(twoTone(format));
    const result = await show(["--image"], { env });
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    return result.stdout.slice(result.stdout.indexOf("spaghetti bolognese"));
  };

  it.each([
    ["kitty", { KITTY_WINDOW_ID: "1", TERM: "xterm-kitty" }],
    ["Ghostty", { TERM_PROGRAM: "ghostty", TERM: "xterm-ghostty" }],
  ])("%s: kitty's graphics protocol, the picture as a PNG over 40 × 10 cells, asking no reply", async (_terminal, env) => {
    const drawn = await drawTwoTone("png", env);
    const match = /\u001b_Ga=T,f=100,q=2,c=40,r=10,m=0;([A-Za-z0-9+/=]+)\u001b\\\n$/.exec(drawn);
    expect(match, JSON.stringify(drawn.slice(-200))).not.toBeNull();
    const carried = carriedPng(match![1]!);
    expect([carried.width, carried.height]).toEqual([16, 8]);
    expect([colourAt(carried, 0, 0), colourAt(carried, 15, 7)]).toEqual([LEFT_RED, RIGHT_BLUE]);
    expect(drawn).not.toContain("\u2584");
  });

  it.each([
    ["iTerm2", { TERM_PROGRAM: "iTerm.app" }],
    ["WezTerm", { TERM_PROGRAM: "WezTerm" }],
  ])("%s: an iTerm2 inline image, the picture as a PNG over 40 × 10 cells", async (_terminal, env) => {
    const drawn = await drawTwoTone("png", env);
    const match = /\u001b\]1337;File=inline=1;size=(\d+);width=40;height=10;preserveAspectRatio=1:([A-Za-z0-9+/=]+)\u0007\n$/.exec(drawn);
    expect(match, JSON.stringify(drawn.slice(-200))).not.toBeNull();
    expect(Buffer.from(match![2]!, "base64").length).toBe(Number(match![1]));
    const carried = carriedPng(match![2]!);
    expect([colourAt(carried, 0, 0), colourAt(carried, 15, 7)]).toEqual([LEFT_RED, RIGHT_BLUE]);
  });

  it("kitty inside tmux: half-blocks, which tmux passes on", async () => {
    const drawn = await drawTwoTone("png", { KITTY_WINDOW_ID: "1", TERM: "tmux-256color", TMUX: "/tmp/tmux-0/default,1,0" });
    expect(drawn).not.toContain("\u001b_G");
    expect(drawn.split("\n").filter((line) => line.includes("\u2584"))).toHaveLength(10);
  });

  it.each([
    ["png", 0],
    ["gif", 0],
    ["webp", 0],
    ["jpeg", 12],
    ["webp-lossy", 40],
  ] as const)(
    "%s in half-blocks with 24-bit colour: red on the left, blue on the right, 40 columns by 10 lines",
    async (format, tolerance) => {
      const drawn = await drawTwoTone(format, { COLORTERM: "truecolor" });
      const lines = drawn.split("\n").filter((line) => line.includes("\u2584"));
      expect(lines).toHaveLength(10);
      expect(lines.every((line) => [...stripStyles(line)].length === 40)).toBe(true);
      const colours = (line: string) =>
        [...line.matchAll(/48;2;(\d+);(\d+);(\d+);38;2;(\d+);(\d+);(\d+)m/g)].map((m) => m.slice(1, 4).map(Number));
      const near = (actual: number[] | undefined, expected: number[]) =>
        actual!.every((value, i) => Math.abs(value - expected[i]!) <= tolerance);
      expect(near(colours(lines[4]!)[0], LEFT_RED), lines[4]).toBe(true);
      expect(near(colours(lines[4]!).at(-1), RIGHT_BLUE), lines[4]).toBe(true);
    },
  );

  it("a JPEG turned by its EXIF orientation (6: a quarter turn clockwise) is drawn upright: red above blue, 20 columns by 20 lines", async () => {
    server.route(INTAKE, faults.intake(withImage(`${server.url}/images/plate.png`)));
    serveImage(twoTone("jpeg", { orientation: 6 }));
    const result = await show(["--image"], { env: { COLORTERM: "truecolor" } });
    expectExit(result, 0);
    const lines = result.stdout.split("\n").filter((line) => line.includes("\u2584"));
    expect(lines).toHaveLength(20);
    expect([...stripStyles(lines[0]!)]).toHaveLength(20);
    const first = (line: string) => /48;2;(\d+);(\d+);(\d+)/.exec(line)!.slice(1).map(Number);
    expect(first(lines[1]!)[0]).toBeGreaterThan(200);
    expect(first(lines[18]!)[2]).toBeGreaterThan(200);
  });
});

describe("an image on this machine or its network, named by a remote API (N5)", () => {
  const API = "https://api.example.com";
  const remote = async (imageUrl: string, args: string[]) => {
    const api = scriptedTransport().route(INTAKE, faults.intake(withImage(imageUrl)));
    const result = await runFoodctl(["intake", "show", "1002", ...args], {
      tty: true,
      columns: 80,
      transport: api.transport,
      env: { FOODCTL_API_URL: API, FOODCTL_TOKEN: token, NO_COLOR: "1", DISPLAY: ":0", ...PLAIN_TERMINAL },
    });
    // Only the intake was read: no request for the image (an unscripted route would fail the run).
    expect(api.requests.map((request) => request.route)).toEqual([INTAKE]);
    return result;
  };

  it.each([
    ["http://127.0.0.1:8080/plate.png", "127.0.0.1"],
    ["http://localhost:631/admin", "localhost, 127.0.0.1"],
    ["http://[::1]:9000/plate.png", "::1"],
    ["https://10.1.2.3/plate.png", "10.1.2.3"],
    ["https://192.168.0.10/plate.png", "192.168.0.10"],
    ["https://172.20.0.5/plate.png", "172.20.0.5"],
    ["https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["https://[fe80::1]/plate.png", "fe80::1"],
    ["https://[fd12:3456::1]/plate.png", "fd12:3456::1"],
    ["https://[::ffff:192.168.1.1]/plate.png", "::ffff:c0a8:101"],
    ["https://0x7f.1/plate.png", "127.0.0.1"],
  ])("--image: %s is not fetched; says why and prints the URL (exit 1)", async (imageUrl, where) => {
    const result = await remote(imageUrl, ["--image"]);
    expectErrorLine(
      result,
      1,
      `the API at api.example.com points at an image on this machine or its local network (${where}): not fetched; it is at ${new URL(imageUrl).href}`,
    );
    expect(result.stdout).toContain("spaghetti bolognese");
  });

  it("--web: a private address is not opened", async () => {
    const result = await remote("https://10.1.2.3/plate.png", ["--web"]);
    expectErrorLine(result, 1, "(10.1.2.3): not opened; it is at https://10.1.2.3/plate.png");
  });

  it("the image on the API's own host is fetched", async () => {
    const api = scriptedTransport()
      .route(INTAKE, faults.intake(withImage("https://api.example.com/images/plate.png")))
      .route("GET /images/plate.png", { kind: "raw", status: 200, body: png(16, 8) });
    const result = await runFoodctl(["intake", "show", "1002", "--image"], {
      tty: true,
      columns: 80,
      transport: api.transport,
      env: { FOODCTL_API_URL: API, FOODCTL_TOKEN: token, NO_COLOR: "1", ...PLAIN_TERMINAL },
    });
    expectExit(result, 0);
    expect(result.stdout.split("\n").filter((line) => line.includes("\u2584"))).toHaveLength(10);
  });
});
