/**
 * Before `display-image remove` foodctl keeps a copy of the image for undo, fetched from the
 * `image_url` the server names: only from the API's own host or over https. Anywhere else over
 * plain http it is not fetched, the run says so, and the journal records no copy (undo then says
 * it cannot bring the picture back). `localhost:<port>` reaches the same fault server under
 * another host name, so a fetch that should not happen would be counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFoodctl, tempConfigHome } from "../helpers/cli.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { manualIntake, signTestToken, TINY_PNG } from "./fixtures.js";

const READ = "GET /v2/intake/1003";
const REMOVE = "DELETE /v2/intake/1003/display_image";
const IMAGE = "GET /images/display-1003.png";
let server: FaultServer;
let token: string;

beforeAll(async () => {
  [server, token] = await Promise.all([startFaultServer(), signTestToken()]);
});
afterAll(async () => {
  await server.close();
});

function withImageAt(imageUrl: string) {
  return { ...manualIntake(1003, true), image_url: imageUrl };
}

async function remove(imageUrl: string) {
  server.reset();
  const home = tempConfigHome();
  server.route(READ, faults.intake(withImageAt(imageUrl)), faults.intake(manualIntake(1003, false)));
  server.route(REMOVE, faults.json(200, { message: "removed" }));
  const env = { FOODCTL_TOKEN: token, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home };
  const result = await runFoodctl(["--api-url", server.url, "--retries", "0", "display-image", "remove", "1003", "--yes"], { env });
  // Undo needs the picture: without a copy it refuses, saying why, and sends nothing.
  const undo = await runFoodctl(["--api-url", server.url, "undo", "--last", "--yes"], { env });
  return { result, undo };
}

describe("display-image remove: the copy for undo", () => {
  it("an image on another host over plain http is not fetched: the run says so, exit 0, no copy in the journal", async () => {
    const port = new URL(server.url).port;
    const { result, undo } = await remove(`http://localhost:${port}/images/display-1003.png`);
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(IMAGE)).toBe(0);
    expect(server.count(REMOVE)).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^warning: intake 1003: the display image is at http://localhost:${port}, neither the API's host nor https: it was not fetched`,
        "m",
      ),
    );
    expect(undo.stderr).toMatch(/kept no copy of the display image it replaced or removed/);
    expect(server.count("POST /v2/intake/1003/display_image")).toBe(0);
  });

  it("an image on the API's own host is fetched and kept", async () => {
    server.reset();
    const home = tempConfigHome();
    server.route(READ, faults.intake(withImageAt(`${server.url}/images/display-1003.png`)), faults.intake(manualIntake(1003, false)));
    server.route(REMOVE, faults.json(200, { message: "removed" }));
    server.route(IMAGE, { kind: "raw", status: 200, body: TINY_PNG, headers: { "content-type": "image/png" } });
    const env = { FOODCTL_TOKEN: token, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home };
    const result = await runFoodctl(["--api-url", server.url, "--retries", "0", "display-image", "remove", "1003", "--yes"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(IMAGE)).toBe(1);
    expect(result.stderr).not.toContain("warning");
  });
});
