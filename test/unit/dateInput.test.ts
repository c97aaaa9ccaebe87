/** The one grammar of dates (docs/cli.md, Dates), on a fixed clock in several zones. */
import { describe, expect, it } from "vitest";
import { instantOf, readDate, wallOf, type Edge } from "../../src/intake/dateInput.js";
import { formatApiDateTime } from "../../src/intake/dates.js";

// Saturday 28 November 2026, 10:30 UTC: 11:30 in Berlin, 16:15 in Kathmandu (+05:45), 05:30 in New York.
const NOW = Date.parse("2026-11-28T10:30:00Z");

/** The date as the history list sends it, on the zone's clock. */
function sent(text: string, edge: Edge, zone: string, now = NOW): string {
  const answer = readDate(text, edge, zone, now);
  if ("problem" in answer) throw new Error(`"${text}" refused: ${answer.problem}`);
  return formatApiDateTime(wallOf(answer, zone));
}

function problem(text: string, zone = "Europe/Berlin", edge: Edge = "start"): { problem: string; hint?: string } {
  const answer = readDate(text, edge, zone, NOW);
  if (!("problem" in answer)) throw new Error(`"${text}" was read`);
  return answer;
}

describe("a day in words is a whole calendar day on the user's clock", () => {
  it.each([
    ["today", "2026/11/28, 00:00:00", "2026/11/28, 23:59:59"],
    ["yesterday", "2026/11/27, 00:00:00", "2026/11/27, 23:59:59"],
    ["monday", "2026/11/23, 00:00:00", "2026/11/23, 23:59:59"],
    ["Sat", "2026/11/28, 00:00:00", "2026/11/28, 23:59:59"],
    ["sunday", "2026/11/22, 00:00:00", "2026/11/22, 23:59:59"],
    ["3 days ago", "2026/11/25, 00:00:00", "2026/11/25, 23:59:59"],
    ["1 day ago", "2026/11/27, 00:00:00", "2026/11/27, 23:59:59"],
    ["2 weeks ago", "2026/11/14, 00:00:00", "2026/11/14, 23:59:59"],
    ["last week", "2026/11/16, 00:00:00", "2026/11/22, 23:59:59"],
    ["this week", "2026/11/23, 00:00:00", "2026/11/29, 23:59:59"],
    ["last month", "2026/10/01, 00:00:00", "2026/10/31, 23:59:59"],
    ["2026-11-03", "2026/11/03, 00:00:00", "2026/11/03, 23:59:59"],
    ["yesterday 18:00", "2026/11/27, 18:00:00", "2026/11/27, 18:00:00"],
  ])("%s: from %s to %s in Berlin", (text, start, end) => {
    expect(sent(text, "start", "Europe/Berlin")).toBe(start);
    expect(sent(text, "end", "Europe/Berlin")).toBe(end);
  });

  it("reads today on each zone's own calendar: still Friday in New York when it is Saturday in Kathmandu", () => {
    const early = Date.parse("2026-11-28T03:00:00Z");
    expect(sent("today", "start", "Asia/Kathmandu", early)).toBe("2026/11/28, 00:00:00");
    expect(sent("today", "start", "America/New_York", early)).toBe("2026/11/27, 00:00:00");
    expect(sent("yesterday", "start", "UTC", early)).toBe("2026/11/27, 00:00:00");
  });

  it("says how a weekday that is today was read", () => {
    const answer = readDate("saturday", "start", "Europe/Berlin", NOW);
    expect(answer).toMatchObject({ note: '"saturday" read as today, 2026-11-28; the Saturday before is 2026-11-21' });
    expect(readDate("monday", "start", "Europe/Berlin", NOW)).not.toHaveProperty("note");
  });
});

