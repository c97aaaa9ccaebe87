/** Each command's help lists the global options it reads and no other; `foodctl config` names every key. */
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import type { Command } from "commander";
import { NOUNS } from "../../src/commands/index.js";
import { buildProgram, wholeTree } from "../../src/program.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { runFoodctl } from "../helpers/cli.js";

/** The long flags under "Global Options:" in a command's help. */
async function globalFlags(args: string[]): Promise<string[]> {
  const help = await runFoodctl([...args, "--help"]);
  expect(help.code).toBe(0);
  const section = help.stdout.split("Global Options:\n")[1]?.split("\n\n")[0] ?? "";
  return [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
}

/** What reaching the API reads: where, as whom, how long and how often, the trace, and the zone a 429's reset is told in. */
const CONNECTION = ["--profile", "--api-url", "--user", "--tz", "--timeout", "--retries", "--verbose"];
const JOURNALED = ["--no-journal", "--reason"];
const CHANGE = [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED];

/**
 * Every command and the global options it reads, found in its code (ctx.globals, ctx.settings(),
 * ctx.timeZone(), ctx.client(), the journal, a paged print): a new command fails here until it is listed.
 */
const READS: Record<string, string[]> = {
  "intake list": [...CONNECTION, "--json", "--wide", "--no-color", "--no-pager"],
  "intake show": [...CONNECTION, "--json", "--wide", "--no-color", "--no-pager"],
  "intake set-quantity": CHANGE,
  "intake set-modifiers": CHANGE,
  "intake edit": CHANGE,
  "intake apply": [...CONNECTION, "--json", "--no-color", ...JOURNALED],
  "display-image attach": CHANGE,
  "display-image remove": CHANGE,
  undo: CHANGE,
  journal: ["--profile", "--user", "--json", "--tz", "--wide", "--no-color", "--no-pager", "--reason"],
  "journal show": ["--profile", "--json", "--tz", "--wide", "--no-color", "--no-pager"],
  smoke: [...CONNECTION, "--json", "--no-color", ...JOURNALED],
  api: [...CONNECTION, "--json"],
  "auth login": ["--profile", "--json"],
  "auth status": [...CONNECTION, "--json", "--no-color"],
  "auth logout": ["--profile", "--json"],
  "auth token": ["--profile"],
  "config list": ["--profile", "--json", "--wide", "--no-color"],
  "config get": ["--profile", "--json", "--wide", "--no-color"],
  "config set": ["--profile", "--json", "--wide", "--no-color"],
  "config unset": ["--profile", "--json", "--wide", "--no-color"],
  "config path": ["--json"],
  sandbox: ["--json"],
  "sandbox stop": ["--json"],
  completion: [],
  __complete: [],
  help: ["--no-pager"],
};

/** In the order every help lists them (the program's own). */
const ORDER = [
  "--profile",
  "--api-url",
  "--user",
  "--json",
  "--tz",
  "--timeout",
  "--retries",
  "--wide",
  "--verbose",
  "--no-color",
  "--no-pager",
  "--no-journal",
  "--reason",
];
const inOrder = (flags: Iterable<string>) => ORDER.filter((flag) => [...flags].includes(flag));

/** Every command of the tree, hidden ones too, as typed after `foodctl`. */
function commandPaths(): string[] {
  const io = bufferIO({ env: {} }).io;
  const program = wholeTree(buildProgram(io, { exitCode: 0, parseMessage: "" }, new AbortController().signal));
  const paths: string[] = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const child of command.commands) {
      const path = [...prefix, child.name()];
      // A group that only gathers commands (`intake`) reads nothing itself; a noun that runs (`journal`) does.
      if (child.commands.length === 0 || (child as unknown as { _actionHandler: unknown })._actionHandler) paths.push(path.join(" "));
      walk(child, path);
    }
  };
  walk(program, []);
  return paths;
}

describe("global options in a command's help", () => {
  it("every command says which global options it reads (none falls back to listing all of them)", () => {
    const verbs = NOUNS.flatMap((noun) => [...(noun.action ? [noun.action] : []), ...noun.verbs]);
    for (const verb of verbs) expect({ verb: verb.name, globals: verb.globals }).toEqual({ verb: verb.name, globals: expect.any(Array) });
    expect(Object.keys(READS).sort()).toEqual(commandPaths().sort());
  });

  it.each(Object.entries(READS))("foodctl %s lists exactly the global options it reads", async (path, reads) => {
    expect(await globalFlags(path.split(" "))).toEqual(inOrder(reads));
  });

  it("a group lists what its commands read, together", async () => {
    const intake = Object.entries(READS).filter(([path]) => path.startsWith("intake "));
    expect(await globalFlags(["intake"])).toEqual(inOrder(new Set(intake.flatMap(([, reads]) => reads))));
    expect(await globalFlags(["config"])).toEqual(["--profile", "--json", "--wide", "--no-color"]);
  });

  it("each example's global options are ones its command lists", async () => {
    for (const [path] of Object.entries(READS)) {
      const help = await runFoodctl([...path.split(" "), "--help"]);
      const listed = await globalFlags(path.split(" "));
      const examples = help.stdout.split("Examples:\n")[1]?.split("\n\n")[0] ?? "";
      const used = [...examples.matchAll(/(?<=\s)(--[a-z-]+)/g)].map((match) => match[1]!).filter((flag) => ORDER.includes(flag));
      for (const flag of used) expect({ path, flag, listed: listed.includes(flag) }).toEqual({ path, flag, listed: true });
    }
  });

  it("a change reads --tz (the zone a 429's reset is told in): an unknown zone is refused before anything is sent", async () => {
    const env = { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: "3f9c2b7a1d0e4c5f8a6b9d2e1f3a4b5c6d7e8f90" };
    const result = await runFoodctl(["intake", "set-quantity", "1001", "320", "--tz", "Nowhere/Zone"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --tz: .*Nowhere\/Zone/m);
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
