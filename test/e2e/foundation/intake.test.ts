/** `intake show` and `intake list` through the built CLI against a sandbox. */
import { describe, expect, it } from "vitest";
import type { IntakeRecord } from "../../../src/sandbox/render.js";
import { fetchJson } from "../../helpers/sandbox.js";
import { expectErrorLine, expectExit, expectJsonError, useSandbox } from "./harness.js";

const sandbox = useSandbox();

/** The date_from/date_to of the last history-list request the sandbox logged. */
function lastListQuery(): { date_from: string | null; date_to: string | null; user_id: string | null } {
  const line = [...sandbox.requests].reverse().find((entry) => entry.startsWith("GET /v2/history/getIntakesList"));
  if (!line) throw new Error("the sandbox saw no list request");
  const query = new URL(line.split(" ")[1]!, "http://x").searchParams;
  return { date_from: query.get("date_from"), date_to: query.get("date_to"), user_id: query.get("user_id") };
}

const ids = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => Number(line.split("\t")[0]));

describe("intake show", () => {
  it("prints a piped intake as tab-separated rows without colour", async () => {
    const result = await sandbox.cli(["intake", "show", "1002"], { env: { FORCE_COLOR: "1" } });
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toContain("\u001b[");
    expect(result.stdout).not.toMatch(/[┌│─]/);
    const record = sandbox.handle.intake(1002) as IntakeRecord;
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toContain("image_id\t1002");
    expect(lines).toContain("kind\tsegmentation");
    expect(lines).toContain(`time\t${record.timestamp}`);
    expect(lines).toContain(`occasion\t${record.occasion}`);
    const items = lines.filter((line) => line.startsWith("item\t")).map((line) => line.split("\t"));
    expect(items.map((cells) => cells.slice(1, 4))).toEqual(
      record.recipe_per_item!.map((item) => [String(item.food_item_position), item.name, String(item.serving_size)]),
    );
    for (const cells of items) expect(cells).toHaveLength(9);
    const energy = lines.find((line) => line.startsWith("total\tenergy\t"));
    expect(energy).toBe(`total\tenergy\t${Number(record.nutritional_info.calories.toFixed(1))}\tkcal`);
  });

  it("prints a recognition-only intake as one item row without a position", async () => {
    const result = await sandbox.cli(["intake", "show", "1001"]);
    expectExit(result, 0);
    const items = result.stdout.split("\n").filter((line) => line.startsWith("item\t"));
    expect(items).toHaveLength(1);
    expect(items[0]!.split("\t")[1]).toBe("-");
    expect(result.stdout).toContain("kind\trecognition-only");
  });

  it("prints a manual intake stored as APIImage as manual, with its display image editable", async () => {
    const result = await sandbox.cli(["intake", "show", "1004"]);
    expectExit(result, 0);
    expect(result.stdout).toContain("kind\tmanual");
    expect(result.stdout).toMatch(/^item\tmanual1\t/m);
    expect(result.stdout).toMatch(/^display image\tnone \(can attach\)/m);
  });

  it("prints --json exactly as the server answered", async () => {
    const direct = await fetchJson(sandbox.handle, "GET", "/v2/intake/1002", { as: "alice" });
    const result = await sandbox.cli(["intake", "show", "1002", "--json"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(direct.text.endsWith("\n") ? direct.text : `${direct.text}\n`);
    expect(JSON.parse(result.stdout)).toEqual(direct.body);
  });

  it("acts for a managed user with --user, sending it as user_id", async () => {
    const direct = await fetchJson(sandbox.handle, "GET", "/v2/intake/2001", { as: "dave", query: { user_id: 102 } });
    const result = await sandbox.cli(["intake", "show", "2001", "--user", "102", "--json"], { as: "dave" });
    expectExit(result, 0);
    expect(result.stdout.trimEnd()).toBe(direct.text.trimEnd());
  });

  it("turns the manager's missing user_id into a clear message and a hint (exit 7)", async () => {
    const result = await sandbox.cli(["intake", "show", "2001"], { as: "dave" });
    const line = expectErrorLine(result, 7, /answered 400/);
    expect(line).toContain(new URL(sandbox.url).host);
    expect(result.stderr).toMatch(/^hint: .*--user <id>/m);
  });

  it("names the status of a missing intake (exit 6) and a forbidden one (exit 5)", async () => {
    expectErrorLine(await sandbox.cli(["intake", "show", "9999"]), 6, /answered 404/);
    expectErrorLine(await sandbox.cli(["intake", "show", "2001", "--user", "102"]), 5, /answered 403/);
  });

  it("reports an API error as one JSON object on stderr under --json", async () => {
    const error = expectJsonError(await sandbox.cli(["intake", "show", "9999", "--json"]), 6, "not_found");
    expect(error.status).toBe(404);
  });
});

describe("intake list", () => {
  it("lists the user's intakes oldest first, one tab-separated row each", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"]);
    expectExit(result, 0);
    expect(ids(result.stdout)).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(result.stdout).not.toContain("\u001b[");
    const row1004 = result.stdout
      .split("\n")
      .find((line) => line.startsWith("1004\t"))!
      .split("\t");
    expect(row1004).toHaveLength(7);
    expect(row1004[3]).toBe("manual");
    expect(row1004[6]).toBe("no");
    expect(lastListQuery()).toEqual({ date_from: "2026/11/01, 00:00:00", date_to: "2026/11/30, 23:59:59", user_id: null });
  });

  it("without flags asks for the last 7 days: both dates sent, date_to at the latest clock anywhere (UTC+14)", async () => {
    expectExit(await sandbox.cli(["intake", "list"]), 0);
    const { date_from, date_to } = lastListQuery();
    const [from, to] = [date_from, date_to].map((text) => Date.parse(`${String(text).replace(/\//g, "-").replace(", ", "T")}Z`));
    expect(to! - from!).toBe(7 * 86_400_000 + 14 * 3_600_000);
  });

  it("sends bare --from/--to dates as the start and the last second of those days", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2026-11-03", "--to", "2026-11-04"]);
    expectExit(result, 0);
    expect(lastListQuery()).toMatchObject({ date_from: "2026/11/03, 00:00:00", date_to: "2026/11/04, 23:59:59" });
    // 1003 was eaten at 19:05 on the 4th: a --to at midnight would have left it out.
    expect(ids(result.stdout)).toEqual([1002, 1003]);
  });

  it("converts ISO 8601 times with a zone to UTC", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2026-11-04T20:05:00+01:00", "--to", "2026-11-05T17:40:00+01:00"]);
    expectExit(result, 0);
    expect(lastListQuery()).toMatchObject({ date_from: "2026/11/04, 19:05:00", date_to: "2026/11/05, 16:40:00" });
    expect(ids(result.stdout)).toEqual([1003, 1004]);
  });

  it("prints --json exactly as the server answered", async () => {
    const query = { date_from: "2026/11/01, 00:00:00", date_to: "2026/11/30, 23:59:59" };
    const direct = await fetchJson(sandbox.handle, "GET", "/v2/history/getIntakesList", { as: "bob", query });
    const result = await sandbox.cli(["intake", "list", "--json", "--from", "2026-11-01", "--to", "2026-11-30"], { as: "bob" });
    expectExit(result, 0);
    expect(result.stdout).toBe(direct.text.endsWith("\n") ? direct.text : `${direct.text}\n`);
  });

  it("lists a managed user's intakes with --user", async () => {
    const result = await sandbox.cli(["intake", "list", "--user", "102", "--from", "2026-11-01", "--to", "2026-11-30"], { as: "dave" });
    expectExit(result, 0);
    expect(ids(result.stdout)).toEqual([2001, 2002, 2003]);
    expect(lastListQuery().user_id).toBe("102");
  });

  it("turns the manager's missing user_id into a clear message and a hint (exit 7)", async () => {
    const result = await sandbox.cli(["intake", "list"], { as: "dave" });
    expectErrorLine(result, 7, /answered 400( \(code \d+\))?: .*user_id/);
    expect(result.stderr).toMatch(/^hint: .*--user/m);
  });

  it("says so on stderr when no intake is in the range, with nothing on stdout", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2030-01-01", "--to", "2030-12-31"]);
    expectExit(result, 0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/no intakes/);
  });

  it.each([
    [["--from", "2026-02-30"], /^error: --from: "2026-02-30" is not a date in the calendar$/],
    [["--to", "2026-13-01T10:00"], /^error: --to: "2026-13-01T10:00" is not a time in the calendar$/],
    [["--to", "the week after next sprint"], /--to must be a date \(YYYY-MM-DD\), an ISO 8601 time, .* got "the week after next sprint"/],
    [["--from", "2026-11-05", "--to", "2026-11-04"], /the window starts \(2026-11-05 00:00:00\) after it ends \(2026-11-04 23:59:59\)/],
    [["--days", "0"], /^error: --days must be a whole number of days from 1, got "0"$/],
  ])("refuses %j before sending anything", async (args, pattern) => {
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "list", ...args]), 2, pattern);
  });

  it("hints at --from and --to only for a --days too large for any window", async () => {
    expect((await sandbox.cliSendingNothing(["intake", "list", "--days", "0"])).stderr).not.toContain("hint:");
    const large = await sandbox.cliSendingNothing(["intake", "list", "--days", "10000000"]);
    expectErrorLine(large, 2, /--days must be a whole number of days from 1/);
    expect(large.stderr).toContain("hint: windows over 366 days need both --from and --to");
  });
});
