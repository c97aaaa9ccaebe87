/** The command specs (src/commands/<noun>/index.ts): what each verb reads from its command line. */
import { Option } from "commander";
import { describe, expect, it } from "vitest";
import { NOUNS } from "../../src/commands/index.js";
import { RawInput } from "../../src/commands/rawInput.js";
import { arg, option, verb } from "../../src/commands/spec.js";

const verbs = NOUNS.flatMap((noun) =>
  [...(noun.action ? [noun.action] : []), ...noun.verbs].map((v) => [`${noun.name} ${v.name}`, v] as const),
);

describe("command specs", () => {
  it("name each noun once", () => {
    expect(new Set(NOUNS.map((noun) => noun.name)).size).toBe(NOUNS.length);
  });

  it("key every option by the name commander gives its value, so each verb reads what was typed", () => {
    const options = verbs.flatMap(([path, v]) => (v.options ?? []).map((o) => [path, o.flags, o.key] as const));
    expect(options.length).toBeGreaterThan(30);
    for (const [path, flags, key] of options)
      expect(`${path} ${flags}: ${key}`).toBe(`${path} ${flags}: ${new Option(flags).attributeName()}`);
  });

  it("read arguments and options as their notation says: text, list, optional, flag, negatable", async () => {
    let seen: unknown;
    const probe = verb("probe", "reads everything", {
      args: { id: arg("<id>"), maybe: arg("[other]"), rest: arg("[rest...]") },
      options: {
        salt: option("--salt <level>", "a value"),
        allItems: option("--all-items", "a flag"),
        verify: option("--no-verify", "on unless negated"),
        yes: option("-y, --yes", "a short alias"),
      },
      examples: "",
      run: async (_ctx, input) => void (seen = input),
    });
    await probe.prepare(new RawInput(["1002", undefined, ["a", "b"]], { salt: "low", verify: false, yes: true }))({} as never);
    expect(seen).toEqual({ id: "1002", maybe: undefined, rest: ["a", "b"], salt: "low", allItems: false, verify: false, yes: true });
    await probe.prepare(new RawInput(["1003", "x", []], {}))({} as never);
    expect(seen).toEqual({ id: "1003", maybe: "x", rest: [], salt: undefined, allItems: false, verify: true, yes: false });
  });
});
