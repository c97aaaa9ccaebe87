/**
 * `--junit <file>`: parsed with a real XML parser and checked against the JUnit structure CI tools
 * read (testsuites > testsuite > testcase, with failure/skipped children and times in seconds),
 * for a passing run, a failing run, and server text that XML must escape.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { segmentationIntake, signTestToken } from "../faults/fixtures.js";
import { faults } from "../helpers/faultServer.js";
import { withSandbox } from "../helpers/sandbox.js";
import { baseEnv, cliBin, collect, runTempDir, tempConfigHome } from "../helpers/cli.js";
import { faultServers, runAgainstApi } from "./helpers.js";

const sb = withSandbox();
const folder = () => runTempDir("foodctl-smoke-");
const newServer = faultServers();

type Attributes = Record<string, string>;
type TestCase = Attributes & { failure?: unknown; skipped?: unknown };

const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
/** Children a testcase may have in the JUnit schema (Jenkins' junit-10.xsd, which GitLab and GitHub reporters also read). */
const TESTCASE_CHILDREN = new Set(["skipped", "error", "failure", "system-out", "system-err"]);

/** Parses the report and checks what a CI tool relies on; returns the one suite's test cases. */
function readJunit(path: string): { suite: Attributes; cases: TestCase[] } {
  const xml = readFileSync(path, "utf8");
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const lists = ["testsuite", "testcase", "failure", "skipped"];
  const isArray = (name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute && lists.includes(name);
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", textNodeName: "text", isArray });
  const document = parser.parse(xml) as { testsuites: Attributes & { testsuite: Array<Attributes & { testcase: TestCase[] }> } };
  const suites = document.testsuites.testsuite;
  expect(suites).toHaveLength(1);
  const suite = suites[0]!;
  expect(suite.name).toBe("foodctl smoke");
  for (const name of ["tests", "failures", "errors", "skipped"]) expect(suite[name], name).toMatch(INTEGER);
  expect(suite.time).toMatch(DECIMAL);
  expect(suite.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  const cases = suite.testcase;
  expect(Number(suite.tests)).toBe(cases.length);
  expect(Number(suite.failures)).toBe(cases.filter((entry) => entry.failure).length);
  expect(Number(suite.skipped)).toBe(cases.filter((entry) => entry.skipped).length);
  for (const entry of cases) {
    expect(entry.name).toBeTruthy();
    expect(entry.classname).toBe("foodctl smoke.intake 1002");
    expect(entry.time).toMatch(DECIMAL);
    for (const key of Object.keys(entry))
      if (!["name", "classname", "time"].includes(key)) expect(TESTCASE_CHILDREN.has(key), key).toBe(true);
  }
  expect(document.testsuites.tests).toBe(suite.tests);
  return { suite, cases };
}

describe("foodctl smoke --junit", () => {
  it("a passing run: one testsuite named foodctl smoke, one testcase per step, skipped steps as <skipped/>, no temp file left", async () => {
    const dir = folder();
    const path = join(dir, "smoke.xml");
    const result = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1002", "--junit", path]);
    expect(result.code, result.stderr).toBe(0);
    const { suite, cases } = readJunit(path);
    expect(cases.map((entry) => entry.name)).toEqual(["auth", "read", "history", "change", "restore", "display image"]);
    expect(suite).toMatchObject({ tests: "6", failures: "0", errors: "0", skipped: "1" });
    expect(cases.at(-1)!.skipped).toEqual([{ message: "not a manual intake" }]);
    expect(readdirSync(dir)).toEqual(["smoke.xml"]);
  });

  it("a --junit target that is a FIFO (a pipe a CI step reads) gets the report written into it: the FIFO is not replaced", async () => {
    const dir = folder();
    const path = join(dir, "smoke.xml");
    expect(spawnSync("mkfifo", [path]).status).toBe(0);
    // The reader is there before the run (opened without waiting), as a CI step's would be.
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const result = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1002", "--junit", path]);
      expect(result.code, result.stderr).toBe(0);
      const buffer = Buffer.alloc(64 * 1024);
      const xml = buffer.toString("utf8", 0, readSync(reader, buffer));
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).toContain('<testsuite name="foodctl smoke"');
    } finally {
      closeSync(reader);
    }
    expect(lstatSync(path).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(["smoke.xml"]);
  });

  it("--junit /dev/stdout with stdout a pipe (a CI idiom): the report follows the rows on stdout, exit 0 (a real process: its own stdout)", async () => {
    const child = spawn(process.execPath, [cliBin(), "smoke", "1002", "--junit", "/dev/stdout"], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_API_URL: sb.handle.url, FOODCTL_TOKEN: sb.handle.tokenFor("alice") }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const result = await collect(child, { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const xml = result.stdout.slice(result.stdout.indexOf("<?xml"));
    expect(result.stdout).toMatch(/^auth\tpassed\t/);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<testsuite name="foodctl smoke"');
  });

  it("--json --junit /dev/stdout: refused before anything is sent (exit 2): --json's stdout is its one JSON document", async () => {
    const child = spawn(process.execPath, [cliBin(), "smoke", "1002", "--json", "--junit", "/dev/stdout"], {
      env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_API_URL: sb.handle.url, FOODCTL_TOKEN: sb.handle.tokenFor("alice") }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const result = await collect(child, { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr)).toMatchObject({
      error: {
        code: "usage",
        exit_code: 2,
        message: "--junit /dev/stdout is this run's stdout, which --json keeps for its one JSON document",
      },
    });
  });

  it.runIf(existsSync("/dev/full"))(
    "--junit /dev/full: the device is written in place and the failed write is one clear error (exit 1)",
    async () => {
      const result = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1002", "--junit", "/dev/full"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error: could not write the JUnit report \/dev\/full: ENOSPC: no space left on device/m);
      expect(result.stderr.match(/^error:/gm)).toHaveLength(1);
      expect(lstatSync("/dev/full").isCharacterDevice()).toBe(true);
    },
  );

  it("a failing run: the failed step has a <failure> with its message and type, the later steps are skipped", async () => {
    const server = await newServer();
    const intake = segmentationIntake(1002, [200, 120]);
    server.route("GET /v2/intake/1002", faults.intake(intake));
    server.route("GET /v2/history/getIntakesList", faults.json(200, { intakes_list: [intake] }));
    server.route("POST /v2/nutrition/confirm/quantity", faults.unavailable());
    const path = join(folder(), "smoke.xml");
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002", "--junit", path]);
    expect(result.code).toBe(8);
    const { suite, cases } = readJunit(path);
    expect(suite).toMatchObject({ tests: "6", failures: "1", skipped: "1" });
    const change = cases.find((entry) => entry.name === "change")!;
    const message = `${server.host} answered 503: service unavailable (injected)`;
    expect(change.failure).toEqual([{ message, type: "unavailable", text: expect.stringContaining("exit code 8") }]);
    expect(cases.find((entry) => entry.name === "display image")!.skipped).toEqual([{ message: "an earlier step failed" }]);
  });

  it("server text with XML's special characters and control characters is escaped and reads back as sent", async () => {
    const server = await newServer();
    server.route("GET /v2/intake/1002", faults.error(401, `<b>"bad" & 'worse'</b>\u0001\u001b[31m ]]>`));
    const path = join(folder(), "smoke.xml");
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002", "--junit", path]);
    expect(result.code).toBe(4);
    const { cases } = readJunit(path);
    const [failure] = cases[0]!.failure as Array<{ message: string }>;
    expect(failure!.message).toBe(`${server.host} answered 401: <b>"bad" & 'worse'</b>\ufffd\ufffd[31m ]]>`);
  });
});
