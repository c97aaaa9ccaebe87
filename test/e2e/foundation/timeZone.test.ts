/** The user's clock (--tz, FOODCTL_TZ, the profile's timezone) against a sandbox that reads each user's windows in their zone. */
import { describe, expect, it } from "vitest";
import { fakeClock } from "../../helpers/clock.js";
import { runFoodctl as configCli } from "../../helpers/cli.js";
import { configHome, expectErrorLine, expectExit, useSandbox } from "./harness.js";

const sandbox = useSandbox();

function lastListQuery(): { date_from: string | null; date_to: string | null } {
  const line = [...sandbox.requests].reverse().find((entry) => entry.startsWith("GET /v2/history/getIntakesList"));
  if (!line) throw new Error("the sandbox saw no list request");
  const query = new URL(line.split(" ")[1]!, "http://x").searchParams;
  return { date_from: query.get("date_from"), date_to: query.get("date_to") };
}

const ids = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => Number(line.split("\t")[0]));

describe("intake list on the user's clock", () => {
  it("sends a bare date as the user's calendar day: carol's dinner of 6 Nov 22:20 UTC is on her 7 November", async () => {
    const result = await sandbox.cli(["intake", "list", "--tz", "Asia/Tokyo", "--from", "2026-11-07", "--to", "2026-11-07"], {
      as: "carol",
    });
    expectExit(result, 0);
    expect(lastListQuery()).toEqual({ date_from: "2026/11/07, 00:00:00", date_to: "2026/11/07, 23:59:59" });
    expect(ids(result.stdout)).toEqual([3002]);
    expect(result.stdout.split("\t")[1]).toBe("2026-11-07T07:20:00+09:00");
  });

  it("converts a time with an offset into the zone", async () => {
    const result = await sandbox.cli(["intake", "list", "--tz", "America/New_York", "--from", "2026-11-03T12:00:00Z", "--days", "1"], {
      as: "bob",
    });
    expectExit(result, 0);
    expect(lastListQuery()).toEqual({ date_from: "2026/11/03, 07:00:00", date_to: "2026/11/04, 07:00:00" });
  });

  it("ends the default window at the zone's now; without a zone at the latest clock anywhere", async () => {
    const clock = fakeClock({ start: Date.parse("2026-11-26T05:30:00Z") });
    expectExit(await sandbox.cli(["intake", "list", "--tz", "Asia/Tokyo"], { as: "carol", clock }), 0);
    expect(lastListQuery()).toEqual({ date_from: "2026/11/19, 14:30:00", date_to: "2026/11/26, 14:30:00" });
    expectExit(await sandbox.cli(["intake", "list"], { as: "carol", clock }), 0);
    expect(lastListQuery()).toEqual({ date_from: "2026/11/19, 05:30:00", date_to: "2026/11/26, 19:30:00" });
  });

  it("reads words on the user's clock: yesterday, a weekday, last week, 3d", async () => {
    // Thursday 26 November 00:30 in Tokyo, still Wednesday 25 November in New York.
    const clock = fakeClock({ start: Date.parse("2026-11-25T15:30:00Z") });
    const sent = async (args: string[], zone: string) => {
      expectExit(await sandbox.cli(["intake", "list", "--tz", zone, ...args], { as: "carol", clock }), 0);
      return lastListQuery();
    };
    expect(await sent(["--from", "yesterday", "--to", "yesterday"], "Asia/Tokyo")).toEqual({
      date_from: "2026/11/25, 00:00:00",
      date_to: "2026/11/25, 23:59:59",
    });
    expect(await sent(["--from", "yesterday", "--to", "yesterday"], "America/New_York")).toEqual({
      date_from: "2026/11/24, 00:00:00",
      date_to: "2026/11/24, 23:59:59",
    });
    expect((await sent(["--from", "monday"], "Asia/Tokyo")).date_from).toBe("2026/11/23, 00:00:00");
    // Last week is the calendar week before this one, Monday to Sunday.
    expect(await sent(["--from", "last week", "--to", "last week"], "Asia/Tokyo")).toEqual({
      date_from: "2026/11/16, 00:00:00",
      date_to: "2026/11/22, 23:59:59",
    });
    // "3 days ago" is that whole day; a length (3d) is exact, back from now.
    expect(await sent(["--from", "3 days ago", "--to", "3 days ago"], "Asia/Tokyo")).toEqual({
      date_from: "2026/11/23, 00:00:00",
      date_to: "2026/11/23, 23:59:59",
    });
    expect(await sent(["--from", "3d"], "Asia/Tokyo")).toEqual({ date_from: "2026/11/23, 00:30:00", date_to: "2026/11/26, 00:30:00" });
    // Kathmandu is UTC+05:45: 21:15 on Wednesday 25 November.
    expect(await sent(["--from", "2 weeks ago"], "Asia/Kathmandu")).toEqual({
      date_from: "2026/11/11, 00:00:00",
      date_to: "2026/11/25, 21:15:00",
    });
  });

  it("reads a window across Berlin's clock change on Berlin's calendar", async () => {
    // Wednesday 28 October 2026, 12:00 in Berlin (CET): summer time ended on Sunday 25 October.
    const clock = fakeClock({ start: Date.parse("2026-10-28T11:00:00Z") });
    const result = await sandbox.cli(["intake", "list", "--tz", "Europe/Berlin", "--from", "last week", "--to", "last week"], {
      as: "carol",
      clock,
      tty: true,
      columns: 160,
    });
    expectExit(result, 0);
    expect(lastListQuery()).toEqual({ date_from: "2026/10/19, 00:00:00", date_to: "2026/10/25, 23:59:59" });
    const verbose = await sandbox.cli(
      ["intake", "list", "--tz", "Europe/Berlin", "--from", "last week", "--to", "last week", "--verbose"],
      {
        as: "carol",
        clock,
      },
    );
    expect(verbose.stderr).toContain('* window sent: date_from "2026/10/19, 00:00:00", date_to "2026/10/25, 23:59:59" (Europe/Berlin)');
    // carol has no intakes that week: the window is named on stderr.
    expect(result.stderr).toBe("no intakes of Mon 19 Oct – Sun 25 Oct 2026 (Europe/Berlin)\n");
  });

  it("refuses slash dates and abbreviated zones, naming what they could mean: exit 2, nothing sent", async () => {
    const slash = await sandbox.cliSendingNothing(["intake", "list", "--from", "03/11/2026"], { env: { FOODCTL_TZ: "Europe/Berlin" } });
    expectErrorLine(slash, 2, '--from: "03/11/2026" could be 2026-11-03 or 2026-03-11?');
    expect(slash.stderr).toContain("hint: write the one you mean as YYYY-MM-DD");
    const est = await sandbox.cliSendingNothing(["intake", "list", "--tz", "est"]);
    expectErrorLine(est, 2, '--tz: time zone "est" is an abbreviation');
    expect(est.stderr).toContain(
      "hint: give the zone's IANA name: America/New_York, America/Toronto, America/Panama; EST itself is UTC-05:00 all year, with no daylight saving",
    );
    expectErrorLine(
      await sandbox.cliSendingNothing(["intake", "show", "1001"], { env: { FOODCTL_TZ: "CET" } }),
      2,
      'FOODCTL_TZ: time zone "CET"',
    );
  });

  it("names the zone in the heading and the time column on a terminal", async () => {
    const result = await sandbox.cli(["intake", "list", "--tz", "Asia/Tokyo", "--from", "2026-11-07", "--to", "2026-11-07"], {
      as: "carol",
      tty: true,
      columns: 160,
    });
    expectExit(result, 0);
    expect(result.stdout).toContain("Intakes of Sat 7 Nov 2026 (Asia/Tokyo)\n");
    expect(result.stdout).toMatch(/time \(Asia\/Tokyo\)/);
    expect(result.stdout).toContain("2026-11-07 07:20");
    expect(result.stdout).not.toContain("UTC");
  });

  it("without a zone says the times are in UTC and how to name the zone", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2026-11-07", "--to", "2026-11-07"], {
      as: "carol",
      tty: true,
      columns: 160,
    });
    expectExit(result, 0);
    expect(result.stdout).toContain("Intakes of Sat 7 Nov 2026, times in UTC (the user's zone is not known: --tz names it)\n");
    const clock = fakeClock({ start: Date.parse("2026-11-26T05:30:00Z") });
    const last = await sandbox.cli(["intake", "list", "--days", "30"], { as: "carol", tty: true, columns: 160, clock });
    expect(last.stdout.split("\n")[0]).toBe("Intakes of the last 30 days, times in UTC (the user's zone is not known: --tz names it)");
    const since = await sandbox.cli(["intake", "list", "--tz", "Asia/Kathmandu", "--from", "2026-11-03"], {
      as: "carol",
      tty: true,
      columns: 160,
      clock,
    });
    expect(since.stdout.split("\n")[0]).toBe("Intakes of Tue 3 Nov 2026 – now (Asia/Kathmandu)");
    const times = await sandbox.cli(["intake", "list", "--tz", "Asia/Tokyo", "--from", "2026-11-03T10:00", "--to", "2026-11-08T18:30"], {
      as: "carol",
      tty: true,
      columns: 160,
    });
    expect(times.stdout.split("\n")[0]).toBe("Intakes of Tue 3 Nov 10:00 – Sun 8 Nov 2026 18:30 (Asia/Tokyo)");
    // The intake's own time is an instant, shown in UTC and said so.
    expect(result.stdout).toMatch(/time \(UTC\)/);
  });

  it("shows an intake's time in the zone", async () => {
    const result = await sandbox.cli(["intake", "show", "3002", "--tz", "Asia/Tokyo", "--no-color"], {
      as: "carol",
      tty: true,
      columns: 160,
    });
    expectExit(result, 0);
    expect(result.stdout).toMatch(/^time +2026-11-07 07:20 Asia\/Tokyo \(/m);
  });

  it("refuses an unknown zone in one line, exit 2, nothing sent, wherever it came from", async () => {
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "list", "--tz", "Mars/Base"]), 2, /--tz: unknown time zone "Mars\/Base"/);
    expectErrorLine(
      await sandbox.cliSendingNothing(["intake", "list"], { env: { FOODCTL_TZ: "Europe/Atlantis" } }),
      2,
      /FOODCTL_TZ: unknown time zone "Europe\/Atlantis"/,
    );
    expectErrorLine(await sandbox.cliSendingNothing(["intake", "list", "--from", "someday"]), 2, /--from must be a date \(YYYY-MM-DD\)/);
  });
});

