/** `journal --since/--until` read by the one grammar of dates, on the user's clock, and the journal's times shown there. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeClock } from "../helpers/clock.js";
import { startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
// Changes at fixed instants, and the Tokyo day each falls on (UTC+9).
const CHANGES = [
  { at: "2026-11-26T14:30:00Z", quantity: "101", tokyo: "2026-11-26T23:30:00+09:00" },
  { at: "2026-11-26T15:30:00Z", quantity: "102", tokyo: "2026-11-27T00:30:00+09:00" },
  { at: "2026-11-27T14:00:00Z", quantity: "103", tokyo: "2026-11-27T23:00:00+09:00" },
  { at: "2026-11-27T15:10:00Z", quantity: "104", tokyo: "2026-11-28T00:10:00+09:00" },
];
// Saturday 28 November, 10:00 in Tokyo, 01:00 UTC.
const now = () => fakeClock({ start: Date.parse("2026-11-28T01:00:00Z") });

beforeAll(async () => {
  sandbox = await startJournalSandbox();
  for (const change of CHANGES) {
    const result = await sandbox.cli(["intake", "set-quantity", "1001", change.quantity], {
      clock: fakeClock({ start: Date.parse(change.at) }),
    });
    if (result.code !== 0) throw new Error(result.stderr);
  }
});
afterAll(() => sandbox.close());

/** The "g" the journal rows name (the quantity each change set), newest first, and their times. */
async function rows(args: string[]): Promise<Array<[string, string]>> {
  const result = await sandbox.cli(["journal", ...args], { clock: now() });
  expect(result).toMatchObject({ code: 0 });
  return result.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const cells = line.split("\t");
      return [cells[1]!, /→(\d+)/.exec(cells[5]!)?.[1] ?? cells[5]!];
    });
}

describe("journal --since and --until on the user's clock", () => {
  it("--since yesterday --tz Asia/Tokyo lists the changes from Tokyo's yesterday on, with Tokyo times", async () => {
    expect(await rows(["--since", "yesterday", "--tz", "Asia/Tokyo"])).toEqual([
      [CHANGES[3]!.tokyo, "104"],
      [CHANGES[2]!.tokyo, "103"],
      [CHANGES[1]!.tokyo, "102"],
    ]);
  });

  it("a day as --until runs to its last second: yesterday alone in Tokyo, and in UTC", async () => {
    expect((await rows(["--since", "yesterday", "--until", "yesterday", "--tz", "Asia/Tokyo"])).map(([, g]) => g)).toEqual(["103", "102"]);
    // Without a zone, yesterday is UTC's 27 November, and the times are UTC.
    expect(await rows(["--since", "yesterday", "--until", "yesterday"])).toEqual([
      ["2026-11-27T15:10:00Z", "104"],
      ["2026-11-27T14:00:00Z", "103"],
    ]);
  });

  it("takes the same forms as intake list: a date, a time with an offset, a length", async () => {
    expect((await rows(["--since", "2026-11-27", "--tz", "Asia/Tokyo"])).map(([, g]) => g)).toEqual(["104", "103", "102"]);
    expect((await rows(["--since", "2026-11-27T00:00:00+09:00", "--until", "2026-11-27T23:59:59+09:00"])).map(([, g]) => g)).toEqual([
      "103",
      "102",
    ]);
    expect((await rows(["--since", "12h"])).map(([, g]) => g)).toEqual(["104", "103"]);
  });

  it("names the zone over the time column on a terminal, and in journal show", async () => {
    const table = await sandbox.cli(["journal", "--tz", "Asia/Kathmandu", "--limit", "1", "--no-color"], { clock: now(), tty: true });
    expect(table.stdout).toMatch(/time \(Asia\/Kathmandu\)/);
    // 15:10 UTC is 20:55 in Kathmandu (+05:45); this year's rows leave the year out.
    expect(table.stdout).toContain("11-27 20:55");
    const [id] = /^\S+/.exec(table.stdout.split("\n")[2]!)!;
    const show = await sandbox.cli(["journal", "show", id, "--tz", "Asia/Kathmandu"], { clock: now(), tty: true });
    expect(show.stdout).toMatch(/^time: +2026-11-27 20:55 Asia\/Kathmandu \(10 h ago\)$/m);
  });

  it("refuses --since after --until, a slash date and an abbreviated zone: exit 2, nothing printed", async () => {
    const crossed = await sandbox.cli(["journal", "--since", "today", "--until", "yesterday"], { clock: now() });
    expect(crossed).toMatchObject({ code: 2, stdout: "" });
    expect(crossed.stderr).toMatch(/error: --since \(2026-11-28T00:00:00Z\) is after --until \(2026-11-27T23:59:59Z\)/);
    const abbreviated = await sandbox.cli(["journal", "--since", "yesterday", "--tz", "JST"], { clock: now() });
    expect(abbreviated).toMatchObject({ code: 2, stdout: "" });
    expect(abbreviated.stderr).toContain('error: --tz: time zone "JST" is an abbreviation');
    expect(abbreviated.stderr).toContain("hint: give the zone's IANA name: Asia/Tokyo");
  });
});
