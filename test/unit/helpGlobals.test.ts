/** Each command's help lists the global options it reads and no other; `foodctl config` names every key. */
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { NOUNS } from "../../src/commands/index.js";
import { buildProgram, wholeTree } from "../../src/program.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { runFoodctl, runTempDir } from "../helpers/cli.js";

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
  "intake apply": [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED],
  "display-image attach": CHANGE,
  "display-image remove": CHANGE,
  undo: CHANGE,
  journal: ["--profile", "--user", "--json", "--tz", "--wide", "--no-color", "--no-pager", "--reason"],
  "journal show": ["--profile", "--json", "--tz", "--wide", "--no-color", "--no-pager"],
  smoke: [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED],
  api: [...CONNECTION, "--json"],
  "auth login": ["--profile", "--json"],
  "auth status": [...CONNECTION, "--json"],
  "auth logout": ["--profile", "--json"],
  "auth token": ["--profile"],
  "config list": ["--profile", "--api-url", "--user", "--json", "--tz", "--timeout", "--wide", "--no-color", "--no-journal"],
  "config get": ["--profile", "--api-url", "--user", "--json", "--tz", "--timeout", "--no-journal"],
  "config set": ["--profile", "--json"],
  "config unset": ["--profile", "--json"],
  "config path": ["--json"],
  sandbox: ["--json", "--wide", "--no-color"],
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
    expect(await globalFlags(["config"])).toEqual(inOrder(READS["config list"]!));
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

  describe("checked by running each command with a value it would refuse", () => {
    const dir = runTempDir("foodctl-globals-");
    const changes = join(dir, "one.jsonl");
    writeFileSync(changes, `${JSON.stringify({ image_id: 1001, quantity: 300 })}\n`);
    const edited = join(dir, "edited.txt");
    writeFileSync(edited, "position quantity\n1 175\n");
    /** Arguments that take each command as far as it goes without an API (port 9 on loopback refuses at once). */
    const SAMPLES: Record<string, string[]> = {
      "intake list": [],
      "intake show": ["1002"],
      "intake set-quantity": ["1001", "320"],
      "intake set-modifiers": ["1002", "1", "--salt", "low"],
      "intake edit": ["1002", "--file", edited],
      "intake apply": [changes],
      "display-image remove": ["1003", "--yes"],
      undo: ["--last"],
      journal: [],
      "journal show": ["abc"],
      smoke: ["1002"],
      api: ["intake/1002"],
      "auth status": [],
      "auth login": ["--with-token"],
      "auth logout": [],
      "auth token": [],
      "config list": [],
      "config get": ["timezone"],
      "config set": ["timezone", "UTC"],
      "config unset": ["timezone"],
      "config path": [],
      "sandbox stop": [],
      // (completion's script names every option, so it is not run here; its list is empty.)
      __complete: ["profiles"],
    };
    /** A value each option's reader refuses or shows, so that its run mentions it; a command that ignores it does not. */
    const PROBES: Array<[string, string[], string]> = [
      ["--tz", ["--tz", "Nowhere/Zone"], "Nowhere/Zone"],
      ["--reason", ["--reason", ""], "--reason"],
      ["--profile", ["--profile", "nosuch"], '"nosuch"'],
    ];
    /** Where the sample reaches the option's reader: its run must then mention the value. */
    const REACHED: Record<string, string[]> = {
      "--tz": [
        "intake list",
        "intake show",
        "intake set-quantity",
        "intake apply",
        "journal",
        "api",
        "auth status",
        "config list",
        "config get",
      ],
      "--reason": ["intake set-quantity", "intake apply", "journal"],
      "--profile": ["intake list", "intake show", "journal", "auth status", "auth token", "config list", "config get", "config unset"],
    };
    const env = { FOODCTL_API_URL: "http://127.0.0.1:9", FOODCTL_TOKEN: "3f9c2b7a1d0e4c5f8a6b9d2e1f3a4b5c6d7e8f90", FOODCTL_RETRIES: "0" };

    it.each(PROBES)("every command whose run reads %s lists it, and those that reach it do read it", async (flag, args, mention) => {
      for (const [path, sample] of Object.entries(SAMPLES)) {
        const result = await runFoodctl([...path.split(" "), ...sample, ...args, "--retries", "0"], { env });
        const reads = `${result.stdout}${result.stderr}`.includes(mention);
        const listed = READS[path]!.includes(flag);
        if (reads || REACHED[flag]!.includes(path))
          expect({ path, flag, reads, listed }).toEqual({ path, flag, reads: true, listed: true });
      }
    });
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
