/**
 * A support team at work (docs/journal.md, who and why; profiles): a company token refused before
 * any work, undo within the profile in use, and who acted and why in every journal entry.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTempDir } from "../../helpers/cli.js";
import { startTestSandbox, type RunOptions, type TestSandbox } from "./harness.js";

const EDITOR_SCRIPT = resolve(import.meta.dirname, "../../fixtures/editor/editor.mjs");

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** A config and journal of their own, shared by the runs of one test. */
function team() {
  const home = runTempDir("foodctl-team-");
  const cli = (args: string[], options: RunOptions = {}) =>
    sandbox.cli(args, { ...options, env: { XDG_CONFIG_HOME: home, XDG_STATE_HOME: home, ...options.env } });
  const journal = async (args: string[] = []) => {
    const result = await cli(["journal", "--json", ...args]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as any[];
  };
  return { home, cli, journal };
}

describe("a company token: the role before any work", () => {
  it("set-quantity --dry-run prints the request, then exits 5 saying the service would refuse it; nothing is read or sent", async () => {
    const { cli } = team();
    const sent = sandbox.countRequests();
    const result = await cli(["intake", "set-quantity", "1002", "1=150", "--dry-run", "--user", "101"], { as: "acme" });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stdout).toContain("POST http://");
    expect(result.stdout).toContain('"1": 150');
    expect(result.stderr).toContain("error: dry run: the service would refuse this: a company token cannot change quantities");
    expect(sent()).toEqual({});
  });

  it("intake apply --dry-run shows every line, then exits 5; the real run is refused before the file is read", async () => {
    const { cli } = team();
    const dir = sandbox.tempDir();
    const file = join(dir, "changes.jsonl");
    writeFileSync(
      file,
      '{"image_id": 1002, "user_id": 101, "quantity": {"1": 150}}\n{"image_id": 1003, "user_id": 101, "quantity": {"manual1": 60}}\n',
    );
    const sent = sandbox.countRequests();
    const dry = await cli(["intake", "apply", file, "--dry-run"], { as: "acme" });
    expect(dry.code, dry.stderr).toBe(5);
    expect(
      dry.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).status),
    ).toEqual(["dry_run", "dry_run"]);
    expect(dry.stderr).toContain("error: dry run: the service would refuse this: a company token cannot change quantities");
    // The real run: refused before the input is read (a file that does not exist is never opened).
    const real = await cli(["intake", "apply", join(dir, "missing.jsonl")], { as: "acme" });
    expect(real.code, real.stderr).toBe(5);
    expect(real.stderr).toContain("error: a company token cannot change quantities");
    expect(sent()).toEqual({});
  });

  it("intake edit refuses before the editor opens, --dry-run too (exit 5, nothing read)", async () => {
    const { home, cli } = team();
    const log = join(home, "editor.log");
    const env = {
      EDITOR: `"${process.execPath}" "${EDITOR_SCRIPT}"`,
      VISUAL: undefined,
      EDITOR_STEPS: JSON.stringify([{ replace: ["150", "120"] }]),
      EDITOR_LOG: log,
      NO_COLOR: "1",
    };
    const sent = sandbox.countRequests();
    for (const extra of [[], ["--dry-run"]]) {
      const result = await cli(["intake", "edit", "1002", "--user", "101", ...extra], { as: "acme", tty: true, env });
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toContain("a company token cannot change quantities");
    }
    expect(existsSync(log)).toBe(false);
    expect(sent()).toEqual({});
  });

  it("a manager's token still changes quantities (the refusal is the company's only)", async () => {
    const { cli } = team();
    const result = await cli(["intake", "set-quantity", "1002", "1=150", "--dry-run", "--user", "101"], { as: "dave" });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe("undo within the profile in use", () => {
  it("undo --last takes the newest entry of the profile in use; another profile's entry is refused (exit 2) naming it", async () => {
    const { cli, journal } = team();
    expect((await cli(["config", "set", "timeout", "10", "--profile", "erin"])).code).toBe(0);
    const erin = await cli(["--profile", "erin", "intake", "set-quantity", "1002", "1=141"]);
    expect(erin.code, erin.stderr).toBe(0);
    const mine = await cli(["intake", "set-quantity", "1003", "manual1=71"]);
    expect(mine.code, mine.stderr).toBe(0);
    const [newest, erinsEntry] = await journal();
    expect([newest.profile, erinsEntry.profile]).toEqual(["default", "erin"]);

    const sent = sandbox.countRequests();
    const refused = await cli(["undo", erinsEntry.id, "--yes"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: entry ${erinsEntry.id} was made with profile erin, not default`);
    expect(refused.stderr).toContain(`hint: nothing was sent; undo it with that profile: foodctl --profile erin undo ${erinsEntry.id}`);
    expect(sent()).toEqual({});

    // erin's newest is hers, though default's change came later.
    const undone = await cli(["--profile", "erin", "undo", "--last", "--yes"]);
    expect(undone.code, undone.stderr).toBe(0);
    const [undo] = await journal();
    expect(undo).toMatchObject({ undo_of: erinsEntry.id, profile: "erin" });

    // The journal names the profile of each entry (piped: always the column before the reason).
    const list = await cli(["journal"]);
    expect(
      list.stdout
        .split("\n")
        .filter(Boolean)
        .map((row) => row.split("\t")[7]),
    ).toEqual(["erin", "default", "erin"]);
  });

  it("undo --last with no entry of the profile in use says so (exit 6) and sends nothing", async () => {
    const { cli } = team();
    expect((await cli(["config", "set", "timeout", "10", "--profile", "erin"])).code).toBe(0);
    expect((await cli(["intake", "set-quantity", "1002", "1=142"])).code).toBe(0);
    const result = await cli(["--profile", "erin", "undo", "--last", "--yes"]);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain("error: no journal entry of profile erin (and its API URL): nothing to undo");
  });
});

describe("who and why", () => {
  it("--reason is recorded with the change and its undo; journal, journal show and --json carry who and why; journal --reason filters", async () => {
    const { cli, journal } = team();
    expect((await cli(["intake", "set-quantity", "1002", "1=143", "--reason", "TICKET-42 wrong portion"])).code).toBe(0);
    expect((await cli(["intake", "set-quantity", "1003", "manual1=72"])).code).toBe(0);
    const [, entry] = await journal();
    expect(entry).toMatchObject({ reason: "TICKET-42 wrong portion", actor: { subject: "101", role: "APIUser" }, user_id: 101 });

    const list = await cli(["journal"]);
    expect(list.stdout).toMatch(new RegExp(`^${entry.id}\\t.*\\tapplied\\tdefault\\tTICKET-42 wrong portion$`, "m"));
    const show = await cli(["journal", "show", entry.id]);
    expect(show.stdout).toContain("token of:   101 (APIUser)");
    expect(show.stdout).toContain("reason:     TICKET-42 wrong portion");
    expect((await journal(["--reason", "ticket-42"])).map((found) => found.id)).toEqual([entry.id]);

    const undo = await cli(["undo", entry.id, "--yes", "--reason", "TICKET-42 customer changed their mind"]);
    expect(undo.code, undo.stderr).toBe(0);
    expect((await journal(["--reason", "TICKET-42"])).map((found) => found.reason)).toEqual([
      "TICKET-42 customer changed their mind",
      "TICKET-42 wrong portion",
    ]);
  });

  it("a manager acting for a user is recorded as the manager's subject and role, for that user", async () => {
    const { cli, journal } = team();
    expect((await cli(["intake", "set-quantity", "1002", "1=144", "--user", "101"], { as: "dave" })).code).toBe(0);
    const [entry] = await journal();
    expect(entry).toMatchObject({ user_id: 101, actor: { subject: "201", role: "APIUserManager" }, reason: null });
  });

  it("refuses an empty, multi-line or too long --reason before anything is sent (exit 2)", async () => {
    const { cli } = team();
    const sent = sandbox.countRequests();
    for (const [reason, message] of [
      ["  ", "--reason is empty"],
      ["line one\nline two", "--reason must be one line of text"],
      ["x".repeat(501), "--reason is longer than 500 characters"],
    ]) {
      const result = await cli(["intake", "set-quantity", "1002", "1=145", "--reason", reason!]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: ${message}`);
    }
    expect(sent()).toEqual({});
  });

  it("intake apply takes a reason per line (JSON Lines key, CSV column); a line without one gets --reason", async () => {
    const { cli, journal } = team();
    const dir = sandbox.tempDir();
    const jsonl = join(dir, "changes.jsonl");
    writeFileSync(
      jsonl,
      '{"image_id": 1002, "quantity": {"1": 146}, "reason": "TICKET-7"}\n{"image_id": 1003, "quantity": {"manual1": 73}}\n',
    );
    const applied = await cli(["intake", "apply", jsonl, "--reason", "weekly clean-up"]);
    expect(applied.code, applied.stderr).toBe(0);
    const csv = join(dir, "changes.csv");
    writeFileSync(csv, 'image_id,position,quantity,reason\n1003,manual1,74,TICKET-8 "x"\n1003,manual2,90,\n');
    expect((await cli(["intake", "apply", csv])).code).toBe(0);
    const reasons = (await journal()).map((entry) => [entry.image_id, entry.reason]);
    expect(reasons).toEqual([
      [1003, 'TICKET-8 "x"'],
      [1003, "weekly clean-up"],
      [1002, "TICKET-7"],
    ]);
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, '{"image_id": 1002, "quantity": {"1": 147}, "reason": 42}\n');
    const refused = await cli(["intake", "apply", bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("reason: must be a string (a ticket number or a sentence), got 42");
  });
});

describe("auth status --check with a company token", () => {
  it("acts for nobody until --user names a user: exit 2 without one, nothing asked; with --user it checks as that user", async () => {
    const { cli } = team();
    const sent = sandbox.countRequests();
    const alone = await cli(["auth", "status", "--check"], { as: "acme" });
    expect(alone.code).toBe(2);
    expect(alone.stdout).toMatch(/^acting for +nobody: a company token acts for the user --user names$/m);
    expect(alone.stdout).toMatch(/^server +not asked: name the user to check as with --user$/m);
    expect(alone.stderr).toContain("error: --check with a company token needs --user");
    expect(sent()).toEqual({});

    const withUser = await cli(["auth", "status", "--check", "--user", "101"], { as: "acme" });
    expect(withUser.code, withUser.stderr).toBe(0);
    expect(withUser.stdout).toMatch(/^acting for +user 101$/m);
    expect(withUser.stdout).toMatch(/accepts the token \(answered 200\)/);
  });

  it("a 400 is never shown as acceptance", async () => {
    const { cli } = team();
    // An opaque company token: its role is unknown here, so the server is asked and answers 400 (no user_id).
    const result = await cli(["auth", "status", "--check", "--json"], {
      env: { FOODCTL_TOKEN: sandbox.handle.opaqueTokenFor("acme") },
    });
    expect(result.code).toBe(7);
    const status = JSON.parse(result.stdout);
    expect(status.server_check).toMatchObject({ accepted: null, status: 400 });
    expect(status.usable).toBe(false);
    expect(result.stderr).toContain("user_id");
  });
});
