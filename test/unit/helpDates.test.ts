/** `foodctl help dates` names only forms the one date grammar reads, and refuses what it says it refuses. */
import { describe, expect, it } from "vitest";
import { readDateOption } from "../../src/commands/dateOption.js";
import { dates } from "../../src/topics/dates.js";

const NOW = Date.parse("2026-11-28T10:30:00Z");

/** The forms the topic lists, one by one ("monday … sunday": both ends). */
function listedForms(): string[] {
  const forms = dates.sections.find((section) => section.heading === "Forms")!.items!;
  return forms.flatMap((item) => item.term.split(/, | … /));
}

describe("help dates", () => {
  it("every form it lists is read by the grammar, as a start and as an end", () => {
    const forms = listedForms();
    expect(forms).toEqual(expect.arrayContaining(["2026-11-03", "yesterday", "last week", "3 days ago", "yesterday 18:00", "3d"]));
    for (const form of forms)
      for (const edge of ["start", "end"] as const)
        expect(() => readDateOption("--from", form, edge, "Europe/Berlin", NOW), form).not.toThrow();
  });

  it.each(["03/11/2026", "3/11", "3.11.26", "11-03-2026", "last monday", "25/11/2026", "3 Nov"])("refuses %s, as it says", (form) => {
    expect(() => readDateOption("--from", form, "start", "Europe/Berlin", NOW)).toThrow();
  });
});
