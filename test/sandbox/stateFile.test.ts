/** `--state <file>`: load at start, atomic save after every change, refuse a corrupt file. */
import { existsSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox, StateFileError, StateLockedError } from "../../src/sandbox/server.js";
import { runTempDir } from "../helpers/tempDir.js";
import { fetchJson } from "../helpers/sandbox.js";
import { imageForm, JPEG, type Json } from "./fixtures.js";

/** A folder inside the run's folder, removed with it. */
const tempDir = () => runTempDir("foodctl-sandbox-state-");

describe("state file", () => {
  it("a new state file is written at start with mode 0600", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    const handle = await startSandbox({ port: 0, statePath: path });
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(path, "utf8")).format).toBe("foodctl-sandbox-state");
    } finally {
      await handle.close();
    }
  });

  it("changes, display images and the secret survive a restart", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    const first = await startSandbox({ port: 0, statePath: path });
    let token: string;
    let changed: unknown;
    try {
      token = first.tokenFor("alice");
      expect(
        (
          await fetchJson(first, "POST", "/v2/nutrition/confirm/quantity", {
            as: "alice",
            body: { imageId: 1002, quantity: { "2": 99.5 }, salt: { "1": "high" } },
          })
        ).status,
      ).toBe(200);
      expect((await fetchJson(first, "POST", "/v2/intake/1003/display_image", { as: "alice", rawBody: imageForm(JPEG) })).status).toBe(200);
      expect((await fetchJson(first, "DELETE", "/v2/intake/1005/display_image", { as: "alice" })).status).toBe(200);
      changed = [first.intake(1002), first.intake(1003), first.intake(1005)];
    } finally {
      await first.close();
    }
    expect(readdirSync(dir)).toEqual(["state.json"]);

    const second = await startSandbox({ port: 0, statePath: path });
    try {
      const urlless = (record: unknown) => JSON.parse(JSON.stringify(record).replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, "BASE"));
      expect(urlless([second.intake(1002), second.intake(1003), second.intake(1005)])).toEqual(urlless(changed));
      const answer = await fetchJson(second, "GET", "/v2/intake/1003", { token });
      expect(answer.status).toBe(200);
      const image = await fetch((answer.body as Json).intake_info.image_url);
      expect(Buffer.from(await image.arrayBuffer()).equals(JPEG)).toBe(true);
      expect(second.stats().nutrition_calculations).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("every change is on disk before it is answered", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    const handle = await startSandbox({ port: 0, statePath: path });
    try {
      await fetchJson(handle, "POST", "/v2/nutrition/confirm/quantity", { as: "bob", body: { imageId: 2001, quantity: 777 } });
      const stored = JSON.parse(readFileSync(path, "utf8"));
      expect(stored.intakes.find((intake: Json) => intake.imageId === 2001).items[0].servingSize).toBe(777);
    } finally {
      await handle.close();
    }
  });

  const corrupt: Array<[string, string]> = [
    ["not JSON", "{not json"],
    ["empty", ""],
    ["JSON of another shape", JSON.stringify({ hello: "world" })],
    [
      "a state with a broken intake",
      JSON.stringify({ format: "foodctl-sandbox-state", version: 1, secret: "x".repeat(32), intakes: [{ imageId: 1 }], images: {} }),
    ],
  ];
  for (const [label, text] of corrupt) {
    it(`a corrupt state file (${label}) is refused with a one-line StateFileError and left untouched`, async () => {
      const dir = tempDir();
      const path = join(dir, "state.json");
      writeFileSync(path, text);
      const mtime = statSync(path).mtimeMs;
      const error = await startSandbox({ port: 0, statePath: path }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).not.toContain("\n");
      expect(readFileSync(path, "utf8")).toBe(text);
      expect(statSync(path).mtimeMs).toBe(mtime);
      expect(readdirSync(dir)).toEqual(["state.json"]);
    });
  }

  it("a state file in a folder that does not exist is refused at start", async () => {
    const error = await startSandbox({ port: 0, statePath: join(tempDir(), "missing", "state.json") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateFileError);
  });
});

describe("a state file reached through a link (--state through a symbolic or a hard link)", () => {
  it("through a symbolic link: the lock is the real file's, so a second sandbox on either name is refused, and saves keep the link a link", async () => {
    const dir = tempDir();
    const real = join(dir, "state.json");
    const link = join(dir, "link.json");
    symlinkSync("state.json", link);
    const first = await startSandbox({ port: 0, statePath: link });
    try {
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(existsSync(`${real}.lock`)).toBe(true);
      await expect(startSandbox({ port: 0, statePath: real })).rejects.toThrow(StateLockedError);
      await expect(startSandbox({ port: 0, statePath: link })).rejects.toThrow(StateLockedError);
      const changed = await fetchJson(first, "POST", "/v2/nutrition/confirm/quantity", {
        as: "alice",
        body: { imageId: 1001, quantity: 321 },
      });
      expect(changed.status).toBe(200);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(real, "utf8")).toContain("321");
    } finally {
      await first.close();
    }
    expect(existsSync(`${real}.lock`)).toBe(false);
    expect(existsSync(`${link}.lock`)).toBe(false);
  });

  it("through a symbolic link to a file not written yet: the file is created where the link points", async () => {
    const dir = tempDir();
    const link = join(dir, "link.json");
    symlinkSync("later.json", link);
    const sandbox = await startSandbox({ port: 0, statePath: link });
    await sandbox.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(join(dir, "later.json")).isFile()).toBe(true);
  });

  it("a file with a second hard link is refused with one StateFileError and left untouched", async () => {
    const dir = tempDir();
    const first = await startSandbox({ port: 0, statePath: join(dir, "state.json") });
    await first.close();
    linkSync(join(dir, "state.json"), join(dir, "other.json"));
    const before = readFileSync(join(dir, "state.json"), "utf8");
    for (const name of ["state.json", "other.json"]) {
      const refused = startSandbox({ port: 0, statePath: join(dir, name) });
      await expect(refused).rejects.toThrow(StateFileError);
      await expect(refused).rejects.toThrow(/has 2 hard links/);
    }
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(["other.json", "state.json"]);
  });
});
