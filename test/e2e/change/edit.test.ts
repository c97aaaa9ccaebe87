/** `intake edit` against the sandbox, with a script as $EDITOR standing in for a person (test/fixtures/editor/editor.mjs). */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLine, runTempDir } from "../../helpers/cli.js";
import { expectExit, GET_INTAKE, itemOf, POST_QUANTITY, startTestSandbox, type RunOptions, type TestSandbox } from "./harness.js";

const EDITOR_SCRIPT = resolve(import.meta.dirname, "../../fixtures/editor/editor.mjs");

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

type Step = { replace: [string, string] } | { empty: true } | { exit: number } | Record<string, never>;

/** A home (config and journal), a temp folder and an editor log of their own; the editor takes `steps` in turn. */
function editorSetup(steps: Step[]) {
  const home = runTempDir("foodctl-edit-home-");
  const tmp = runTempDir("foodctl-edit-tmp-");
  const log = join(home, "editor.log");
  const env = {
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: home,
    TMPDIR: tmp,
    VISUAL: undefined,
    EDITOR: `"${process.execPath}" "${EDITOR_SCRIPT}"`,
    EDITOR_STEPS: JSON.stringify(steps),
    EDITOR_LOG: log,
    // A terminal, without colour: the error lines are checked as plain text.
    NO_COLOR: "1",
  };
  return {
    env,
    tmp,
    /** The texts the editor was opened on, one per run. */
    opened: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split(/^=== run \d+: .*\n/m)
            .slice(1)
        : [],
    cli: (args: string[], options: RunOptions = {}) => sandbox.cli(args, { tty: true, ...options, env: { ...env, ...options.env } }),
  };
}

const journalEntries = async (setup: ReturnType<typeof editorSetup>) => {
  const result = await setup.cli(["journal", "--json"], { tty: false });
  expectExit(result, 0);
  return JSON.parse(result.stdout) as Array<{ command: string; outcome: string; request: { body: unknown } }>;
};

