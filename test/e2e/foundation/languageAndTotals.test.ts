/**
 * `intake list`'s period totals and `--language` on `intake show` and `list` (with the profile's
 * `language` key), through the CLI against a sandbox (docs/cli.md, settings; docs/api.md, language).
 */
import { describe, expect, it } from "vitest";
import { configHome, expectErrorLine, expectExit, useSandbox } from "./harness.js";

const sandbox = useSandbox();
const WEEK = ["--from", "2026-11-01", "--to", "2026-11-08"];
const TEN = "spa, eng, fre, ita, nld, ger, gre, tur, heb, cat";

/** The `language` query of every request the sandbox logged since `from`. */
const languagesSent = (from: number) =>
  sandbox.requests.slice(from).map((line) => new URL(line.split(" ")[1]!, "http://x").searchParams.get("language"));

describe("intake list's period totals", () => {
  it("on a terminal, shows the answer's totals of calories, carbs, fat and protein under the table", async () => {
    const result = await sandbox.cli(["intake", "list", ...WEEK], { tty: true, columns: 120, env: { NO_COLOR: "1" } });
    expectExit(result, 0);
    const json = JSON.parse((await sandbox.cli(["intake", "list", ...WEEK, "--json"])).stdout);
    const { calories, carbohydrates, fat, protein } = json.total_intake;
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(`totals  calories ${calories} kcal · carbs ${carbohydrates} g · fat ${fat} g · protein ${protein} g`);
    expect(lines.at(-2)).toBe("");
    expect(calories).toBeGreaterThan(0);
  });

  it("--json carries total_intake as the sandbox sent it; piped, the rows stay one per intake", async () => {
    const json = JSON.parse((await sandbox.cli(["intake", "list", ...WEEK, "--json"])).stdout);
    const kcal = json.intakes_list.reduce(
      (sum: number, intake: { nutritional_info: { calories: number } }) => sum + intake.nutritional_info.calories,
      0,
    );
    expect(json.total_intake.calories).toBeCloseTo(kcal, 0);
    expect(Object.keys(json.total_intake)).toEqual(["calories", "carbohydrates", "fat", "protein"]);
    const piped = await sandbox.cli(["intake", "list", ...WEEK]);
    expect(piped.stdout.trimEnd().split("\n")).toHaveLength(json.intakes_list.length);
    expect(piped.stdout).not.toContain("totals");
  });

  it("an empty window prints no totals", async () => {
    const result = await sandbox.cli(["intake", "list", "--from", "2025-01-01", "--to", "2025-01-02"], { tty: true, columns: 120 });
    expectExit(result, 0);
    expect(result.stdout).not.toContain("totals");
  });
});

describe("--language", () => {
  it("intake show --language spa shows the sandbox's Spanish names, and sends language=spa", async () => {
    const from = sandbox.requests.length;
    const result = await sandbox.cli(["intake", "show", "1002", "--language", "spa"]);
    expectExit(result, 0);
    const items = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("item\t"))
      .map((line) => line.split("\t")[2]);
    expect(items).toEqual(["Huevos revueltos con tostada", "Macedonia de fruta fresca", "Tortitas con sirope de arce"]);
    expect(languagesSent(from)).toEqual(["spa"]);
  });

  it("intake list --language spa names the foods in Spanish; without it nothing is sent and names are English", async () => {
    const spanish = await sandbox.cli(["intake", "list", ...WEEK, "--language", "spa"]);
    expect(spanish.stdout.split("\n")[0]).toContain("\tPizza margarita\t");
    const from = sandbox.requests.length;
    const english = await sandbox.cli(["intake", "list", ...WEEK]);
    expect(english.stdout.split("\n")[0]).toContain("\tMargherita pizza\t");
    expect(languagesSent(from)).toEqual([null]);
  });

  for (const args of [
    ["intake", "show", "1002", "--language", "es"],
    ["intake", "list", "--language", "english"],
    ["intake", "show", "1002", "--language", ""],
  ]) {
    it(`refuses ${JSON.stringify(args.at(-1))} in one line naming the ten codes (exit 2), and sends nothing`, async () => {
      const result = await sandbox.cliSendingNothing(args);
      expectErrorLine(result, 2, `--language: "${args.at(-1)}" is not a language the service answers in: use one of ${TEN}`);
    });
  }

  it("the profile's language key is used when --language is not given, and --language wins over it", async () => {
    const home = configHome();
    const env = { XDG_CONFIG_HOME: home };
    expectExit(await sandbox.cli(["config", "set", "language", "spa"], { env }), 0);
    expect((await sandbox.cli(["config", "get", "language"], { env })).stdout).toBe("spa\n");
    const profile = await sandbox.cli(["intake", "show", "1001"], { env });
    expect(profile.stdout).toContain("item\t-\tPizza margarita\t");
    const flag = await sandbox.cli(["intake", "show", "1001", "--language", "eng"], { env });
    expect(flag.stdout).toContain("item\t-\tMargherita pizza\t");
  });

  it("config set language refuses a code not in the list (exit 2) and stores nothing", async () => {
    const home = configHome();
    const env = { XDG_CONFIG_HOME: home };
    const result = await sandbox.cli(["config", "set", "language", "fr"], { env });
    expectErrorLine(result, 2, `language: "fr" is not a language the service answers in: use one of ${TEN}`);
    expect((await sandbox.cli(["config", "get", "language"], { env })).stdout).toBe("");
  });
});
