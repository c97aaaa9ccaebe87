/**
 * `intake edit --file` and what the editor leaves: only the rows given change, every problem is
 * listed, a reopened file names its own lines, a text for another intake is refused, and the file
 * is read with `--file`'s checks (a regular file, 1 MiB, signals, a missing file).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../../src/main.js";
import { bufferIO } from "../../helpers/bufferIO.js";
import { expectErrorLine, runTempDir } from "../../helpers/cli.js";
import { expectExit, GET_INTAKE, itemOf, POST_QUANTITY, startTestSandbox, type TestSandbox } from "./harness.js";

const EDITOR_SCRIPT = resolve(import.meta.dirname, "../../fixtures/editor/editor.mjs");

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

function setup(steps: unknown[] = []) {
  const home = runTempDir("foodctl-editfile-");
  const log = join(home, "editor.log");
  const env = {
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: home,
    TMPDIR: runTempDir("foodctl-editfile-tmp-"),
    VISUAL: undefined,
    EDITOR: `"${process.execPath}" "${EDITOR_SCRIPT}"`,
    EDITOR_STEPS: JSON.stringify(steps),
    EDITOR_LOG: log,
    NO_COLOR: "1",
  };
  return {
    home,
    file: (name: string, text: string) => {
      const path = join(home, name);
      writeFileSync(path, text);
      return path;
    },
    opened: () =>
      readFileSync(log, "utf8")
        .split(/^=== run \d+: .*\n/m)
        .slice(1),
    cli: (args: string[], options: { tty?: boolean; stdin?: string } = {}) =>
      sandbox.cli(args, { tty: options.tty ?? false, env, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) }),
  };
}

describe("intake edit --file", () => {
  it("changes only the rows it is given; the others stay as they are", async () => {
    const run = setup();
    const before = [2, 3].map((position) => itemOf(sandbox.intake(1002), position).recipe);
    const count = sandbox.countRequests();
    const result = await run.cli(["intake", "edit", "1002", "--file", "-"], { stdin: "position quantity\n1 175\n" });
    expectExit(result, 0);
    expect(count()).toEqual({ [GET_INTAKE]: 2, [POST_QUANTITY]: 1 });
    expect(itemOf(sandbox.intake(1002), 1).recipe.serving_size).toBe(175);
    expect([2, 3].map((position) => itemOf(sandbox.intake(1002), position).recipe)).toEqual(before);
    expectExit(await run.cli(["undo", "--last", "--yes"]), 0);
  });

  it("lists every problem, each with its line, and sends nothing", async () => {
    const run = setup();
    const file = run.file("bad.txt", "position quantity salt\n1 -5 low\n2 150 LOW\n9 100 low\n");
    const count = sandbox.countRequests();
    const result = await run.cli(["intake", "edit", "1002", "--file", file]);
    expectExit(result, 2);
    expect(result.stderr).toMatch(/^error: 3 problems in \S+bad\.txt \(above\)$/m);
    const listed = result.stderr.split("\n").filter((line) => line.startsWith(`${file}: `));
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatch(/: line 2: quantity of position 1/);
    expect(listed[1]).toMatch(/: line 3: salt of position 2 must be one of none, low, medium, high, got "LOW"; did you mean low\?$/);
    expect(listed[2]).toMatch(/: line 4: unknown position 9/);
    expect(result.stderr).toMatch(/^hint: nothing was sent$/m);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });

    const json = await run.cli(["--json", "intake", "edit", "1002", "--file", file]);
    expect(json.code).toBe(2);
    const error = JSON.parse(json.stderr.trim()).error;
    expect(error.message).toMatch(/^3 problems in \S+: line 2: .*; line 3: .*; line 4: /);
  });

  it("a text naming another intake is refused (exit 2, nothing sent); changed to name this one, it is sent", async () => {
    const run = setup();
    const file = run.file("for1003.txt", "# intake 1003 (manual)\nposition quantity\n1 170\n");
    const count = sandbox.countRequests();
    const refused = await run.cli(["intake", "edit", "1002", "--file", file]);
    expectErrorLine(refused, 2, `${file} is the edit text of intake 1003 (its "# intake 1003" line), not of intake 1002: nothing was sent`);
    expect(refused.stderr).toContain('hint: edit intake 1003 with `foodctl intake edit 1003`, or change that line to "# intake 1002"');
    expect(count()).toEqual({ [GET_INTAKE]: 1 });

    writeFileSync(file, readFileSync(file, "utf8").replace("# intake 1003", "# intake 1002"));
    const followed = await run.cli(["intake", "edit", "1002", "--file", file]);
    expectExit(followed, 0);
    expect(itemOf(sandbox.intake(1002), 1).recipe.serving_size).toBe(170);
    expectExit(await run.cli(["undo", "--last", "--yes"]), 0);
  });

  it("refuses a FIFO at once, a link to a device, a missing file and more than 1 MiB, each in one line, nothing sent", async () => {
    const run = setup();
    const fifo = join(run.home, "fifo");
    execFileSync("mkfifo", [fifo]);
    const zero = join(run.home, "zero");
    symlinkSync("/dev/zero", zero);
    const big = run.file("big.txt", `position quantity\n${"# padding\n".repeat(110_000)}`);
    const count = sandbox.countRequests();
    const started = Date.now();
    expectErrorLine(await run.cli(["intake", "edit", "1002", "--file", fifo]), 2, `${fifo} is a FIFO, not an edit text: nothing was sent`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expectErrorLine(await run.cli(["intake", "edit", "1002", "--file", zero]), 2, `${zero} is a device, not an edit text`);
    const missing = join(run.home, "nothing.txt");
    expectErrorLine(
      await run.cli(["intake", "edit", "1002", "--file", missing]),
      2,
      `cannot read ${missing}: no such file: nothing was sent`,
    );
    expectErrorLine(await run.cli(["intake", "edit", "1002", "--file", big]), 2, `${big} holds more than 1 MiB: not an edit text`);
    expect(count()[POST_QUANTITY]).toBeUndefined();
  });

  it("Ctrl-C while stdin never ends: exit 130, nothing sent", async () => {
    const home = runTempDir("foodctl-editfile-");
    const env = { FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: sandbox.token("alice"), XDG_CONFIG_HOME: home, XDG_STATE_HOME: home };
    const buffers = bufferIO({ env });
    const stdin = new PassThrough();
    stdin.write("position quantity\n");
    buffers.io.stdin = Object.assign(stdin, { isTTY: false });
    const controller = new AbortController();
    const count = sandbox.countRequests();
    const running = run(["intake", "edit", "1002", "--file", "-"], { io: buffers.io, signal: controller.signal });
    while (!count()[GET_INTAKE]) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await running).toBe(130);
    expect(buffers.stderr()).toMatch(/^error: interrupted while reading stdin: nothing was sent$/m);
    expect(count()[POST_QUANTITY]).toBeUndefined();
  });
});

describe("what the editor leaves", () => {
  it.each([
    [{ remove: true }, "cannot read the edited file: the editor removed it: nothing was sent"],
    [{ fifo: true }, "the edited file is a FIFO, not an edit text: nothing was sent"],
    [{ link: "/dev/zero" }, "the edited file is a device, not an edit text: nothing was sent"],
  ])("%j: one clear error, exit 2, nothing sent", async (step, message) => {
    const run = setup([step]);
    const count = sandbox.countRequests();
    const result = await run.cli(["intake", "edit", "1002"], { tty: true });
    expectErrorLine(result, 2, message);
    expect(count()).toEqual({ [GET_INTAKE]: 1 });
  });

  it("an edit saved with a text for another intake is refused", async () => {
    const run = setup([{ replace: ["^# intake 1002", "# intake 1003"] }]);
    const result = await run.cli(["intake", "edit", "1002"], { tty: true });
    expectErrorLine(result, 2, /the edited file is the edit text of intake 1003/);
  });

  it("a reopened file's problems name its own lines, as the editor shows them", async () => {
    const run = setup([{ replace: ["^2( +)150", "2$1150g"] }, { replace: ["^2( +)150g", "2$1150"] }]);
    const result = await run.cli(["intake", "edit", "1002"], { tty: true });
    expectExit(result, 0);
    const reopened = run.opened()[1]!.split("\n");
    const named = /^# problem: line (\d+): quantity of position 2/m.exec(run.opened()[1]!);
    expect(named, run.opened()[1]).not.toBeNull();
    expect(reopened[Number(named![1]) - 1]).toMatch(/^2 +150g /);
  });
});
