/**
 * Hostile answers: random intake records (wrong types, missing parts, odd numbers, control
 * characters and terminal escapes in every string) fed to the commands in process through an
 * in-memory transport (the parsing and printing are under test, not the sockets). The CLI
 * never crashes on them (no "unexpected error"), ends with an exit code of docs/cli.md and at most
 * one error line, and never passes a terminal control sequence from the server to the terminal.
 * Seeded and bounded.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { runFoodctl } from "../helpers/cli.js";
import { fuzzRuns } from "../helpers/fuzz.js";
import { faults } from "../helpers/faultServer.js";
import { scriptedTransport, type ScriptedTransport } from "../helpers/transport.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";

const RUNS = fuzzRuns(50);
const SEED = 7_2026;
const API_URL = "http://127.0.0.1:9";
let token: string;

beforeAll(async () => {
  token = await signTestToken();
});

/**
 * Any Unicode scalar value (every code point but the surrogates), small ones (controls) most
 * often: what fast-check's "binary" unit gives, without the 1.1-million-entry table it builds first.
 */
const anyCharacter = fc.nat({ max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));
/** Strings a hostile server might send: escapes, control characters, huge, bidi, empty. */
const nastyString = fc.oneof(
  fc.string({ unit: anyCharacter, maxLength: 40 }),
  fc.constantFrom(
    "\u001b[2J\u001b[H",
    "\u001b]0;pwned\u0007",
    "\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007",
    "ok\rEVIL",
    "tab\tand\nnewline",
    "\u009b31mC1 CSI",
    "\u202eevil bidi",
    "",
    "x".repeat(300),
    "manual1",
    "1",
  ),
);
const nastyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1e308, -1e308, 5e-324, 1e21));
const anything = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
/** Mostly the right type (so the record gets past the schema and into the printers), rarely anything. */
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 100, arbitrary: value }, { weight: 1, arbitrary: anything });

const nutrition = fc.record(
  {
    calories: maybe(nastyNumber),
    totalNutrients: maybe(
      fc.dictionary(
        fc.oneof(fc.constantFrom("ENERC_KCAL", "PROCNT", "FAT", "CHOCDF", "SUGAR", "NA"), nastyString),
        fc.record({ label: maybe(nastyString), quantity: maybe(nastyNumber), unit: maybe(nastyString) }, { requiredKeys: [] }),
        {
          maxKeys: 6,
        },
      ),
    ),
  },
  { requiredKeys: [] },
);
const position = fc.oneof(fc.constantFrom(1, 2, 3, "manual1", "manual2"), fc.integer({ min: -2, max: 5 }), nastyString);
const component = fc.record({ name: maybe(nastyString), weight: maybe(nastyNumber), unit: maybe(nastyString) }, { requiredKeys: ["name"] });
const recipeItem = fc.record(
  {
    food_item_position: position,
    name: maybe(nastyString),
    serving_size: maybe(nastyNumber),
    salt: maybe(fc.constantFrom("none", "low", "medium", "high")),
    sugar: maybe(fc.constantFrom("none", "low", "medium", "high")),
    oil: maybe(fc.constantFrom("none", "low", "medium", "high")),
    measures: maybe(fc.constantFrom("metric", "imperial")),
    recipe: maybe(fc.array(component, { maxLength: 3 })),
  },
  { requiredKeys: ["food_item_position"] },
);
const nutritionItem = fc.record(
  {
    food_item_position: position,
    serving_size: maybe(nastyNumber),
    hasNutritionalInfo: maybe(fc.boolean()),
    nutritional_info: maybe(nutrition),
  },
  { requiredKeys: ["food_item_position"] },
);
const intake = fc.record(
  {
    image_id: fc.oneof({ weight: 5, arbitrary: fc.constant(1002) }, { weight: 1, arbitrary: fc.integer() }),
    timestamp: maybe(fc.oneof(fc.constant("2026-11-02T12:30:00Z"), nastyString)),
    occasion: maybe(nastyString),
    user_comment: maybe(nastyString),
    has_display_image: maybe(fc.boolean()),
    can_edit_display_image: maybe(fc.boolean()),
    image_url: maybe(nastyString),
    processed_image_size: maybe(fc.record({ width: nastyNumber, height: nastyNumber })),
    foodName: maybe(fc.array(nastyString, { maxLength: 4 })),
    serving_size: maybe(nastyNumber),
    nutritional_info: maybe(nutrition),
    recipe: maybe(fc.array(component, { maxLength: 3 })),
    salt: maybe(nastyString),
    sugar: maybe(nastyString),
    nutritional_info_per_item: maybe(fc.array(nutritionItem, { maxLength: 4 })),
    recipe_per_item: maybe(fc.array(recipeItem, { maxLength: 4 })),
    extra_field: anything,
  },
  { requiredKeys: ["image_id"] },
);
/** Mostly well-formed records with hostile contents, sometimes a wholly random one. */
const intakeRecord = fc.oneof(
  { weight: 8, arbitrary: intake },
  { weight: 1, arbitrary: fc.constant(segmentationIntake()) },
  { weight: 1, arbitrary: anything },
);