describe("intake edit against the sandbox", () => {
  it("sends grams and a level of one item in one update and one journal entry, and one undo puts both back", async () => {
    const was = itemOf(sandbox.intake(1002), 1).recipe;
    expect([was.serving_size, was.salt]).toEqual([180, "medium"]);
    const setup = editorSetup([{ replace: ["^1( +)180( +)medium ", "1$1150$2low    "] }]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
    const now = itemOf(sandbox.intake(1002), 1).recipe;
    expect([now.serving_size, now.salt]).toEqual([150, "low"]);
    expect(itemOf(sandbox.intake(1002), 2).recipe.serving_size).toBe(150);
    // The before → after, as every change command prints it.
    expect(result.stdout).toMatch(/^1 +Scrambled eggs on toast +180 → 150 +medium → low +none +low +metric /m);
    // The text the editor saw: the items under the header, the food as a comment.
    expect(setup.opened()[0]).toMatch(/^position +quantity +salt +sugar +oil +measures +# food \(not editable\)$/m);
    expect(setup.opened()[0]).toMatch(/^3 +200 +low +low +low +metric +# Pancakes with maple syrup$/m);
    // The private temporary folder is gone.
    expect(readdirSync(setup.tmp)).toEqual([]);

    const entries = await journalEntries(setup);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ command: "intake edit", outcome: "applied" });
    expect(entries[0]!.request.body).toEqual({ imageId: 1002, quantity: { "1": 150 }, salt: { "1": "low" } });

    const undo = await setup.cli(["undo", "--last", "--yes"], { tty: false });
    expectExit(undo, 0);
    const back = itemOf(sandbox.intake(1002), 1).recipe;
    expect([back.serving_size, back.salt]).toEqual([180, "medium"]);
  });

  it("intake apply reads the text intake edit opens on: the intake's rows in one update", async () => {
    const setup = editorSetup([{ exit: 1 }]);
    expectExit(await setup.cli(["intake", "edit", "1002"]), 3);
    const file = join(setup.tmp, "fix.txt");
    writeFileSync(file, setup.opened()[0]!.replace(/^3( +)200 /m, "3$1190 "));
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "apply", file], { tty: false });
    expectExit(result, 0);
    expect(count()[POST_QUANTITY]).toBe(1);
    expect(result.stdout).toMatch(/"status":"applied".*"changed":\[\{"position":"3","field":"grams","before":200,"after":190\}\]/);
    expect(itemOf(sandbox.intake(1002), 3).recipe.serving_size).toBe(190);
    expectExit(await setup.cli(["undo", "--last", "--yes"]), 0);
    expect(itemOf(sandbox.intake(1002), 3).recipe.serving_size).toBe(200);
    // Named as a format too, from stdin.
    const dry = await setup.cli(["intake", "apply", "-", "--format", "edit", "--dry-run"], {
      tty: false,
      stdin: readFileSync(file, "utf8"),
    });
    expectExit(dry, 0);
    expect(dry.stdout).toMatch(/"status":"dry_run"/);
  });

  it("a recognition-only intake: its total grams and salt in one update", async () => {
    const setup = editorSetup([{ replace: ["^total( +)320( +)medium", "total$1330$2low   "] }]);
    const result = await setup.cli(["intake", "edit", "1001"]);
    expectExit(result, 0);
    expect(sandbox.intake(1001)).toMatchObject({ serving_size: 330, salt: "low" });
    expect((await journalEntries(setup))[0]!.request.body).toEqual({ imageId: 1001, quantity: 330, salt: "low" });
    expectExit(await setup.cli(["undo", "--last", "--yes"], { tty: false }), 0);
    expect(sandbox.intake(1001)).toMatchObject({ serving_size: 320, salt: "medium" });
  });

  it("saved without a change: says so, sends nothing, exit 0", async () => {
    const setup = editorSetup([{}]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("no change: intake 1002 already holds every value of the edit; nothing was sent\n");
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it.each([
    ["the editor exits non-zero", [{ exit: 1 }] as Step[], /the editor exited with 1: edit cancelled/],
    ["the file is emptied", [{ empty: true }] as Step[], /the file was emptied: edit cancelled/],
  ])("%s: cancelled, nothing sent, exit 3", async (_what, steps, message) => {
    const setup = editorSetup(steps);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002"]);
    expectErrorLine(result, 3, message);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
    expect(readdirSync(setup.tmp)).toEqual([]);
  });

  it("a value not allowed opens the editor again with the problem at the top; fixed, it is sent", async () => {
    const setup = editorSetup([{ replace: ["^2( +)150( +)none", "2$1150$2lo  "] }, { replace: ["^2( +)150( +)lo ", "2$1150$2low"] }]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002"]);
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
    const [first, second] = setup.opened();
    expect(first).not.toContain("# problem:");
    expect(second).toMatch(/^# problem: the edit was not sent; fix the lines below and save, or empty the file to cancel\n/);
    expect(second).toMatch(
      /^# problem: line \d+: salt of position 2 must be one of none, low, medium, high, got "lo"; did you mean low\?$/m,
    );
    expect(second).toMatch(/^2 +150 +lo +none/m);
    expect(itemOf(sandbox.intake(1002), 2).recipe.salt).toBe("low");
    expectExit(await setup.cli(["undo", "--last", "--yes"], { tty: false }), 0);
  });

  it("--no-reopen: a value not allowed is exit 2 with one error line, the editor opened once, nothing sent", async () => {
    const setup = editorSetup([{ replace: ["^2( +)150", "2$1150g"] }]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002", "--no-reopen"]);
    expectErrorLine(result, 2, /line \d+: quantity of position 2: "150g" is not a number of grams: write 150/);
    expect(setup.opened()).toHaveLength(1);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("without a terminal and without --file: exit 2, no editor, nothing read or sent", async () => {
    const setup = editorSetup([{}]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002"], { tty: false });
    expectErrorLine(result, 2, /not on a terminal: no editor can be opened/);
    expect(setup.opened()).toEqual([]);
    expect(count()).toEqual({});
  });

  it("--dry-run shows the one request it would send, and sends nothing", async () => {
    const setup = editorSetup([{ replace: ["^3( +)200( +)low( +)low( +)low", "3$1210$2low$3none$4low"] }]);
    const count = sandbox.countRequests();
    const result = await setup.cli(["intake", "edit", "1002", "--dry-run"]);
    expectExit(result, 0);
    expect(result.stdout).toContain('"quantity": {\n    "3": 210');
    expect(result.stderr).toContain("dry run: nothing was sent");
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("--file <path> and --file - read the edited text without an editor; a problem there is exit 2", async () => {
    const setup = editorSetup([]);
    const file = join(setup.tmp, "..", `edited-${process.pid}.txt`);
    writeFileSync(file, await editedText(1003, "manual2", "120 low none medium metric"));
    const fromFile = await setup.cli(["intake", "edit", "1003", "--file", file], { tty: false });
    expectExit(fromFile, 0);
    expect(itemOf(sandbox.intake(1003), "manual2").recipe.serving_size).toBe(120);
    expect(setup.opened()).toEqual([]);
    expectExit(await setup.cli(["undo", "--last", "--yes"], { tty: false }), 0);

    const count = sandbox.countRequests();
    const bad = await setup.cli(["intake", "edit", "1003", "--file", "-"], {
      tty: false,
      stdin: "position quantity\nmanual1 350\nmanual2 -5\n",
    });
    expectErrorLine(bad, 2, /line 3: quantity of position manual2/);
    const empty = await setup.cli(["intake", "edit", "1003", "--file", "-"], { tty: false, stdin: "# nothing\n" });
    expectErrorLine(empty, 3, /the edit text is empty/);
    expect(count()).toEqual({ [GET_INTAKE]: 2 });
  });
});

/** The sandbox intake's edit text (as `--file` reads it) with one line's values replaced. */
async function editedText(imageId: number, position: string, values: string): Promise<string> {
  const { renderEditText } = await import("../../../src/intake/editText.js");
  const text = renderEditText(sandbox.intake(imageId) as never);
  return text.replace(new RegExp(`^${position} +[^#]*#`, "m"), `${position} ${values} #`);
}
