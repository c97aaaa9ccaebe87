/**
 * Bad input to the changing commands: each refused with its message and exit 2 before anything
 * is sent — the sandbox counts no request at all.
 */
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../fixtures/images.js";
import { expectExit, GET_INTAKE, POST_DISPLAY_IMAGE, startTestSandbox, type RunOptions, type TestSandbox } from "./harness.js";
import { MAX_DISPLAY_IMAGE_BYTES } from "../../../src/records/fields.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Runs the CLI and checks it exited 2 with this message and sent no request. */
async function refusedBeforeSending(args: string[], message: string | RegExp, options: RunOptions = {}) {
  const total = sandbox.handle.stats().total_requests;
  const result = await sandbox.cli(args, options);
  expectExit(result, 2);
  if (typeof message === "string") expect(result.stderr).toContain(`error: ${message}`);
  else expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe("");
  expect(sandbox.handle.stats().total_requests).toBe(total);
  return result;
}

describe("set-quantity: bad quantities are usage errors, nothing sent", () => {
  it.each([
    [["1001", "0"], "quantity must be more than 0 g, got 0"],
    [["1001", "--", "-5"], "quantity must be more than 0 g, got -5"],
    [["1001", "150g"], 'quantity: "150g" is not a number of grams: write 150'],
    [["1001", "1e400"], 'quantity: "1e400" is not a number of grams'],
    [["1001", "NaN"], 'quantity: "NaN" is not a number of grams'],
    [["1001", "abc"], 'quantity: "abc" is not a number of grams'],
    [["1001", "12.5"], "quantity must be a whole number of grams for a recognition-only intake, got 12.5"],
    [["1002", "1="], '"1=" has no grams after "="'],
    [["1002", "=5"], '"=5" has no position before "="'],
    [["1002", "x=5"], '"x" is not a food item position (1, 2, … or manual1, manual2, …)'],
    [["1002", "1=150", "1=160"], "position 1 is given twice"],
    [["1002", "1=0"], "quantity of position 1 must be more than 0 g, got 0"],
    [["1002", "1=abc"], 'quantity of position 1: "abc" is not a number of grams'],
    [["1002", "1=150", "manual1=20"], 'positions mix segmentation (1, 2, …) and manual (manual1, …) forms: "manual1"'],
    [["abc", "100"], 'image_id must be a positive integer, got "abc"'],
  ])("%j", async (args, message) => {
    await refusedBeforeSending(["intake", "set-quantity", ...args], message);
  });

  it("a missing quantity is a usage error", async () => {
    await refusedBeforeSending(["intake", "set-quantity", "1002"], /error: missing required argument 'values'/);
  });
});

describe("set-modifiers: bad flags and positions are usage errors, nothing sent", () => {
  it.each([
    [["1002", "1", "1", "--salt", "low"], "position 1 is given twice"],
    [["1002", "1", "--salt", "extra"], '--salt must be one of none, low, medium, high, got "extra"'],
    [["1002", "1", "--oil", "HIGH"], '--oil must be one of none, low, medium, high, got "HIGH"'],
    [["1002", "1"], "nothing to change: give at least one of --salt, --sugar, --oil, --measures"],
    [["1002", "1", "--all-items", "--salt", "low"], "give positions or --all-items, not both"],
    [["1002", "one", "--salt", "low"], '"one" is not a food item position'],
  ])("%j", async (args, message) => {
    await refusedBeforeSending(["intake", "set-modifiers", ...args], message);
  });
});

describe("display-image attach: files that are not a usable image are usage errors, nothing sent", () => {
  let dir: string;
  beforeAll(() => {
    dir = sandbox.tempDir();
  });
  const file = (name: string, bytes: Buffer | string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it("an empty file", async () => {
    const path = file("empty.png", Buffer.alloc(0));
    await refusedBeforeSending(["display-image", "attach", "1003", path], `${path} is empty: no image to attach`);
  });

  it("a valid PNG of 1 MiB + 1 byte", async () => {
    const path = file("big.png", png(16, 16, { totalBytes: MAX_DISPLAY_IMAGE_BYTES + 1 }));
    await refusedBeforeSending(
      ["display-image", "attach", "1003", path],
      `${path} is 1,048,577 bytes; display images are limited to 1 MiB (1,048,576 bytes)`,
    );
  });

  it("a text file named .jpg", async () => {
    const path = file("notes.jpg", "just some text, not a photo\n");
    await refusedBeforeSending(
      ["display-image", "attach", "1003", path],
      `${path} is not a JPEG, PNG, GIF or WebP image (judged by its bytes, not its name)`,
    );
  });

  it("a directory", async () => {
    const path = join(dir, "folder.png");
    mkdirSync(path);
    await refusedBeforeSending(["display-image", "attach", "1003", path], `${path} is a directory, not an image file`);
  });

  it("a missing path", async () => {
    const path = join(dir, "nowhere.png");
    await refusedBeforeSending(["display-image", "attach", "1003", path], `no such file: ${path}`);
  });

  describe("a file the user may not read", () => {
    // Root reads everything, so as root the CLI runs as nobody (65534), against a root-owned 0600 file.
    const asRoot = process.getuid?.() === 0;
    const nobody = { uid: 65534, gid: 65534 };
    let runAs: RunOptions;
    beforeAll(() => {
      const home = sandbox.tempDir();
      if (asRoot) chownSync(home, nobody.uid, nobody.gid);
      runAs = { env: { XDG_CONFIG_HOME: home, HOME: home }, ...(asRoot ? { spawn: nobody } : {}) };
      chmodSync(dir, 0o755);
    });

    it("is refused with permission denied", async () => {
      const path = file("secret.png", png(4, 4));
      chmodSync(path, asRoot ? 0o600 : 0o000);
      await refusedBeforeSending(["display-image", "attach", "1003", path], `cannot read ${path}: permission denied`, runAs);
    });

    it("while the same user attaches a readable file (the refusal was the permission, nothing else)", async () => {
      const path = file("public.png", png(4, 4));
      chmodSync(path, 0o644);
      const count = sandbox.countRequests();
      const result = await sandbox.cli(["display-image", "attach", "1003", path], runAs);
      expectExit(result, 0);
      expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_DISPLAY_IMAGE]: 1 });
    });
  });

  it.each([
    ["empty stdin", Buffer.alloc(0), "stdin is empty: no image to attach"],
    ["text on stdin", Buffer.from("hello"), "stdin is not a JPEG, PNG, GIF or WebP image (judged by its bytes, not its name)"],
    [
      "more than 1 MiB on stdin",
      png(16, 16, { totalBytes: MAX_DISPLAY_IMAGE_BYTES + 1 }),
      "stdin holds more than 1,048,576 bytes; display images are limited to 1 MiB (1,048,576 bytes)",
    ],
  ])("%s", async (_name, stdin, message) => {
    await refusedBeforeSending(["display-image", "attach", "1003", "-"], message, { stdin });
  });
});

describe("display-image remove", () => {
  it("with no terminal and no --yes", async () => {
    const result = await refusedBeforeSending(
      ["display-image", "remove", "1005"],
      "not on a terminal: pass --yes to remove the display image",
    );
    expect(result.stderr).toContain("hint: nothing was sent");
  });
});
