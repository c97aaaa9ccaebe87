import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect, tempConfigHome } from "../../helpers/cli.js";
import type { IntakeRecord } from "../../../src/sandbox/render.js";
import { gif, png } from "../../fixtures/images.js";
import {
  DELETE_DISPLAY_IMAGE,
  expectExit,
  foodsAndNutrition,
  GET_INTAKE,
  POST_DISPLAY_IMAGE,
  startTestSandbox,
  type TestSandbox,
} from "./harness.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../../../src/records/fields.js";

let sandbox: TestSandbox;
/** The intakes as seeded, before any test of this file changed them. */
const seeded = new Map<number, IntakeRecord>();
beforeAll(async () => {
  sandbox = await startTestSandbox();
  for (const imageId of [1003, 1004, 1005, 2003, 3001, 4002]) seeded.set(imageId, sandbox.intake(imageId));
});
afterAll(() => sandbox.close());

function writeImage(name: string, bytes: Buffer): string {
  const path = join(sandbox.tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

async function served(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("display-image attach against the sandbox", () => {
  it("attaches an image to a manual intake: image_url serves it, processed_image_size holds its dimensions", async () => {
    const before = sandbox.intake(1003);
    expect(before.has_display_image).toBe(false);
    const image = png(12, 8);
    const path = writeImage("plate.png", image);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "attach", "1003", path]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_DISPLAY_IMAGE]: 1 });

    const after = sandbox.intake(1003);
    expect(after.has_display_image).toBe(true);
    expect(after.processed_image_size).toEqual({ width: 12, height: 8 });
    expect(after.image_url).not.toBe(before.image_url);
    expect(await served(after.image_url)).toEqual({ status: 200, type: "image/png", bytes: image });
    // docs/api.md, display image rule 2: foods, recipes, quantities, nutrition, timestamp and occasion stay as they were.
    expect(foodsAndNutrition(after)).toEqual(foodsAndNutrition(before));
    const size = before.processed_image_size!;
    expect(result.stdout).toBe(
      "row\timage_id\tposition\tfood\tfield\tbefore\tafter\tunit\n" +
        `image\t1003\t-\t-\tdisplay_image\tnormal image ${before.image_url} (${size.width}×${size.height})\tdisplay image ${after.image_url} (12×8)\t-\n`,
    );
  });

  it("replaces an existing display image (display image rule 3): the old one is no longer served", async () => {
    const before = sandbox.intake(1005);
    expect(before.has_display_image).toBe(true);
    expect((await served(before.image_url)).status).toBe(200);
    const image = png(20, 10, { rgb: [10, 200, 30] });
    const result = await sandbox.cli(["display-image", "attach", "1005", writeImage("new.png", image)]);
    expectExit(result, 0);

    const after = sandbox.intake(1005);
    expect(after.has_display_image).toBe(true);
    expect(after.image_url).not.toBe(before.image_url);
    expect(after.processed_image_size).toEqual({ width: 20, height: 10 });
    expect((await served(after.image_url)).bytes).toEqual(image);
    expect((await served(before.image_url)).status).toBe(404);
    expect(foodsAndNutrition(after)).toEqual(foodsAndNutrition(before));
    expect(result.stdout).toContain(`\tdisplay image ${before.image_url} (80×60)\tdisplay image ${after.image_url} (20×10)\t`);
  });

  it("judges the type by the bytes, not the name: a PNG named .jpg is sent and served as image/png", async () => {
    const image = png(5, 5);
    const dryRun = await sandbox.cli(["display-image", "attach", "3001", writeImage("photo.jpg", image), "--dry-run", "--json"], {
      as: "carol",
    });
    expectExit(dryRun, 0);
    expect(JSON.parse(dryRun.stdout).request.body).toEqual({
      image: { filename: "photo.jpg", size: image.length, content_type: "image/png" },
    });
    const result = await sandbox.cli(["display-image", "attach", "3001", writeImage("photo.jpg", image)], { as: "carol" });
    expectExit(result, 0);
    expect(await served(sandbox.intake(3001).image_url)).toEqual({ status: 200, type: "image/png", bytes: image });
  });

  it("accepts a valid PNG of exactly 1 MiB", async () => {
    const image = png(16, 16, { totalBytes: MAX_DISPLAY_IMAGE_BYTES });
    expect(image.length).toBe(1_048_576);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "attach", "4002", writeImage("big.png", image)], { as: "erin" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_DISPLAY_IMAGE]: 1 });
    const after = sandbox.intake(4002);
    expect(after.processed_image_size).toEqual({ width: 16, height: 16 });
    expect((await served(after.image_url)).bytes.equals(image)).toBe(true);
  });

  it("reads the image from stdin with -", async () => {
    const image = png(7, 3);
    const result = await sandbox.cli(["display-image", "attach", "2003", "-", "--json"], { as: "bob", stdin: image });
    expectExit(result, 0);
    const after = sandbox.intake(2003);
    expect(after.processed_image_size).toEqual({ width: 7, height: 3 });
    expect((await served(after.image_url)).bytes).toEqual(image);
    expect(JSON.parse(result.stdout).intake_info.image_url).toBe(after.image_url);
  });

  it("--json prints the intake after the change exactly as a following `intake show --json` does", async () => {
    const result = await sandbox.cli(["display-image", "attach", "1004", writeImage("a.gif", gif()), "--json"]);
    expectExit(result, 0);
    const show = await sandbox.cli(["intake", "show", "1004", "--json"]);
    expect(result.stdout).toBe(show.stdout);
    expect(JSON.parse(result.stdout).intake_info).toMatchObject({ has_display_image: true, processed_image_size: { width: 1, height: 1 } });
  });

  it("--no-verify --json skips the read after and prints the intake the upload's answer carries", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "attach", "1003", writeImage("c.png", png(6, 6)), "--no-verify", "--json"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 1, [POST_DISPLAY_IMAGE]: 1 });
    const show = await sandbox.cli(["intake", "show", "1003", "--json"]);
    expect(result.stdout).toBe(show.stdout);
    expect(JSON.parse(result.stdout).intake_info.processed_image_size).toEqual({ width: 6, height: 6 });
  });

  it.each([
    ["a recognition-only", 1001, "recognition-only"],
    ["a segmentation", 1002, "segmentation"],
  ])("refuses %s intake after reading it, before sending the image (exit 7)", async (_name, imageId, kind) => {
    const before = sandbox.intake(imageId);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "attach", String(imageId), writeImage("ok.png", png(4, 4))]);
    expectExit(result, 7);
    expect(result.stderr).toBe(
      `error: intake ${imageId} is a ${kind} intake: only manual intakes have a display image\nhint: nothing was sent\n`,
    );
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
    expect(sandbox.intake(imageId)).toEqual(before);
  });
});

