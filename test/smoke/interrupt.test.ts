/**
 * Ctrl-C and SIGTERM during `foodctl smoke`: exit 130 whatever step they hit, the step they cut
 * short says "interrupted" in the table and the JUnit report, the later steps are skipped as
 * interrupted, the restore still runs within the request time limit, and when it is cut short the
 * message names the journal entry to undo. In process (the run's abort signal) against a fault
 * server; as a real SIGTERM to the built CLI against a slow sandbox, where only a process shows it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { segmentationIntake, signTestToken } from "../faults/fixtures.js";
import { systemClock } from "../../src/clock.js";
import { fakeClock } from "../helpers/clock.js";
import { baseEnv, cliBin, collect, runFoodctl, runTempDir, tempConfigHome, type CliResult } from "../helpers/cli.js";
import { faults, type FaultServer } from "../helpers/faultServer.js";
import { changed, faultServers, HISTORY, original, READ, stepRows, UPDATE } from "./helpers.js";

const server = faultServers();

type Case = { failure?: Array<{ type: string; message: string }>; skipped?: Array<{ message: string }>; name: string };

/** The report's test cases by step name. */
function junitCases(path: string): { failures: string; cases: Map<string, Case> } {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    textNodeName: "text",
    isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ["testcase", "failure", "skipped"].includes(name),
  });
  const document = parser.parse(readFileSync(path, "utf8")) as { testsuites: { failures: string; testsuite: { testcase: Case[] } } };
  return {
    failures: document.testsuites.failures,
    cases: new Map(document.testsuites.testsuite.testcase.map((entry) => [entry.name, entry])),
  };
}

/** Runs the smoke check in process and aborts its signal (what SIGINT and SIGTERM do) once `when` resolves. */
async function interrupted(
  api: FaultServer,
  when: (api: FaultServer) => Promise<unknown>,
  extra: string[] = [],
): Promise<{ result: CliResult; junit: string }> {
  const junit = join(runTempDir("foodctl-smoke-interrupt-"), "report.xml");
  const controller = new AbortController();
  const token = await signTestToken();
  const running = runFoodctl(["--api-url", api.url, "--retries", "0", ...extra, "smoke", "1002", "--junit", junit], {
    env: { FOODCTL_TOKEN: token },
    signal: controller.signal,
    // Time limits pass when the server holds a request, but only once interrupted: the steps are cut by the signal itself.
    clock: fakeClock({ deadline: (ms, onExpiry) => (controller.signal.aborted ? api.holdDeadline : systemClock.deadline)(ms, onExpiry) }),
  });
  await when(api);
  controller.abort();
  return { result: await running, junit };
}

