/**
 * `display-image attach` against faults on the upload: retried only for network errors, 429 and
 * 502-504, each attempt with the whole image; an upload answered with nothing is judged by
 * the read after it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { faults, type Reply } from "../helpers/faultServer.js";
import { manualIntake, signTestToken, TINY_PNG, tinyPngFile } from "./fixtures.js";
import { expectOneLineError, faultServerPairs, runAgainst } from "./harness.js";

const READ = "GET /v2/intake/1003";
const UPLOAD = "POST /v2/intake/1003/display_image";
let token: string;
let photo: string;

beforeAll(async () => {
  token = await signTestToken();
  photo = tinyPngFile();
});
const servers = faultServerPairs();

const before = () => faults.intake(manualIntake(1003, false));
const after = () => faults.intake(manualIntake(1003, true));

const uploadFaults: Array<{
  name: string;
  reply: () => Reply;
  args?: string[];
  uploads: number;
  exit: number;
  mentions: Array<string | RegExp>;
}> = [
  { name: "500 is not retried", reply: () => faults.internalError(), uploads: 1, exit: 8, mentions: ["answered 500"] },
  { name: "503 is retried twice", reply: () => faults.unavailable(), uploads: 3, exit: 8, mentions: ["answered 503"] },
  { name: "502 HTML is retried twice", reply: () => faults.badGatewayHtml(), uploads: 3, exit: 8, mentions: ["answered 502"] },
  { name: "429 with Retry-After: 1 is retried twice", reply: () => faults.rateLimited(1), uploads: 3, exit: 8, mentions: ["answered 429"] },
  { name: "a reset mid-body is retried twice", reply: () => faults.resetMidBody(), uploads: 3, exit: 8, mentions: ["unreachable"] },
  {
    name: "a hang past --timeout 1 is retried once",
    reply: () => faults.hang(),
    args: ["--timeout", "1", "--retries", "1"],
    uploads: 2,
    exit: 8,
    mentions: ["no answer within 1 s"],
  },
  {
    name: "409 (not manual) is not retried: exit 7",
    reply: () => faults.error(409, "not a manual intake"),
    uploads: 1,
    exit: 7,
    mentions: ["answered 409"],
  },
  {
    name: "413 is not retried: exit 7",
    reply: () => faults.error(413, "image over 1 MiB"),
    uploads: 1,
    exit: 7,
    mentions: ["answered 413"],
  },
  { name: "415 is not retried: exit 7", reply: () => faults.error(415, "not an image"), uploads: 1, exit: 7, mentions: ["answered 415"] },
  {
    name: "a 50 MB answer is refused: exit 1",
    reply: () => faults.huge(false),
    uploads: 1,
    exit: 1,
    mentions: ["unreadable response", /limit/],
  },
];

describe.concurrent("display-image attach: faults on the upload", () => {
  it.each(uploadFaults)("$name", async ({ reply, args = [], uploads, exit, mentions }) => {
    const { server } = await servers();
    server.route(READ, before());
    server.route(UPLOAD, reply());
    const result = await runAgainst(server, token, [...args, "display-image", "attach", "1003", photo]);
    expectOneLineError(result, exit, [server.host, ...mentions]);
    const sent = server.requests.filter((request) => request.route === UPLOAD);
    expect(sent).toHaveLength(uploads);
    for (const request of sent) {
      expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(request.bodySize).toBeGreaterThan(TINY_PNG.byteLength);
      expect(request.body.includes(TINY_PNG)).toBe(true);
    }
    expect(server.count(READ)).toBe(1);
    expect(result.stdout).toBe("");
  });

  it("an empty 200 to the upload is fine: the read after shows the display image", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPLOAD, faults.empty200());
    const result = await runAgainst(server, token, ["display-image", "attach", "1003", photo]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(READ)).toBe(2);
    expect(result.stdout).toMatch(/\tnormal image .*\tdisplay image /);
  });

  it("a 503 then a 200 uploads the image again, whole", async () => {
    const { server } = await servers();
    server.route(READ, before(), after());
    server.route(UPLOAD, faults.unavailable(), faults.intake(manualIntake(1003, true)));
    const result = await runAgainst(server, token, ["display-image", "attach", "1003", "-"], { stdin: TINY_PNG });
    expect(result.code, result.stderr).toBe(0);
    const sizes = server.requests.filter((request) => request.route === UPLOAD).map((request) => request.bodySize);
    expect(sizes).toHaveLength(2);
    expect(sizes[0]).toBe(sizes[1]);
  });

  it("does not follow a redirect of the upload to another host", async () => {
    const { server, other } = await servers();
    server.route(READ, before());
    server.route(UPLOAD, faults.redirect(`${other.url}/v2/intake/1003/display_image`, 308));
    const result = await runAgainst(server, token, ["display-image", "attach", "1003", photo]);
    expectOneLineError(result, 1, [server.host, "308", other.host]);
    expect(other.count()).toBe(0);
  });

  it("a failing read after the upload says the image was attached", async () => {
    const { server } = await servers();
    server.route(READ, before(), faults.unavailable());
    server.route(UPLOAD, faults.intake(manualIntake(1003, true)));
    const result = await runAgainst(server, token, ["--retries", "0", "display-image", "attach", "1003", photo]);
    expectOneLineError(result, 8, [server.host, "answered 503", /applied/]);
    expect(server.count(UPLOAD)).toBe(1);
  });

  it("a failing read before the upload sends no image", async () => {
    const { server } = await servers();
    server.route(READ, faults.badGatewayHtml());
    const result = await runAgainst(server, token, ["--retries", "1", "display-image", "attach", "1003", photo]);
    expectOneLineError(result, 8, [server.host, "answered 502"]);
    expect(server.count(READ)).toBe(2);
    expect(server.count(UPLOAD)).toBe(0);
  });
});