describe("display-image remove against the sandbox", () => {
  it("after remove, image_url is the normal image again; foods, nutrition, timestamp and occasion never change", async () => {
    // 1004: a manual intake stored as APIImage; a GIF was attached above, now a PNG replaces it.
    const original = seeded.get(1004)!;
    expect(original.has_display_image).toBe(false);
    expect(sandbox.intake(1004).has_display_image).toBe(true);
    const attached = await sandbox.cli(["display-image", "attach", "1004", writeImage("b.png", png(9, 9))]);
    expectExit(attached, 0);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "remove", "1004", "--yes"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [DELETE_DISPLAY_IMAGE]: 1 });

    const after = sandbox.intake(1004);
    expect(after.has_display_image).toBe(false);
    expect(after.image_url).toBe(original.image_url);
    expect(after.processed_image_size).toEqual(original.processed_image_size);
    expect(await served(after.image_url)).toMatchObject({ status: 200, type: "image/png" });
    expect(after).toEqual(original);
    expect(result.stdout).toMatch(
      /^row\t.*\nimage\t1004\t-\t-\tdisplay_image\tdisplay image \S+ \(9×9\)\tnormal image \S+ \(40×40\)\t-\n$/,
    );
  });

  it("--json prints the intake after removal exactly as `intake show --json` does", async () => {
    const result = await sandbox.cli(["display-image", "remove", "3001", "--yes", "--json"], { as: "carol" });
    expectExit(result, 0);
    const show = await sandbox.cli(["intake", "show", "3001", "--json"], { as: "carol" });
    expect(result.stdout).toBe(show.stdout);
    expect(JSON.parse(result.stdout).intake_info.has_display_image).toBe(false);
    expect(foodsAndNutrition(sandbox.intake(3001))).toEqual(foodsAndNutrition(seeded.get(3001)!));
  });

  it("removing when there is no display image sends no DELETE and exits 0", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "remove", "1004", "--yes"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("intake 1004 has no display image: nothing to remove\n");
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("refuses a segmentation intake after reading it (exit 7)", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "remove", "3002", "--yes"], { as: "carol" });
    expectExit(result, 7);
    expect(result.stderr).toContain("error: intake 3002 is a segmentation intake: only manual intakes have a display image");
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("with no terminal and no --yes exits 2 and sends nothing", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "remove", "1005"]);
    expectExit(result, 2);
    expect(result.stderr).toBe("error: not on a terminal: pass --yes to remove the display image\nhint: nothing was sent\n");
    expect(count()).toEqual({});
    expect(sandbox.intake(1005).has_display_image).toBe(true);
  });

  describe("on a terminal it asks first, default no", () => {
    /** Starts the built CLI under `script`, so stdin, stdout and stderr are a pseudo-terminal. */
    function spawnOnTerminal(args: string[]) {
      const command = [process.execPath, cliBin(), ...args].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
      return spawn("script", ["-qec", command, "/dev/null"], {
        env: baseEnv({
          XDG_CONFIG_HOME: tempConfigHome(),
          FOODCTL_API_URL: sandbox.url,
          FOODCTL_TOKEN: sandbox.token("alice"),
          TERM: "xterm",
          COLUMNS: "120",
        }),
        stdio: ["pipe", "pipe", "pipe"],
      });
    }

    function onTerminal(args: string[], keys: string) {
      return collect(spawnOnTerminal(args), { stdin: keys, timeoutMs: 15_000 });
    }

    it("declining exits 3 and sends nothing but the read", async () => {
      const count = sandbox.countRequests();
      const result = await onTerminal(["display-image", "remove", "1005"], "n\r");
      expect(result.code).toBe(3);
      expect(result.stdout).toContain("Remove the display image of intake 1005");
      expect(result.stdout).toContain("cancelled: nothing was sent");
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
      expect(sandbox.intake(1005).has_display_image).toBe(true);
    });

    it("just pressing Enter takes the default, no", async () => {
      const count = sandbox.countRequests();
      const result = await onTerminal(["display-image", "remove", "1005"], "\r");
      expect(result.code).toBe(3);
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
    });

    it("Ctrl-C at the question exits 130 (interrupted; 3 is for answering no) and sends nothing but the read", async () => {
      const count = sandbox.countRequests();
      const child = spawnOnTerminal(["display-image", "remove", "1005"]);
      // The key only once the question is up (raw mode): earlier, the terminal would turn it into SIGINT.
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (chunk.toString().includes("Remove the display image")) child.stdin.end("\u0003");
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await new Promise<number | null>((resolve) => child.on("close", (exitCode) => resolve(exitCode)));
      clearTimeout(timer);
      const result = { code, stdout };
      expect(result.code).toBe(130);
      expect(result.stdout).toContain("interrupted at the prompt: nothing was sent");
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
      expect(sandbox.intake(1005).has_display_image).toBe(true);
    });

    it("answering yes removes it", async () => {
      const result = await onTerminal(["display-image", "remove", "1005"], "y\r");
      expect(result.code).toBe(0);
      expect(sandbox.intake(1005).has_display_image).toBe(false);
    });
  });
});
