/**
 * The user's clock (docs/api.md, the history list): each seeded user lives in an IANA zone, and
 * the history list reads date_from and date_to as wall-clock times in the zone of the user it
 * acts for. Intakes keep their instants.
 */
import { describe, expect, it } from "vitest";
import { SEED_USERS } from "../../src/sandbox/seed.js";
import { canonicalTimeZone } from "../../src/intake/zoneNames.js";
import { zonedInstant, zoneOffsetMs } from "../../src/intake/zones.js";
import { fetchJson, withSandbox } from "../helpers/sandbox.js";
import type { Json } from "./fixtures.js";

const HOUR = 3_600_000;
const wall = (text: string) => Date.parse(`${text}Z`);
const iso = (instant: number) => new Date(instant).toISOString();

describe("zones, from Intl", () => {
  it("every seeded user has a zone Intl knows; the APIUsers include UTC, Asia/Tokyo and America/New_York", () => {
    for (const user of SEED_USERS) expect([user.name, canonicalTimeZone(user.timeZone)]).toEqual([user.name, user.timeZone]);
    const zones = SEED_USERS.filter((user) => user.role === "APIUser").map((user) => user.timeZone);
    expect(zones).toEqual(expect.arrayContaining(["UTC", "Asia/Tokyo", "America/New_York"]));
    expect(canonicalTimeZone("Mars/Olympus_Mons")).toBeNull();
  });

  it("the handle names each user's zone beside its tokens", async () => {
    const { startSandbox } = await import("../../src/sandbox/server.js");
    const handle = await startSandbox({ port: 0 });
    try {
      expect(handle.users.map((user) => [user.name, user.time_zone])).toEqual(SEED_USERS.map((user) => [user.name, user.timeZone]));
    } finally {
      await handle.close();
    }
  });

  it("offsets follow the zone's clock changes: New York is 4 h behind in summer, 5 h after 1 November 2026", () => {
    expect(zoneOffsetMs("Asia/Tokyo", wall("2026-11-05T12:00:00"))).toBe(9 * HOUR);
    expect(zoneOffsetMs("America/New_York", wall("2026-07-01T12:00:00"))).toBe(-4 * HOUR);
    expect(zoneOffsetMs("America/New_York", wall("2026-11-03T12:00:00"))).toBe(-5 * HOUR);
    expect(zoneOffsetMs("UTC", wall("2026-11-03T12:00:00"))).toBe(0);
  });

  it("a plain wall time is one instant, whichever end of the window it is", () => {
    for (const end of ["start", "end"] as const) {
      expect(iso(zonedInstant("Asia/Tokyo", wall("2026-11-07T00:00:00"), end))).toBe("2026-11-06T15:00:00.000Z");
      expect(iso(zonedInstant("America/New_York", wall("2026-11-03T23:59:59"), end))).toBe("2026-11-04T04:59:59.000Z");
    }
  });

  it("a time the clocks show twice opens a window at its first instant and closes one at its second", () => {
    expect(iso(zonedInstant("America/New_York", wall("2026-11-01T01:30:00"), "start"))).toBe("2026-11-01T05:30:00.000Z");
    expect(iso(zonedInstant("America/New_York", wall("2026-11-01T01:30:00"), "end"))).toBe("2026-11-01T06:30:00.000Z");
    expect(iso(zonedInstant("Europe/Berlin", wall("2026-10-25T02:30:00"), "start"))).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(zonedInstant("Europe/Berlin", wall("2026-10-25T02:30:00"), "end"))).toBe("2026-10-25T01:30:00.000Z");
  });

  it("a time the clocks skip is the moment of the change", () => {
    for (const end of ["start", "end"] as const) {
      expect(iso(zonedInstant("America/New_York", wall("2026-03-08T02:30:00"), end))).toBe("2026-03-08T07:00:00.000Z");
      expect(iso(zonedInstant("Europe/Berlin", wall("2026-03-29T02:00:00"), end))).toBe("2026-03-29T01:00:00.000Z");
    }
  });
});

describe("the history list in the user's zone", () => {
  const sb = withSandbox();
  const list = async (as: string, date_from: string, date_to: string, query: Record<string, string | number> = {}) => {
    const answer = await fetchJson(sb.handle, "GET", "/v2/history/getIntakesList", { as, query: { date_from, date_to, ...query } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.intakes_list as Json[];
  };
  const ids = (intakes: Json[]) => intakes.map((intake) => intake.image_id);

  it("carol (Asia/Tokyo): the 7th is her 7th, so the dinner she logged at 07:20 on the 7th (22:20 UTC on the 6th) is in it", async () => {
    const seventh = await list("carol", "2026/11/07, 00:00:00", "2026/11/07, 23:59:59");
    expect(ids(seventh)).toEqual([3002]);
    // The intake keeps its instant: the record still says when, in UTC.
    expect(seventh[0].timestamp).toBe("2026-11-06T22:20:00Z");
    expect(ids(await list("carol", "2026/11/06, 00:00:00", "2026/11/06, 23:59:59"))).toEqual([]);
  });

  it("bob (America/New_York): 00:00 to 04:00 on the 4th holds the intake of 08:00 UTC, 03:00 in New York", async () => {
    expect(ids(await list("bob", "2026/11/04, 00:00:00", "2026/11/04, 04:00:00"))).toEqual([2003]);
    expect(ids(await list("bob", "2026/11/04, 04:00:01", "2026/11/04, 23:59:59"))).toEqual([]);
  });

  it("alice (UTC): the dates are UTC, as before", async () => {
    expect(ids(await list("alice", "2026/11/03, 08:15:00", "2026/11/05, 16:40:00"))).toEqual([1002, 1003, 1004]);
    expect(ids(await list("alice", "2026/11/03, 08:15:01", "2026/11/05, 16:39:59"))).toEqual([1003]);
  });

  it("a manager's or a company's window is read in the zone of the user it acts for, not its own", async () => {
    expect(ids(await list("dave", "2026/11/04, 00:00:00", "2026/11/04, 04:00:00", { user_id: 102 }))).toEqual([2003]);
    expect(ids(await list("acme", "2026/11/07, 00:00:00", "2026/11/07, 23:59:59", { user_id: 103 }))).toEqual([3002]);
  });
});
