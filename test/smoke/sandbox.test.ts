/**
 * `foodctl smoke` against a real sandbox: every seeded kind of intake passes and is left byte
 * for byte as it was (`intake show --json` before and after); --read-only sends only GETs.
 */
import { describe, expect, it } from "vitest";
import { runFoodctl, runTempDir } from "../helpers/cli.js";
import { withSandbox } from "../helpers/sandbox.js";
import { runAgainstApi, stepRows } from "./helpers.js";

const sb = withSandbox();

const KINDS = [
  { imageId: 1001, user: "alice", kind: "recognition-only", displayImage: "skipped" },
  { imageId: 1002, user: "alice", kind: "segmentation", displayImage: "skipped" },
  { imageId: 1003, user: "alice", kind: "manual", displayImage: "passed" },
  { imageId: 1004, user: "alice", kind: "manual (stored as APIImage)", displayImage: "passed" },
  { imageId: 1005, user: "alice", kind: "manual with a display image attached", displayImage: "skipped" },
  { imageId: 2002, user: "bob", kind: "segmentation on a plan below Monitor", displayImage: "skipped" },
  { imageId: 2001, user: "bob", kind: "recognition-only on a plan below Monitor", displayImage: "skipped" },
] as const;

describe("foodctl smoke against the sandbox", () => {
  it.each(KINDS)(
    "passes on intake $imageId ($kind) and leaves `intake show --json` byte for byte the same",
    async ({ imageId, user, displayImage }) => {
      const token = sb.handle.tokenFor(user);
      const before = await runAgainstApi(sb.handle.url, token, ["intake", "show", String(imageId), "--json"]);
      expect(before.code, before.stderr).toBe(0);

      const smoke = await runAgainstApi(sb.handle.url, token, ["smoke", String(imageId)]);
      expect(smoke.code, smoke.stderr + smoke.stdout).toBe(0);
      const rows = stepRows(smoke.stdout);
      expect([...rows.keys()]).toEqual(["auth", "read", "history", "change", "restore", "display image"]);
      for (const step of ["auth", "read", "history", "change", "restore"])
        expect(rows.get(step)?.result, `${step}: ${rows.get(step)?.detail}`).toBe("passed");
      expect(rows.get("display image")?.result).toBe(displayImage);
      expect(rows.get("restore")?.detail).toBe("original quantities and levels back");

      const after = await runAgainstApi(sb.handle.url, token, ["intake", "show", String(imageId), "--json"]);
      expect(after.stdout).toBe(before.stdout);
    },
  );

  it("--read-only sends nothing but GET requests and reports the changing steps as skipped", async () => {
    const before = sb.handle.stats().requests;
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1003", "--read-only"]);
    expect(smoke.code, smoke.stderr).toBe(0);
    const after = sb.handle.stats().requests;
    const sent = Object.entries(after).filter(([route, count]) => count !== (before[route] ?? 0));
    expect(sent.length).toBeGreaterThan(0);
    for (const [route] of sent) expect(route).toMatch(/^GET /);
    const rows = stepRows(smoke.stdout);
    for (const step of ["change", "restore", "display image"]) expect(rows.get(step)).toEqual({ result: "skipped", detail: "--read-only" });
  });

  it("journals its own changes like every change: the +1 g, the restore, the attach and the removal", async () => {
    const home = runTempDir("foodctl-smoke-journal-");
    const env = { FOODCTL_TOKEN: sb.handle.tokenFor("alice"), XDG_CONFIG_HOME: home };
    const smoke = await runFoodctl(["--api-url", sb.handle.url, "smoke", "1003"], { env });
    expect(smoke.code, smoke.stderr).toBe(0);
    const journal = await runFoodctl(["journal", "--intake", "1003", "--json"], { env });
    expect(journal.code, journal.stderr).toBe(0);
    const entries = JSON.parse(journal.stdout) as Array<{ command: string; outcome: string }>;
    expect(entries.map((entry) => [entry.command, entry.outcome])).toEqual([
      ["smoke", "applied"],
      ["smoke", "applied"],
      ["smoke", "applied"],
      ["smoke", "applied"],
    ]);
  });

  it("--no-display-image skips the display image step on a manual intake", async () => {
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1003", "--no-display-image"]);
    expect(smoke.code, smoke.stderr).toBe(0);
    expect(stepRows(smoke.stdout).get("display image")).toEqual({ result: "skipped", detail: "--no-display-image" });
  });

  it("--json prints one document with every step", async () => {
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "1002", "--json"]);
    expect(smoke.code, smoke.stderr).toBe(0);
    type Document = { image_id: number; passed: boolean; exit_code: number; steps: Array<{ step: string; result: string; ms: number }> };
    const document = JSON.parse(smoke.stdout) as Document;
    expect(document).toMatchObject({ image_id: 1002, passed: true, exit_code: 0 });
    expect(document.steps.map((step) => step.step)).toEqual(["auth", "read", "history", "change", "restore", "display image"]);
    for (const step of document.steps) expect(typeof step.ms).toBe("number");
  });

  it("an intake of another user fails at the read step with exit 5, and nothing is changed", async () => {
    const before = sb.handle.stats().requests;
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "2002"]);
    expect(smoke.code).toBe(5);
    const rows = stepRows(smoke.stdout);
    expect(rows.get("auth")?.result).toBe("passed");
    expect(rows.get("read")?.result).toBe("failed");
    expect(rows.get("restore")).toEqual({ result: "skipped", detail: "no change was sent" });
    const after = sb.handle.stats().requests;
    for (const [route, count] of Object.entries(after)) if (count !== (before[route] ?? 0)) expect(route).toMatch(/^GET /);
  });

  it("a malformed image id is a usage error (exit 2) and nothing is sent", async () => {
    const before = sb.handle.stats().total_requests;
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), ["smoke", "12x"]);
    expect(smoke.code).toBe(2);
    expect(smoke.stderr).toMatch(/^error: image_id must be a positive integer/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });

  it("a --junit file in a folder that does not exist is a usage error (exit 2) and nothing is sent", async () => {
    const before = sb.handle.stats().total_requests;
    const smoke = await runAgainstApi(sb.handle.url, sb.handle.tokenFor("alice"), [
      "smoke",
      "1002",
      "--junit",
      "/nonexistent-folder-of-foodctl/report.xml",
    ]);
    expect(smoke.code).toBe(2);
    expect(smoke.stderr).toMatch(/^error: --junit .*no such folder/);
    expect(sb.handle.stats().total_requests).toBe(before);
  });
});
