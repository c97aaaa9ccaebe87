/** Each command's help lists the global options it reads and no other; `foodctl config` names every key. */
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import { runFoodctl } from "../helpers/cli.js";

/** The long flags under "Global Options:" in a command's help. */
async function globalFlags(args: string[]): Promise<string[]> {
  const help = await runFoodctl([...args, "--help"]);
  expect(help.code).toBe(0);
  const section = help.stdout.split("Global Options:\n")[1]?.split("\n\n")[0] ?? "";
  return [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
}

describe("global options in a command's help", () => {
  it.each([
    [["config", "path"], ["--json"]],
    [["journal"], ["--json", "--wide", "--no-color"]],
    [["auth", "token"], ["--profile"]],
    [["sandbox", "stop"], ["--json"]],
    [["completion"], []],
    [
      ["intake", "show"],
      ["--profile", "--api-url", "--user", "--json", "--tz", "--timeout", "--retries", "--wide", "--verbose", "--no-color"],
    ],
    [
      ["intake", "set-quantity"],
      ["--profile", "--api-url", "--user", "--json", "--timeout", "--retries", "--wide", "--verbose", "--no-color", "--no-journal"],
    ],
  ])("foodctl %j lists %j", async (args, expected) => {
    expect(await globalFlags(args)).toEqual(expected);
  });

  it("a command that ignores --api-url and --no-journal does not list them, yet still accepts them", async () => {
    expect(await globalFlags(["journal", "show"])).not.toContain("--api-url");
    const path = await runFoodctl(["config", "path", "--api-url", "https://api.example.com", "--no-journal"]);
    expect(path.code).toBe(0);
  });
});

describe("foodctl config", () => {
  it("names every key in its help and in each verb's key argument", async () => {
    const group = await runFoodctl(["config", "--help"]);
    for (const key of CONFIG_KEYS) expect(group.stdout.replace(/\s+/g, " ")).toContain(key);
    const set = await runFoodctl(["config", "set", "--help"]);
    expect(set.stdout.replace(/\s+/g, " ")).toMatch(new RegExp(`key ${CONFIG_KEYS.join(", ")}`));
    expect(CONFIG_KEYS).toHaveLength(7);
  });
});
