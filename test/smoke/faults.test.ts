/**
 * `foodctl smoke` against a fault server: a 503 on the update, a failure after the change was
 * applied, a failing restore, an intake changed underneath, and a 401 at the first step.
 */
import { describe, expect, it } from "vitest";
import { faults, type FaultServer } from "../helpers/faultServer.js";
import { manualIntake, segmentationIntake, signTestToken } from "../faults/fixtures.js";
import { changed, faultServers, HISTORY, original, READ, runAgainstApi, stepRows, UPDATE } from "./helpers.js";

const newServer = faultServers();

async function serverFor(...reads: ReturnType<typeof faults.intake>[]): Promise<FaultServer> {
  const server = await newServer();
  server.route(READ, ...reads).route(HISTORY, faults.json(200, { intakes_list: [original] }));
  return server;
}

const updateBodies = (server: FaultServer) =>
  server.requests.filter((request) => request.route === UPDATE).map((request) => JSON.parse(request.body.toString("utf8")) as unknown);

describe("foodctl smoke with faults", () => {
  it("a 503 on the update: exit 8, and the restore is not needed since nothing was applied (the intake read again is unchanged)", async () => {
    const server = await serverFor(faults.intake(original));
    server.route(UPDATE, faults.unavailable());
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002"]);
    expect(result.code, result.stderr).toBe(8);
    const rows = stepRows(result.stdout);
    expect(rows.get("change")?.result).toBe("failed");
    expect(rows.get("change")?.detail).toMatch(/answered 503/);
    expect(rows.get("restore")).toEqual({
      result: "passed",
      detail: "not needed: nothing was applied (the intake, read again, is unchanged)",
    });
    expect(rows.get("display image")?.result).toBe("skipped");
    expect(result.stderr).toMatch(/^error: smoke check of intake 1002 failed at step "change": .*answered 503/m);
    expect(result.stderr).toMatch(/^hint: restore not needed: nothing was applied/m);
    expect(server.count(UPDATE)).toBe(1);
  });

  it("a failure after the change was applied: the restore runs and puts the original values back", async () => {
    const server = await serverFor(
      faults.intake(original),
      faults.intake(original),
      faults.internalError(),
      faults.intake(changed),
      faults.intake(original),
    );
    server.route(UPDATE, faults.updated(1002));
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002"]);
    expect(result.code, result.stderr).toBe(8);
    const rows = stepRows(result.stdout);
    expect(rows.get("change")?.detail).toMatch(/the change was applied, but reading it back failed/);
    expect(rows.get("restore")).toEqual({ result: "passed", detail: "original quantities and levels back" });
    expect(updateBodies(server)).toEqual([
      { imageId: 1002, quantity: { "1": 201 } },
      {
        imageId: 1002,
        quantity: { "1": 200, "2": 120 },
        salt: { "1": "medium", "2": "medium" },
        sugar: { "1": "none", "2": "none" },
        oil: { "1": "low", "2": "low" },
        measures: { "1": "metric", "2": "metric" },
      },
    ]);
  });

  it("a failing restore is loud: the original values and the command that restores them are printed, and its class is the exit code", async () => {
    const server = await serverFor(faults.intake(original), faults.intake(original), faults.internalError(), faults.intake(changed));
    server.route(UPDATE, faults.updated(1002), faults.error(403, "restore forbidden (injected)"));
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002"]);
    expect(result.code, result.stderr).toBe(5);
    expect(stepRows(result.stdout).get("restore")?.result).toBe("failed");
    expect(result.stderr).toContain("RESTORE FAILED: intake 1002 may be left changed by the smoke check.");
    expect(result.stderr).toContain("  1  spaghetti bolognese  200 g  salt medium  sugar none  oil low  measures metric");
    expect(result.stderr).toContain("  2  side salad  120 g  salt medium  sugar none  oil low  measures metric");
    const line = [
      `{"image_id":1002,"quantity":{"1":200,"2":120},"salt":{"1":"medium","2":"medium"},"sugar":{"1":"none","2":"none"},`,
      `"oil":{"1":"low","2":"low"},"measures":{"1":"metric","2":"metric"}}`,
    ].join("");
    expect(result.stderr).toContain(`  echo '${line}' | foodctl --api-url ${server.url} intake apply - --format jsonl`);
    expect(result.stderr).toMatch(/^error: smoke check of intake 1002 failed at step "restore": .*restore forbidden/m);
  });

  it("the failed restore's original values and command are in the --json document too", async () => {
    const server = await serverFor(faults.intake(original), faults.intake(original), faults.intake(changed), faults.intake(changed));
    server.route(UPDATE, faults.updated(1002), faults.unavailable());
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002", "--json"]);
    expect(result.code).toBe(8);
    type Document = { passed: boolean; restore_failed: { command: string; fields: unknown; original: string[] } };
    const document = JSON.parse(result.stdout) as Document;
    expect(document.passed).toBe(false);
    expect(document.restore_failed.fields).toMatchObject({ quantity: { "1": 200, "2": 120 } });
    expect(document.restore_failed.command).toMatch(/\| foodctl --api-url http:\/\/127\.0\.0\.1:\d+ intake apply - --format jsonl$/);
    expect(JSON.parse(result.stderr.trim().split("\n").at(-1)!)).toMatchObject({ error: { code: "unavailable", exit_code: 8 } });
  });

  it("an intake changed underneath during the check is not restored (exit 7, loud); --force restores it anyway", async () => {
    const someoneElse = segmentationIntake(1002, [201, 95]);
    const refused = await serverFor(faults.intake(original), faults.intake(original), faults.intake(changed), faults.intake(someoneElse));
    refused.route(UPDATE, faults.updated(1002));
    const result = await runAgainstApi(refused.url, await signTestToken(), ["smoke", "1002"]);
    expect(result.code, result.stderr).toBe(7);
    const detail = stepRows(result.stdout).get("restore")?.detail;
    expect(detail).toMatch(/changed by someone else during the smoke check \(position 2: 95 g instead of 120 g\): not restored/);
    expect(result.stderr).toContain("RESTORE FAILED");
    expect(result.stderr).toMatch(/^hint: rerun with --force/m);
    expect(refused.count(UPDATE)).toBe(1);

    const reads = [original, original, changed, someoneElse, original].map((intake) => faults.intake(intake));
    const forced = await serverFor(...reads);
    forced.route(UPDATE, faults.updated(1002));
    const again = await runAgainstApi(forced.url, await signTestToken(), ["smoke", "1002", "--force"]);
    expect(again.code, again.stderr).toBe(0);
    expect(stepRows(again.stdout).get("restore")?.detail).toMatch(/^original values back \(--force: it had been changed underneath/);
    expect(forced.count(UPDATE)).toBe(2);
  });

  it("a recognition-only total that is not whole grams is not changed (exit 7): the restore could not send it back", async () => {
    const intake = {
      ...segmentationIntake(1001),
      image_id: 1001,
      serving_size: 320.4,
      recipe_per_item: undefined,
      nutritional_info_per_item: undefined,
    };
    const server = await newServer();
    server.route("GET /v2/intake/1001", faults.intake(intake)).route(HISTORY, faults.json(200, { intakes_list: [intake] }));
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1001"]);
    expect(result.code).toBe(7);
    expect(stepRows(result.stdout).get("change")?.detail).toBe(
      "intake 1001: its total of 320.4 g is not whole grams, so it could not be restored",
    );
    expect(stepRows(result.stdout).get("restore")).toEqual({ result: "skipped", detail: "no change was sent" });
    expect(server.count(UPDATE)).toBe(0);
  });

  it("a refused display image upload fails the step (exit 7), and the removal is still sent in case it was stored", async () => {
    const intake = manualIntake(1003);
    const changedManual = structuredClone(intake);
    changedManual.recipe_per_item[0]!.serving_size = 251;
    changedManual.nutritional_info_per_item[0]!.nutritional_info.calories = 291.2;
    const server = await newServer();
    const reads = [intake, intake, changedManual, changedManual, intake].map((record) => faults.intake(record));
    server.route("GET /v2/intake/1003", ...reads).route(HISTORY, faults.json(200, { intakes_list: [intake] }));
    server.route(UPDATE, faults.updated(1003)).route("DELETE /v2/intake/1003/display_image", faults.intake(intake));
    server.route("POST /v2/intake/1003/display_image", faults.error(415, "not a readable image (injected)"));
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1003"]);
    expect(result.code).toBe(7);
    expect(stepRows(result.stdout).get("display image")?.detail).toMatch(/answered 415: not a readable image/);
    expect(server.count("DELETE /v2/intake/1003/display_image")).toBe(1);
  });

  it("a 401: exit 4 at step 1, every other step skipped, one request sent", async () => {
    const server = await newServer();
    server.route(READ, faults.error(401, "token rejected (injected)"));
    const result = await runAgainstApi(server.url, await signTestToken(), ["smoke", "1002"]);
    expect(result.code).toBe(4);
    const rows = stepRows(result.stdout);
    expect(rows.get("auth")?.result).toBe("failed");
    for (const step of ["read", "history", "change", "display image"])
      expect(rows.get(step)).toEqual({ result: "skipped", detail: "an earlier step failed" });
    expect(rows.get("restore")).toEqual({ result: "skipped", detail: "no change was sent" });
    expect(result.stderr).toMatch(/^error: smoke check of intake 1002 failed at step "auth": .*answered 401/m);
    expect(server.requests.map((request) => request.route)).toEqual([READ]);
  });

  it("a token a server echoes back is masked in the step details", async () => {
    const token = await signTestToken();
    const server = await newServer();
    server.route(READ, faults.error(401, `bad token ${token}`));
    const result = await runAgainstApi(server.url, token, ["smoke", "1002"]);
    expect(result.stdout + result.stderr).not.toContain(token);
    expect(result.stdout).toContain("bad token ****");
  });
});