/** C0 controls but tab and newline, DEL, and C1 controls: nothing a server sent may reach a terminal as such. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The CLI's own colours on a terminal (SGR), removed before looking for anything else. */
const OWN_SGR = /\u001b\[[0-9;]*m/g;

async function runInProcess(server: ScriptedTransport, args: string[], tty: boolean) {
  const result = await runFoodctl(["--api-url", API_URL, "--retries", "0", ...args], {
    env: { FOODCTL_TOKEN: token },
    tty,
    columns: 120,
    transport: server.transport,
  });
  expect(server.unexpected, "requests to unscripted routes").toEqual([]);
  return { ...result, code: result.code ?? -1 };
}

function expectSane(result: { code: number; stdout: string; stderr: string }, tty: boolean, what: string): void {
  expect([0, 1, 7], `${what}: exit ${result.code}\n${result.stderr}`).toContain(result.code);
  expect(result.stderr, what).not.toMatch(/unexpected error/);
  expect(result.stderr.split("\n").filter((line) => line.startsWith("error:")).length, what).toBeLessThanOrEqual(1);
  for (const [name, text] of [
    ["stdout", result.stdout],
    ["stderr", result.stderr],
  ] as const) {
    const seen = tty ? text.replace(OWN_SGR, "") : text;
    const found = CONTROL.exec(seen);
    expect(
      found,
      `${what}: ${name} passes a control character U+${found?.[0].charCodeAt(0).toString(16).padStart(4, "0")} through`,
    ).toBeNull();
  }
}

const SHOW = "GET /v2/intake/1002";
const LIST = "GET /v2/history/getIntakesList";
const UPDATE = "POST /v2/nutrition/confirm/quantity";

/** Scripts what `args` reads (and may send) for one run, the two records as the answers. */
function scriptRun(server: ScriptedTransport, args: string[], first: unknown, second: unknown): void {
  if (args[1] === "list") server.route(LIST, faults.json(200, { intakes_list: [first, second] }));
  else if (args[1] === "show") server.route(SHOW, faults.json(200, { intake_info: first }));
  // A change the checks refuse (exit 7) neither sends nor reads again: the update and the read after are allowed, not required.
  else
    server
      .allow(SHOW, faults.json(200, { intake_info: first }), faults.json(200, { intake_info: second }))
      .allow(UPDATE, faults.empty200());
}

describe.concurrent("hostile intake records", () => {
  it.for([
    { args: ["intake", "show", "1002"], tty: false },
    { args: ["intake", "show", "1002"], tty: true },
    { args: ["intake", "list"], tty: false },
    { args: ["intake", "list"], tty: true },
    { args: ["intake", "set-quantity", "1002", "1=150"], tty: false },
    { args: ["intake", "set-quantity", "1002", "1=150"], tty: true },
  ])("$args (terminal: $tty)", async ({ args, tty }, { onTestFinished }) => {
    const server = scriptedTransport({ onTestFinished });
    const codes: number[] = [];
    await fc.assert(
      fc.asyncProperty(intakeRecord, intakeRecord, async (first, second) => {
        server.reset();
        scriptRun(server, args, first, second);
        const result = await runInProcess(server, args, tty);
        codes.push(result.code);
        expectSane(result, tty, args.join(" "));
        // A change that went through was sent, and read again.
        if (args[1] === "set-quantity" && result.code === 0) {
          expect(server.count(UPDATE)).toBe(1);
          expect(server.count(SHOW)).toBe(2);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Many records got past the schema (to the printers, or to the checks before an update), so
    // the property tested more than the refusal of malformed answers.
    expect(codes.filter((code) => code !== 1).length).toBeGreaterThan(RUNS / 4);
  });

  it("error messages from the server lose their control characters too", async ({ onTestFinished }) => {
    const server = scriptedTransport({ onTestFinished });
    await fc.assert(
      fc.asyncProperty(nastyString, fc.constantFrom(400, 403, 404, 409, 500), async (message, status) => {
        server.reset();
        server.route(SHOW, faults.error(status, message));
        const result = await runInProcess(server, ["intake", "show", "1002"], false);
        expect(result.code).not.toBe(0);
        expectSane({ ...result, code: 1 }, false, `error ${status}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
