/**
 * Whenever `foodctl smoke` exits non-zero its JUnit report holds a failure or an error: a signal
 * during a step that then finishes (the restore) is an `interrupted` error on that step, and a
 * process killed part-way leaves a report that says which step it did not finish.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { expect, it } from "vitest";
import { signTestToken } from "../faults/fixtures.js";
import { baseEnv, cliBin, collect, runFoodctl, runTempDir, tempConfigHome } from "../helpers/cli.js";
import { faults } from "../helpers/faultServer.js";
import { changed, faultServers, HISTORY, original, READ, stepRows, UPDATE } from "./helpers.js";

const server = faultServers();

interface Case {
  name: string;
  failure?: Array<{ type: string; message: string }>;
  error?: Array<{ type: string; message: string }>;
  skipped?: Array<{ message: string }>;
}

function readJunit(path: string) {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    textNodeName: "text",
    isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ["testcase", "failure", "error", "skipped"].includes(name),
  });
  const suites = (parser.parse(readFileSync(path, "utf8")) as { testsuites: Record<string, string> & { testsuite: { testcase: Case[] } } })
    .testsuites;
  return {
    failures: suites.failures,
    errors: suites.errors,
    cases: new Map(suites.testsuite.testcase.map((entry) => [entry.name, entry])),
  };
}

it("a signal during the restore, which then finishes: exit 130 and the report's error is on the restore", async () => {
  const api = await server();
  api.route(
    READ,
    faults.intake(original),
    faults.intake(original),
    faults.intake(changed),
    faults.intake(changed),
    faults.intake(original),
  );
  api.route(HISTORY, faults.json(200, { intakes_list: [original] }));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  api.route(UPDATE, faults.updated(1002), {
    kind: "handler",
    handle: (_req, res) =>
      void held.then(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "updated", imageId: 1002 }));
      }),
  });
  const junit = join(runTempDir("foodctl-smoke-junit-"), "report.xml");
  const controller = new AbortController();
  const running = runFoodctl(["--api-url", api.url, "--retries", "0", "smoke", "1002", "--junit", junit], {
    env: { FOODCTL_TOKEN: await signTestToken() },
    signal: controller.signal,
  });
  while (api.count(UPDATE) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  release();
  const result = await running;

  expect(result.code, result.stderr).toBe(130);
  expect(stepRows(result.stdout).get("restore")?.result).toBe("passed");
  // The error names the step the signal came during, as the report does, not a later one it skipped.
  expect(result.stderr).toMatch(/^error: smoke check of intake 1002 interrupted at step "restore"$/m);
  const report = readJunit(junit);
  expect([report.failures, report.errors]).toEqual(["0", "1"]);
  expect(report.cases.get("restore")?.error?.[0]?.type).toBe("interrupted");
  expect(report.cases.get("restore")?.error?.[0]?.message).toMatch(/^interrupted by Ctrl-C or SIGTERM: the smoke check did not finish/);
  expect(report.cases.get("display image")?.skipped?.[0]?.message).toBe("interrupted");
});

it("a process killed during a step leaves a report that names that step as unfinished", async () => {
  const api = await server();
  api.route(READ, faults.intake(original), faults.hang());
  const junit = join(runTempDir("foodctl-smoke-junit-"), "report.xml");
  const child = spawn(process.execPath, [cliBin(), "--api-url", api.url, "--retries", "0", "smoke", "1002", "--junit", junit], {
    env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_TOKEN: await signTestToken() }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = collect(child, { timeoutMs: 30_000 });
  while (api.count(READ) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill("SIGKILL");
  expect((await done).signal).toBe("SIGKILL");

  expect(existsSync(junit)).toBe(true);
  const report = readJunit(junit);
  expect(report.failures).toBe("1");
  expect(report.cases.get("auth")?.failure).toBeUndefined();
  expect(report.cases.get("read")?.failure?.[0]).toMatchObject({ type: "interrupted" });
  expect(report.cases.get("read")?.failure?.[0]?.message).toMatch(/^the smoke check ended during this step/);
  expect(report.cases.get("history")?.skipped?.[0]?.message).toBe("did not run");
});
