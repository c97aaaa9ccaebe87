/** A display image over 1 MiB cannot be kept: the removal goes on, and says so here and in the journal. */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { manualIntake, signTestToken } from "../faults/fixtures.js";

let server: FaultServer;
let home: string;
beforeAll(async () => {
  server = await startFaultServer();
  home = mkdtempSync(join(tmpdir(), "foodctl-large-image-"));
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await server.close();
});

it("display-image remove of an image over 1 MiB: warns, removes it, and the entry notes that no copy was kept", async () => {
  const attached = { ...manualIntake(1003, true), image_url: `${server.url}/images/big.png` };
  server.route("GET /v2/intake/1003", faults.intake(attached), faults.intake(manualIntake(1003, false)));
  server.route("GET /images/big.png", faults.huge(true, 2 * 1024 * 1024));
  server.route("DELETE /v2/intake/1003/display_image", faults.intake(manualIntake(1003, false)));
  const token = await signTestToken();
  const env = { FOODCTL_API_URL: server.url, FOODCTL_TOKEN: token, XDG_STATE_HOME: home, XDG_CONFIG_HOME: home };
  const buffers = bufferIO({ env });
  const code = await run(["display-image", "remove", "1003", "--yes"], { io: buffers.io, signal: new AbortController().signal });
  expect(code).toBe(0);
  expect(buffers.stderr()).toContain(
    "warning: intake 1003: the display image is larger than 1 MiB: no copy was kept, undo cannot bring it back",
  );
  expect(server.requests.filter((request) => request.route === "GET /images/big.png")[0]?.headers.authorization).toBeUndefined();
  const list = bufferIO({ env });
  await run(["journal", "--json"], { io: list.io, signal: new AbortController().signal });
  const [entry] = JSON.parse(list.stdout());
  expect(entry).toMatchObject({ outcome: "applied", image_copy: null, notes: [expect.stringContaining("larger than 1 MiB")] });
  expect(readdirSync(join(home, "foodctl", "images"))).toEqual([]);
  const undo = bufferIO({ env });
  expect(await run(["undo", entry.id, "--yes"], { io: undo.io, signal: new AbortController().signal })).toBe(7);
  expect(undo.stderr()).toContain("kept no copy of the display image");
});
