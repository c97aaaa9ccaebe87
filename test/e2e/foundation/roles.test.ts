/** Roles as documented: confirm/quantity is not for company tokens (docs/api.md, users and tokens). */
import { describe, expect, it } from "vitest";
import { expectErrorLine, expectExit, useSandbox } from "./harness.js";

const sandbox = useSandbox();
const WORDING = /^error: a company token cannot change quantities: use the user's own token or a manager's/;

describe("a company token and confirm/quantity", () => {
  it("is refused before anything is sent when the token's claims say APICompany", async () => {
    for (const args of [
      ["intake", "set-quantity", "1002", "1=150", "--user", "101"],
      ["intake", "set-modifiers", "1001", "--salt", "low", "--user", "101"],
    ]) {
      const result = await sandbox.cliSendingNothing(args, { as: "acme" });
      expectErrorLine(result, 5, WORDING);
      expect(result.stderr).toContain("nothing was sent");
    }
  });

  it("is worded the same when only the service's 403 tells (an opaque token)", async () => {
    const before = sandbox.handle.stats().total_requests;
    // 1001 holds 320 g: another total, so there is an update to refuse.
    const result = await sandbox.cli(["intake", "set-quantity", "1001", "330", "--user", "101"], {
      as: null,
      env: { FOODCTL_TOKEN: sandbox.handle.opaqueTokenFor("acme") },
    });
    expectErrorLine(result, 5, WORDING, /answered 403 \(code 1204\)/);
    // The read before the change, then the refused update.
    expect(sandbox.handle.stats().total_requests - before).toBe(2);
  });

  it("leaves a manager's token alone; a dry run prints the request and ends as the real run would (exit 5)", async () => {
    const managed = await sandbox.cli(["intake", "set-quantity", "1001", "330", "--user", "101"], { as: "dave" });
    expectExit(managed, 0);
    expect(managed.stdout).toContain("\tgrams\t320\t330\t");
    const dry = await sandbox.cliSendingNothing(["intake", "set-quantity", "1001", "320", "--user", "101", "--dry-run"], { as: "acme" });
    expectErrorLine(dry, 5, /^error: dry run: the service would refuse this: a company token cannot change quantities/);
    expect(dry.stdout).toContain('"quantity": 320');
  });
});

describe("a company token and intake apply", () => {
  it("refuses the whole batch before reading or sending anything", async () => {
    const result = await sandbox.cliSendingNothing(["intake", "apply", "-"], {
      as: "acme",
      env: { FOODCTL_USER: "101" },
      stdin: '{"image_id": 1001, "quantity": 320}\n',
    });
    expectErrorLine(result, 5, WORDING);
  });
});
