/**
 * Acting for another user: a manager (dave, 201, manages 101 and 102) names the user with
 * --user; without it the API's 400 becomes a clear message (exit 7); a user it does not manage
 * is forbidden (exit 5).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../fixtures/images.js";
import { expectExit, GET_INTAKE, itemOf, POST_DISPLAY_IMAGE, POST_QUANTITY, startTestSandbox, type TestSandbox } from "./harness.js";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe("a manager acting for a user", () => {
  it("changes a quantity of a managed user's intake with --user 101", async () => {
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "1002", "2=120", "--user", "101"], { as: "dave" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
    expect(itemOf(sandbox.intake(1002), 2).recipe.serving_size).toBe(120);
    expect(result.stdout).toMatch(/^item\t1002\t2\tFresh fruit salad\tgrams\t150\t120\tg$/m);
  });

  it("modifiers follow the plan of the user acted for: alice (Monitor) applies, bob (Analyse) is warned", async () => {
    const forAlice = await sandbox.cli(["intake", "set-modifiers", "1002", "2", "--oil", "medium", "--user", "101"], { as: "dave" });
    expectExit(forAlice, 0);
    expect(forAlice.stderr).toBe("");
    expect(itemOf(sandbox.intake(1002), 2).recipe.oil).toBe("medium");

    const forBob = await sandbox.cli(["intake", "set-modifiers", "2002", "1", "--oil", "medium"], {
      as: "dave",
      env: { FOODCTL_USER: "102" },
    });
    expectExit(forBob, 0);
    expect(forBob.stderr).toContain(
      "warning: intake 2002: oil medium at position 1 (still low) did not take effect: the user's plan is probably below Monitor",
    );
    expect(itemOf(sandbox.intake(2002), 1).recipe.oil).toBe("low");
  });

  it("attaches a display image for a managed user (display image rule 5)", async () => {
    const path = join(sandbox.tempDir(), "p.png");
    writeFileSync(path, png(3, 3));
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["display-image", "attach", "2003", path, "--user", "102"], { as: "dave" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_DISPLAY_IMAGE]: 1 });
    expect(sandbox.intake(2003).processed_image_size).toEqual({ width: 3, height: 3 });
  });

  it.each([
    ["set-quantity", ["intake", "set-quantity", "1002", "1=100"], 1002],
    ["set-modifiers", ["intake", "set-modifiers", "1002", "1", "--salt", "none"], 1002],
    ["display-image remove", ["display-image", "remove", "1005", "--yes"], 1005],
  ])(
    "%s without --user: the API's 400 becomes a clear message naming --user, exit 7, only the refused read",
    async (_name, args, imageId) => {
      const before = sandbox.intake(imageId);
      const count = sandbox.countRequests();
      const result = await sandbox.cli(args, { as: "dave" });
      expectExit(result, 7);
      // The sandbox's own code for a missing user_id (docs/api.md, error codes) shows beside the status.
      const host = new URL(sandbox.url).host;
      const hint = "hint: this token acts for other users: name one with --user <id>";
      expect(result.stderr).toBe(`error: ${host} answered 400 (code 1201): user_id is required when acting as a manager\n${hint}\n`);
      expect(count()).toEqual({ [GET_INTAKE]: 1 });
      expect(sandbox.intake(imageId)).toEqual(before);
    },
  );

  it("without --user under --json the error is one JSON document with the same message", async () => {
    const result = await sandbox.cli(["intake", "set-quantity", "1002", "1=100", "--json"], { as: "dave" });
    expectExit(result, 7);
    const { error } = JSON.parse(result.stderr);
    expect(error).toEqual({
      code: "rejected",
      exit_code: 7,
      status: 400,
      // The service's own number: shown in the message only when it is not the status.
      service_code: 1201,
      message: expect.stringMatching(/ answered 400( \(code \d+\))?: user_id is required when acting as a manager$/),
      hint: "this token acts for other users: name one with --user <id>",
    });
    expect(error.message.startsWith(`${new URL(sandbox.url).host} answered 400`)).toBe(true);
  });

  it("acting for a user it does not manage (--user 103) is forbidden: exit 5, nothing changed", async () => {
    const before = sandbox.intake(3001);
    const count = sandbox.countRequests();
    const result = await sandbox.cli(["intake", "set-quantity", "3001", "manual1=100", "--user", "103"], { as: "dave" });
    expectExit(result, 5);
    expect(result.stderr).toMatch(/answered 403( \(code \d+\))?: user 201 \(APIUserManager\) does not manage user 103/);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
    expect(sandbox.intake(3001)).toEqual(before);
  });

  it("an APIUser naming another user is forbidden too (exit 5)", async () => {
    const result = await sandbox.cli(["intake", "set-quantity", "2001", "100", "--user", "102"], { as: "alice" });
    expectExit(result, 5);
    expect(result.stderr).toContain("answered 403 (code 1203): user 101 may act only for itself, not for user 102");
  });
});
