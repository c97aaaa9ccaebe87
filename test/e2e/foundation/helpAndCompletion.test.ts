/** `--help` of every command and the shell completion scripts, in process; completion in bash calls the built CLI back. */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { buildProgram, wholeTree } from "../../../src/program.js";
import { bufferIO } from "../../helpers/bufferIO.js";
import { baseEnv, cliBin, runFoodctl, runTempDir, tempConfigHome } from "../../helpers/cli.js";
import { expectErrorLine, expectExit } from "./harness.js";

/** Every command of the tree, so a command added later is checked too. */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((child) => commandPaths(child, [...path, child.name()]))];
}
const COMMANDS = commandPaths(wholeTree(buildProgram(bufferIO().io, { exitCode: 0, parseMessage: "" }, new AbortController().signal)));

describe("--help", () => {
  it("covers the whole command tree", () => {
    expect(COMMANDS.map((path) => path.join(" "))).toEqual(
      expect.arrayContaining(["", "auth login", "config set", "intake show", "intake list", "completion"]),
    );
  });

  it.each(COMMANDS.map((path) => [path.join(" ") || "foodctl", path]))("of %s shows usage and Examples: on stdout", async (_name, path) => {
    const result = await runFoodctl([...path, "--help"]);
    expectExit(result, 0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(`Usage: foodctl${path.length ? ` ${path.join(" ")}` : ""}`);
    // Once: a noun that is a command of its own and has verbs (journal, sandbox) printed it twice.
    expect(result.stdout.match(/^Examples:$/gm)).toHaveLength(1);
  });

  it("lists the exit codes and the token's sources in the top-level help", async () => {
    const result = await runFoodctl(["--help"]);
    expect(result.stdout).toMatch(/Exit codes: 0 ok, 1 unexpected, 2 usage/);
    expect(result.stdout).toContain("FOODCTL_TOKEN");
  });

  it("prints the version", async () => {
    const result = await runFoodctl(["--version"]);
    expectExit(result, 0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe("completion", () => {
  it("prints a bash script that bash accepts", async () => {
    const result = await runFoodctl(["completion", "bash"]);
    expectExit(result, 0);
    const file = join(runTempDir("foodctl-completion-"), "foodctl.bash");
    writeFileSync(file, result.stdout);
    expect(spawnSync("bash", ["-n", file]).status).toBe(0);
    expect(result.stdout).toContain("complete -o filenames -F _foodctl foodctl");
  });

  it("completes commands, subcommands and their options in bash", async () => {
    const script = (await runFoodctl(["completion", "bash"])).stdout;
    const complete = (...words: string[]) =>
      execFileSync("bash", [
        "-c",
        `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _foodctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ])
        .toString()
        .trim()
        .split("\n")
        .sort();
    expect(complete("foodctl", "in")).toEqual(["intake"]);
    expect(complete("foodctl", "intake", "s")).toEqual(["set-modifiers", "set-quantity", "show"]);
    expect(complete("foodctl", "--json", "intake", "list", "--f")).toEqual(["--from"]);
    expect(complete("foodctl", "config", "list", "--f")).toEqual([""]);
    expect(complete("foodctl", "auth", "login", "--wit")).toEqual(["--with-token"]);
    expect(complete("foodctl", "auth", "status", "--he")).toEqual(["--help"]);
  });

  it("prints a zsh script built on bashcompinit", async () => {
    const result = await runFoodctl(["completion", "zsh"]);
    expectExit(result, 0);
    expect(result.stdout.startsWith("#compdef foodctl\n")).toBe(true);
    expect(result.stdout).toContain("bashcompinit");
    expect(result.stdout).toContain("complete -o filenames -F _foodctl foodctl");
  });

  it("prints a fish script that tells `config list` from `intake list`", async () => {
    const result = await runFoodctl(["completion", "fish"]);
    expectExit(result, 0);
    const lines = result.stdout.split("\n");
    expect(lines).toContain("complete -c foodctl -n '__fish_use_subcommand' -a intake");
    expect(lines).toContain("complete -c foodctl -n '__fish_seen_subcommand_from intake; and __fish_seen_subcommand_from list' -l from");
    expect(lines.some((line) => line.includes("__fish_seen_subcommand_from config; and __fish_seen_subcommand_from list' -l from"))).toBe(
      false,
    );
  });

  /** Completes `words` in bash, with `foodctl` a function running the built CLI against a config holding two profiles. */
  async function completeWithValues(...words: string[]): Promise<string[]> {
    return completeWithProfiles({ staging: {}, support: { user: 101 } }, words);
  }

  async function completeWithProfiles(profiles: Record<string, object>, words: string[], cwd?: string): Promise<string[]> {
    const script = (await runFoodctl(["completion", "bash"])).stdout;
    const home = tempConfigHome();
    try {
      mkdirSync(join(home, "foodctl"));
      writeFileSync(join(home, "foodctl", "config.json"), JSON.stringify({ profiles }));
      const define = `foodctl() { "${process.execPath}" "${cliBin()}" "$@"; }`;
      const line = `COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _foodctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const output = execFileSync("bash", ["-c", `${define}\n${script}\n${line}`], { env: baseEnv({ XDG_CONFIG_HOME: home }), cwd });
      return output.toString().trim().split("\n").sort();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  it("offers levels, measures, formats and config keys in bash", async () => {
    expect(await completeWithValues("foodctl", "intake", "set-modifiers", "1002", "--salt", "")).toEqual(["high", "low", "medium", "none"]);
    expect(await completeWithValues("foodctl", "intake", "set-modifiers", "1002", "1", "--oil", "m")).toEqual(["medium"]);
    expect(await completeWithValues("foodctl", "intake", "set-modifiers", "1002", "--measures", "")).toEqual(["imperial", "metric"]);
    expect(await completeWithValues("foodctl", "intake", "apply", "x.csv", "--format", "")).toEqual(["csv", "edit", "jsonl"]);
    expect(await completeWithValues("foodctl", "config", "get", "")).toEqual(expect.arrayContaining(["api-url", "timeout", "user"]));
    expect(await completeWithValues("foodctl", "config", "set", "ti")).toEqual(["timeout", "timezone"]);
    expect(await completeWithValues("foodctl", "completion", "")).toEqual(expect.arrayContaining(["bash", "fish", "zsh"]));
  });

  it("offers the config's profile names and the sandbox's user names, asked of the CLI while completing", async () => {
    expect(await completeWithValues("foodctl", "--profile", "")).toEqual(["default", "staging", "support"]);
    expect(await completeWithValues("foodctl", "intake", "list", "--profile", "st")).toEqual(["staging"]);
    expect(await completeWithValues("foodctl", "sandbox", "--as", "")).toEqual(["acme", "alice", "bob", "carol", "dave", "erin"]);
  });

  it("offers only valid profile names, so a key like $(touch x) in the config never runs on Tab", async () => {
    const cwd = tempConfigHome();
    try {
      const offered = await completeWithProfiles(
        { "$(touch pwned)": {}, "`touch pwned2`": {}, "a b": {}, ok: {} },
        ["foodctl", "--profile", ""],
        cwd,
      );
      expect(offered).toEqual(["default", "ok"]);
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("lists values for the scripts, and nothing (exit 0, no error) for a corrupt config or an unknown kind", async () => {
    expect((await runFoodctl(["__complete", "sandbox-users"])).stdout).toBe("alice\nbob\ncarol\nerin\ndave\nacme\n");
    const home = tempConfigHome();
    mkdirSync(join(home, "foodctl"));
    writeFileSync(join(home, "foodctl", "config.json"), "{ not json");
    for (const kind of ["profiles", "colours"]) {
      expect(await runFoodctl(["__complete", kind], { env: { XDG_CONFIG_HOME: home } })).toMatchObject({ code: 0, stdout: "", stderr: "" });
    }
    rmSync(home, { recursive: true, force: true });
  });

  it("gives zsh the same values (through bashcompinit) and fish its own", async () => {
    const zsh = (await runFoodctl(["completion", "zsh"])).stdout;
    expect(zsh).toContain('--salt) words="none low medium high" ;;');
    expect(zsh).toContain('--profile) words="$("${COMP_WORDS[0]}" __complete profiles 2>/dev/null)" ;;');
    const fish = (await runFoodctl(["completion", "fish"])).stdout.split("\n");
    expect(fish).toContain(
      "complete -c foodctl -n '__fish_seen_subcommand_from intake; and __fish_seen_subcommand_from set-modifiers' -l salt -x -a 'none low medium high'",
    );
    expect(fish).toContain(
      "complete -c foodctl -n '__fish_seen_subcommand_from intake; and __fish_seen_subcommand_from set-modifiers' -l measures -x -a 'metric imperial'",
    );
    expect(fish).toContain(
      "complete -c foodctl -n '__fish_seen_subcommand_from config; and __fish_seen_subcommand_from get' -a 'api-url user timeout journal journal-days timezone language'",
    );
    expect(fish).toContain("complete -c foodctl -n 'true' -l profile -x -a '(foodctl __complete profiles 2>/dev/null)'");
    expect(fish).toContain(
      "complete -c foodctl -n '__fish_seen_subcommand_from sandbox' -l as -x -a '(foodctl __complete sandbox-users 2>/dev/null)'",
    );
  });

  it("refuses an unknown shell (exit 2)", async () => {
    expectErrorLine(await runFoodctl(["completion", "tcsh"]), 2, /unknown shell "tcsh"/);
  });
});