describe("foodctl smoke interrupted", () => {
  it.each([
    ["auth", 1],
    ["read", 2],
  ])("during the %s step: exit 130, that step interrupted, every later one skipped as interrupted, nothing sent", async (step, reads) => {
    const api = await server();
    const replies = Array.from({ length: reads - 1 }, () => faults.intake(original));
    api.route(READ, ...replies, faults.hang());
    const { result, junit } = await interrupted(api, async () => {
      while (api.count(READ) < reads) await api.waitFor(READ).then(() => new Promise((resolve) => setImmediate(resolve)));
    });
    expect(result.code, result.stderr).toBe(130);
    const rows = stepRows(result.stdout);
    expect(rows.get(step)?.result).toBe("interrupted");
    expect(rows.get(step)?.detail).toMatch(/interrupted while reading/);
    const later = ["history", "change", "display image"].filter((name) => !(step === "read" && name === "auth"));
    for (const name of later) expect(rows.get(name), name).toEqual({ result: "skipped", detail: "interrupted" });
    expect(rows.get("restore")).toEqual({ result: "skipped", detail: "no change was sent" });
    expect(result.stderr).toMatch(new RegExp(`^error: smoke check of intake 1002 interrupted at step "${step}"$`, "m"));
    const report = junitCases(junit);
    expect(report.cases.get(step)?.failure?.[0]?.type).toBe("interrupted");
    expect(report.cases.get("history")?.skipped?.[0]?.message).toBe("interrupted");
    expect(report.failures).toBe("1");
    expect(api.count(UPDATE)).toBe(0);
  });

  it("during the change: the restore still runs and puts the intake back; exit 130, not the restore's 0", async () => {
    const api = await server();
    api.route(READ, faults.intake(original), faults.intake(original), faults.intake(changed), faults.intake(original));
    api.route(HISTORY, faults.json(200, { intakes_list: [original] }));
    api.route(UPDATE, faults.hang(), faults.updated(1002));
    const { result, junit } = await interrupted(api, (api) => api.waitFor(UPDATE));
    expect(result.code, result.stderr).toBe(130);
    const rows = stepRows(result.stdout);
    expect(rows.get("change")?.result).toBe("interrupted");
    expect(rows.get("restore")).toEqual({ result: "passed", detail: "original quantities and levels back" });
    expect(rows.get("display image")).toEqual({ result: "skipped", detail: "interrupted" });
    expect(result.stderr).toMatch(/^interrupted: putting intake 1002 back first .*`foodctl undo [0-9a-z]+`/m);
    expect(result.stderr).toMatch(/^error: smoke check of intake 1002 interrupted at step "change"$/m);
    expect(result.stderr).toMatch(/^hint: restore passed: original quantities and levels back$/m);
    expect(junitCases(junit).cases.get("change")?.failure?.[0]?.type).toBe("interrupted");
    expect(api.count(UPDATE)).toBe(2);
  });

  it("a restore cut short by the time limit: loud, exit 130, and the message names the journal entry to undo", async () => {
    const api = await server();
    api.route(READ, faults.intake(original), faults.intake(original), faults.intake(changed));
    api.route(HISTORY, faults.json(200, { intakes_list: [original] }));
    // The change is held, then the restore's update too: the time limit after the interrupt ends it.
    api.route(UPDATE, faults.hang(), faults.hang());
    const { result, junit } = await interrupted(api, (api) => api.waitFor(UPDATE));
    expect(result.code, result.stderr).toBe(130);
    const rows = stepRows(result.stdout);
    expect(rows.get("restore")?.result).toBe("interrupted");
    const entry = /`foodctl undo ([0-9a-z]+)`/.exec(result.stderr)?.[1];
    expect(entry, result.stderr).toBeTruthy();
    expect(result.stderr).toMatch(/RESTORE FAILED: intake 1002/);
    expect(result.stderr).toContain(`or undo the smoke check's change:\n  foodctl --api-url ${api.url} undo ${entry}\n`);
    expect(result.stderr).toMatch(new RegExp(`^hint: the restore was cut short: .*\`foodctl undo ${entry}\`$`, "m"));
    expect(junitCases(junit).cases.get("restore")?.failure?.[0]?.type).toBe("interrupted");
    // The entry named is the smoke check's change, as `undo` finds it.
    const journal = await runFoodctl(["journal", "show", entry!, "--json"], { env: { FOODCTL_TOKEN: await signTestToken() } });
    expect(journal.stdout + journal.stderr).toContain(entry!);
  });

  it("a restore refused after the interrupt (changed underneath) still exits 130, loud about the intake", async () => {
    const api = await server();
    const someoneElse = segmentationIntake(1002, [250, 120]);
    api.route(READ, faults.intake(original), faults.intake(original), faults.intake(someoneElse));
    api.route(HISTORY, faults.json(200, { intakes_list: [original] }));
    api.route(UPDATE, faults.hang());
    const { result } = await interrupted(api, (api) => api.waitFor(UPDATE));
    expect(result.code, result.stderr).toBe(130);
    expect(stepRows(result.stdout).get("restore")?.result).toBe("failed");
    expect(result.stderr).toMatch(/RESTORE FAILED/);
    expect(result.stderr).toMatch(/^hint: the restore was cut short: .*foodctl undo/m);
  });
});

describe("SIGTERM to foodctl smoke (a real process: the signal's wiring)", () => {
  it("between its change and its restore against a slow API: restores, prints the table and the error, writes the JUnit file, exits 130", async () => {
    // 700 ms per answer: the restore (a read, an update, a read back) outlasts the 2 s after which SIGTERM used to end the process.
    const sandbox = await startSandbox({ port: 0, latencyMs: 700 });
    try {
      const junit = join(runTempDir("foodctl-smoke-sigterm-"), "report.xml");
      const before = sandbox.intake(1002);
      const child = spawn(process.execPath, [cliBin(), "smoke", "1002", "--junit", junit], {
        env: baseEnv({ XDG_CONFIG_HOME: tempConfigHome(), FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: sandbox.tokenFor("alice") }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      const done = collect(child, { timeoutMs: 60_000 });
      for (let waited = 0; (sandbox.stats().requests["POST /v2/nutrition/confirm/quantity"] ?? 0) === 0; waited += 20) {
        if (waited > 30_000) throw new Error("the smoke check never sent its change");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill("SIGTERM");
      const result = await done;
      expect(result.signal, result.stderr).toBeNull();
      expect(result.code, result.stderr).toBe(130);
      expect(stepRows(result.stdout).get("restore")?.result).toBe("passed");
      expect(result.stderr).toMatch(/^interrupted: putting intake 1002 back first/m);
      expect(result.stderr).toMatch(/^error: smoke check of intake 1002 interrupted at step "change"$/m);
      expect(junitCases(junit).cases.get("change")?.failure?.[0]?.type).toBe("interrupted");
      expect(sandbox.intake(1002)).toEqual(before);
    } finally {
      await sandbox.close();
    }
  });
});