describe("times and lengths are instants", () => {
  it("converts a time with an offset into the zone, and keeps one without as the user's", () => {
    expect(sent("2026-11-03T12:00:00Z", "start", "America/New_York")).toBe("2026/11/03, 07:00:00");
    expect(sent("2026-11-03T12:00:00+01:00", "start", "Asia/Kathmandu")).toBe("2026/11/03, 16:45:00");
    expect(sent("2026-11-03T12:00", "start", "Asia/Kathmandu")).toBe("2026/11/03, 12:00:00");
    expect(sent("2026-11-03 12:00:30", "end", "Asia/Kathmandu")).toBe("2026/11/03, 12:00:30");
  });

  it.each([
    ["3d", "2026/11/25, 16:15:00"],
    ["12h", "2026/11/28, 04:15:00"],
    ["30m", "2026/11/28, 15:45:00"],
    ["2w", "2026/11/14, 16:15:00"],
    ["3 hours ago", "2026/11/28, 13:15:00"],
    ["now", "2026/11/28, 16:15:00"],
  ])("%s is that long before now, on Kathmandu's clock (%s)", (text, expected) => {
    expect(sent(text, "start", "Asia/Kathmandu")).toBe(expected);
  });
});

describe("a day across a clock change (Berlin leaves summer time on 25 October 2026)", () => {
  // Wednesday 28 October 2026, noon in Berlin (CET, +01:00).
  const after = Date.parse("2026-10-28T11:00:00Z");
  const instants = (text: string) => {
    const read = (edge: Edge) => {
      const answer = readDate(text, edge, "Europe/Berlin", after);
      if ("problem" in answer) throw new Error(answer.problem);
      return new Date(instantOf(answer, "Europe/Berlin", edge)).toISOString();
    };
    return [read("start"), read("end")];
  };

  it("last week runs from Monday in summer time to Sunday in winter time", () => {
    expect(instants("last week")).toEqual(["2026-10-18T22:00:00.000Z", "2026-10-25T22:59:59.000Z"]);
  });

  it("the day of the change is 25 hours long", () => {
    expect(instants("sunday")).toEqual(["2026-10-24T22:00:00.000Z", "2026-10-25T22:59:59.000Z"]);
  });

  it("a time shown twice is its earlier instant as a start, its later one as an end", () => {
    expect(instants("2026-10-25T02:30")).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"]);
  });
});

describe("forms read two ways are refused, naming their readings", () => {
  it.each([
    ["03/11/2026", '"03/11/2026" could be 2026-11-03 or 2026-03-11?'],
    ["3/11", '"3/11" could be 2026-11-03 or 2026-03-11?'],
    ["3.11.26", '"3.11.26" could be 2026-11-03 or 2026-03-11?'],
    ["11-03-2026", '"11-03-2026" could be 2026-03-11 or 2026-11-03?'],
  ])("%s", (text, message) => {
    expect(problem(text)).toEqual({ problem: message, hint: "write the one you mean as YYYY-MM-DD" });
  });

  it.each([
    ["25/11/2026", '"25/11/2026" is not a form foodctl reads: write 2026-11-25'],
    ["5/5/2026", '"5/5/2026" is not a form foodctl reads: write 2026-05-05'],
    ["2026/11/03", '"2026/11/03" is not a form foodctl reads: write 2026-11-03'],
    ["3 Nov", '"3 Nov" is not a form foodctl reads: write 2026-11-03'],
    ["November 3, 2025", '"November 3, 2025" is not a form foodctl reads: write 2025-11-03'],
    ["31/31/2026", '"31/31/2026" is not a date in the calendar'],
  ])("%s has one reading, and is still written as YYYY-MM-DD", (text, message) => {
    expect(problem(text).problem).toBe(message);
  });

  it("last <weekday> names both weeks it could mean", () => {
    expect(problem("last monday")).toEqual({
      problem: '"last monday" could be 2026-11-23 (the latest Monday) or 2026-11-16 (Monday of last week)?',
      hint: 'write the one you mean as YYYY-MM-DD, or "monday" for the latest',
    });
    // On a Monday both readings are one day: 23 November.
    expect(readDate("last monday", "start", "UTC", Date.parse("2026-11-30T10:00:00Z"))).toEqual({
      wall: new Date("2026-11-23T00:00:00Z"),
    });
  });

  it.each(["someday", "", "yesterday and today", "monday please", "1762000000", "2026-1-1", "3 marathons"])(
    "refuses %j as no form at all",
    (text) => {
      expect(problem(text).problem).toMatch(/^must be a date \(YYYY-MM-DD\), an ISO 8601 time, a length back from now/);
    },
  );

  it.each(["2026-02-30", "2026-13-01", "2026-11-01T25:00:00Z", "2026-11-01T10:61"])("refuses %s: not in the calendar", (text) => {
    expect(problem(text).problem).toMatch(/is not a (date|time) in the calendar$/);
  });
});
