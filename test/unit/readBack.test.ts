/** The read-back compared with what a change sent (docs/journal.md, concurrent writers): pure. */
import { describe, expect, it } from "vitest";
import { checkReadBack } from "../../src/change/readBack.js";
import type { IntakeState } from "../../src/journal/state.js";
import { completeEntry, entryOfBegin, type BeginRecord } from "../../src/journal/entry.js";

type Item = IntakeState["items"][number];

function state(items: Array<Partial<Item> & { position: string | null }>, attached = false): IntakeState {
  return {
    kind: items[0]?.position === null ? "recognition" : "segmentation",
    items: items.map((item) => ({ grams: 100, salt: "none", sugar: "none", oil: "none", measures: "metric", ...item })),
    display_image: { attached, url: attached ? "http://127.0.0.1/images/a.png" : null },
  };
}

describe("checkReadBack", () => {
  const before = state([
    { position: "1", grams: 150 },
    { position: "2", grams: 80 },
  ]);

  it("finds nothing when the read-back holds what was sent", () => {
    const after = state([
      { position: "1", grams: 160 },
      { position: "2", grams: 80 },
    ]);
    expect(checkReadBack({ kind: "update", fields: { quantity: { "1": 160 } } }, before, after)).toEqual({
      overwritten: [],
      othersChanged: [],
    });
  });

  it("names a quantity this change set that holds another value: sent, now", () => {
    const after = state([
      { position: "1", grams: 90 },
      { position: "2", grams: 80 },
    ]);
    expect(checkReadBack({ kind: "update", fields: { quantity: { "1": 60 } } }, before, after).overwritten).toEqual([
      { position: "1", field: "grams", sent: "60", now: "90" },
    ]);
  });

  it("takes a level that kept its value before for ignored by the server, one that moved elsewhere for overwritten", () => {
    const after = state([
      { position: "1", grams: 150, salt: "none", oil: "high" },
      { position: "2", grams: 80 },
    ]);
    const sent = { kind: "update" as const, fields: { salt: { "1": "low" }, oil: { "1": "medium" } } };
    expect(checkReadBack(sent, before, after).overwritten).toEqual([{ position: "1", field: "oil", sent: "medium", now: "high" }]);
  });

  it("reports fields this change did not set that moved meanwhile, apart from the ones it set", () => {
    const after = state(
      [
        { position: "1", grams: 160 },
        { position: "2", grams: 95, sugar: "low" },
      ],
      true,
    );
    const check = checkReadBack({ kind: "update", fields: { quantity: { "1": 160 } } }, before, after);
    expect(check.overwritten).toEqual([]);
    expect(check.othersChanged).toEqual([
      { position: "2", field: "grams", was: "80", now: "95" },
      { position: "2", field: "sugar", was: "none", now: "low" },
      { position: null, field: "display image", was: "none", now: "attached http://127.0.0.1/images/a.png" },
    ]);
  });

  it("reads a recognition-only total against its one row", () => {
    const total = state([{ position: null, grams: 320 }]);
    expect(
      checkReadBack({ kind: "update", fields: { quantity: 300 } }, total, state([{ position: null, grams: 310 }])).overwritten,
    ).toEqual([{ position: null, field: "grams", sent: "300", now: "310" }]);
  });

  it("names a display image removed by this change that is attached again", () => {
    const attached = state([{ position: "manual1" }], true);
    expect(checkReadBack({ kind: "image", attached: false }, attached, attached).overwritten).toEqual([
      { position: null, field: "display image", sent: "none", now: "attached" },
    ]);
  });
});

describe("journal entries before who, why and concurrent writers were recorded", () => {
  it("read as entries with no actor, no reason and nothing overwritten", () => {
    const begin: BeginRecord = {
      record: "begin",
      id: "mwzq9hjy07zq",
      time: "2026-11-20T10:00:00.000Z",
      profile: "default",
      api_url: "http://127.0.0.1:8787",
      user_id: 101,
      image_id: 1002,
      command: "intake set-quantity",
      request: {
        method: "POST",
        url: "http://127.0.0.1:8787/v2/nutrition/confirm/quantity",
        body: { imageId: 1002, quantity: { "1": 150 } },
      },
      before: state([{ position: "1", grams: 200 }]),
    };
    const entry = entryOfBegin(begin);
    completeEntry(entry, {
      record: "complete",
      id: begin.id,
      time: begin.time,
      outcome: "applied",
      after: state([{ position: "1", grams: 150 }]),
    });
    expect(entry).toMatchObject({ actor: null, reason: null, found: null, overwritten: [], others_changed: [], outcome: "applied" });
  });
});
