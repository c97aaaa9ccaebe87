/**
 * Issue 15's terminal and JSON output findings, in process against a fault server: bidirectional
 * controls, C1 controls under --json, and a deeply nested answer with a control character in it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanParsedValue } from "../../src/sanitize.js";
import { runFoodctl } from "../helpers/cli.js";
import { faults, startFaultServer, type FaultServer } from "../helpers/faultServer.js";
import { segmentationIntake, signTestToken } from "./fixtures.js";

let server: FaultServer;
let token: string;
beforeAll(async () => {
  [server, token] = await Promise.all([startFaultServer(), signTestToken()]);
});
afterAll(async () => {
  await server.close();
});

const BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
const C1 = Array.from({ length: 0x20 }, (_, index) => String.fromCharCode(0x80 + index));
/** Anything a terminal would act on: C0 but tab and newline, DEL, C1, bidirectional controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const OWN_SGR = /\u001b\[[0-9;]*m/g;

const foodctl = (args: string[], tty = false) =>
  runFoodctl(["--api-url", server.url, "--retries", "0", ...args], { env: { FOODCTL_TOKEN: token }, tty });

function intakeNamed(imageId: number, names: [string, string]) {
  const intake = segmentationIntake(imageId);
  intake.recipe_per_item.forEach((item, index) => (item.name = names[index]!));
  return { ...intake, foodName: names, user_comment: names.join(" / ") };
}

describe("terminal and JSON output of outside text", () => {
  it.each([false, true])("U+202E and other bidirectional controls do not pass the terminal sanitizer (terminal: %s)", async (tty) => {
    server.route("GET /v2/intake/2101", faults.intake(intakeNamed(2101, [`evil ${BIDI.join("")} name`, "salad\u202egpj.exe"])));
    server.route("GET /v2/intake/2102", faults.error(404, `no intake \u202e2102\u2066`));
    const shown = await foodctl(["intake", "show", "2101"], tty);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("evil");
    const missing = await foodctl(["intake", "show", "2102"], tty);
    expect(missing.code).toBe(6);
    for (const text of [shown.stdout, shown.stderr, missing.stderr]) expect(text.replace(OWN_SGR, "")).not.toMatch(UNSAFE);
  });

  it("--json prints C1 controls (U+0080–U+009F) and the other controls escaped as \\u009b: valid JSON, the same value", async () => {
    const names: [string, string] = [`csi ${C1.join("")} end`, `del \u007f bidi \u202e\u2066 separators \u2028\u2029`];
    server.route("GET /v2/intake/2103", faults.intake(intakeNamed(2103, names)));
    const shown = await foodctl(["intake", "show", "2103", "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(shown.stdout).toContain("\\u009b");
    expect(shown.stdout).toContain("\\u202e");
    expect(JSON.parse(shown.stdout)).toEqual({ intake_info: intakeNamed(2103, names) });
  });

  it("--json errors escape C1 controls too", async () => {
    server.route("GET /v2/intake/2104", faults.error(404, "gone \u009b31m"));
    const missing = await foodctl(["intake", "show", "2104", "--json"]);
    expect(missing.code).toBe(6);
    expect(missing.stderr).not.toMatch(UNSAFE);
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { code: "not_found" } });
  });

  it("a 20,000-deep array with one control character does not overflow the cleaner", async () => {
    const deep = `${"[".repeat(20_000)}"\\u001b[2J"${"]".repeat(20_000)}`;
    const body = JSON.stringify({ intake_info: segmentationIntake(2105) }).replace(/}$/, `, "extra": ${deep}}`);
    server.route("GET /v2/intake/2105", { kind: "raw", status: 200, body, headers: { "content-type": "application/json" } });
    const shown = await foodctl(["intake", "show", "2105"]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    let value = cleanParsedValue(JSON.parse(deep));
    for (let depth = 0; depth < 20_000; depth++) value = (value as unknown[])[0];
    expect(value).toBe("\ufffd[2J");
  });

  it("the cleaner keeps key order and a __proto__ key as a plain property", () => {
    const cleaned = cleanParsedValue(JSON.parse('{"b": "\\u001b", "a": [1, "x\\u202e"], "__proto__": {"polluted": true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(cleaned)).toEqual(["b", "a", "__proto__"]);
    expect(cleaned).toEqual(JSON.parse('{"b": "\ufffd", "a": [1, "x\ufffd"], "__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
  });
});