describe("where the zone comes from: --tz > FOODCTL_TZ > the profile's timezone", () => {
  it("takes each in that order, and config set checks the name", async () => {
    const home = configHome();
    const env = { FOODCTL_API_URL: sandbox.url, FOODCTL_TOKEN: sandbox.token("carol"), XDG_CONFIG_HOME: home };
    expectErrorLine(await configCli(["config", "set", "timezone", "Mars/Base"], { env }), 2, /timezone: unknown time zone "Mars\/Base"/);
    const pst = await configCli(["config", "set", "timezone", "PST"], { env });
    expectErrorLine(pst, 2, 'timezone: time zone "PST" is an abbreviation');
    expect(pst.stderr).toContain(
      "hint: give the zone's IANA name: America/Los_Angeles, America/Vancouver; PST itself is UTC-08:00 all year",
    );
    expectExit(await configCli(["config", "set", "timezone", "asia/tokyo"], { env }), 0);
    expect((await configCli(["config", "get", "timezone"], { env })).stdout).toBe("Asia/Tokyo\n");
    const window = async (extra: string[], extraEnv: Record<string, string> = {}) => {
      expectExit(
        await sandbox.cli(["intake", "list", "--from", "2026-11-03T12:00:00Z", "--days", "1", ...extra], {
          as: "carol",
          env: { ...env, ...extraEnv },
        }),
        0,
      );
      return lastListQuery().date_from;
    };
    expect(await window([])).toBe("2026/11/03, 21:00:00");
    expect(await window([], { FOODCTL_TZ: "Europe/Berlin" })).toBe("2026/11/03, 13:00:00");
    expect(await window(["--tz", "America/New_York"], { FOODCTL_TZ: "Europe/Berlin" })).toBe("2026/11/03, 07:00:00");
  });
});
