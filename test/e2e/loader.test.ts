/**
 * The bin's code cache: whatever state the cache folder is in, the command works and prints
 * exactly what it prints without a cache. Each test runs a private copy of the built CLI (bin
 * and dist) with its own cache folder, so an edited bundle never touches the run's build.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { baseEnv, collect } from "../helpers/cli.js";
import { cacheParts, checksum, privateCli, removeCliCopies } from "./codeCacheFiles.js";

afterEach(removeCliCopies);

const COMMAND = ["config", "list", "--json"];

describe("the bin's code cache", () => {
  it("is written on the first run, used by the next, and changes nothing a command prints", () => {
    const cli = privateCli();
    const uncached = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    expect(uncached.code).toBe(0);
    expect(cli.cacheFiles()).toEqual([]);
    const first = cli.run(COMMAND);
    expect(first).toEqual(uncached);
    expect(cli.cacheFiles()).toHaveLength(1);
    const written = readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!));
    expect(cli.run(COMMAND)).toEqual(uncached);
    expect(readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!)).equals(written)).toBe(true);
    // Named after the file it was made from: its length, inode and times of last change (in µs), in base 36.
    for (const [name, file] of [
      ["foodctl", cli.bundle],
      ["config", cli.cold("config")],
    ] as const) {
      const { size, ino, mtimeMs, ctimeMs } = statSync(file);
      const key = [size, ino, Math.trunc(mtimeMs * 1000), Math.trunc(ctimeMs * 1000)].map((n) => n.toString(36)).join("-");
      expect(cli.cacheFiles(name)).toEqual([expect.stringMatching(new RegExp(`^${name}-${key}-[0-9a-f]{8}\\.code$`))]);
    }
  });

  it("prints no deprecation warning under --pending-deprecation, and its cache works the same", () => {
    const cli = privateCli();
    const uncached = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    const env = { NODE_OPTIONS: "--pending-deprecation" };
    expect(cli.run(COMMAND, env)).toEqual(uncached);
    expect(cli.cacheFiles()).toHaveLength(1);
    expect(cli.run(COMMAND, env)).toEqual(uncached);
    // The checksum is the same either way: a cache written without the flag is read with it.
    const plain = privateCli();
    const written = plain.run(COMMAND);
    expect(plain.cacheFiles()).toHaveLength(1);
    expect(plain.run(COMMAND, env)).toEqual(written);
  });

  it("grows to hold the functions of each command used, written once per command", () => {
    const cli = privateCli();
    const read = () => readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!));
    cli.run(["config", "path"]);
    const first = read();
    expect(first.toString("latin1")).toContain("config path");
    cli.run(COMMAND);
    const second = read();
    expect(second.toString("latin1")).toContain("config path\nconfig list");
    expect(cli.run(COMMAND).code).toBe(0);
    expect(cli.run(["config", "path"]).code).toBe(0);
    expect(read().equals(second)).toBe(true);
    expect(cli.cacheFiles()).toHaveLength(1);
  });

  it("is never used for a bundle edited to the same length: the edit runs", () => {
    const cli = privateCli();
    expect(cli.run(["intake", "--help"]).stdout).toContain("find, inspect and correct intakes");
    const source = readFileSync(cli.bundle, "utf8");
    const edited = source.replace('"find, inspect and correct intakes"', '"FIND, INSPECT and correct intakes"');
    expect(edited.length).toBe(source.length);
    expect(edited).not.toBe(source);
    writeFileSync(cli.bundle, edited);
    const result = cli.run(["intake", "--help"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("FIND, INSPECT and correct intakes");
    expect(cli.cacheFiles()).toHaveLength(2);
  });

  it("ignores a corrupt cache file, and replaces it", () => {
    const cli = privateCli();
    const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    cli.run(COMMAND);
    const file = join(cli.cache, "foodctl", cli.cacheFiles()[0]!);
    const bytes = readFileSync(file);
    // Flipped bits in the middle (V8 would crash on these) and a truncated file.
    const flipped = Buffer.from(bytes.map((byte, index) => (index > 2000 && index % 4001 === 0 ? byte ^ 1 : byte)));
    for (const damaged of [flipped, bytes.subarray(0, 40), Buffer.alloc(0)]) {
      writeFileSync(file, damaged);
      expect(cli.run(COMMAND)).toEqual(expected);
      // Rewritten whole: the checksum in front matches the code cache behind it.
      const rewritten = readFileSync(file);
      expect(cacheParts(rewritten).checksum).toBe(checksum(rewritten.subarray(4)));
    }
  });

  it("works and prints nothing extra when the cache folder is read-only", () => {
    const cli = privateCli();
    const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    mkdirSync(join(cli.cache, "foodctl"), { recursive: true });
    chmodSync(join(cli.cache, "foodctl"), 0o555);
    chmodSync(cli.cache, 0o555);
    // root writes anywhere: the check runs as nobody then.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const result = cli.run(COMMAND, {}, asNobody);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(readdirSync(join(cli.cache, "foodctl"))).toEqual([]);
    if (!asNobody.uid) expect(result).toEqual(expected);
    chmodSync(cli.cache, 0o755);
    chmodSync(join(cli.cache, "foodctl"), 0o755);
  });

  it("works and prints nothing extra when the cache folder is a file", () => {
    const cli = privateCli();
    const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    mkdirSync(cli.cache);
    writeFileSync(join(cli.cache, "foodctl"), "not a folder");
    expect(cli.run(COMMAND)).toEqual(expected);
    expect(cli.run(COMMAND)).toEqual(expected);
    expect(readFileSync(join(cli.cache, "foodctl"), "utf8")).toBe("not a folder");
  });

  it("creates a missing cache folder, and FOODCTL_NO_CACHE=1 neither reads nor writes one", () => {
    const cli = privateCli();
    const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    expect(existsSync(cli.cache)).toBe(false);
    expect(cli.run(COMMAND)).toEqual(expected);
    expect(cli.cacheFiles()).toHaveLength(1);
    const file = join(cli.cache, "foodctl", cli.cacheFiles()[0]!);
    writeFileSync(file, "garbage that is never read");
    expect(cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" })).toEqual(expected);
    expect(readFileSync(file, "utf8")).toBe("garbage that is never read");
  });

  it("gives each cold file a cache of its own: written on first use, used after, never for other contents", () => {
    const cli = privateCli();
    const expected = cli.run(COMMAND, { FOODCTL_NO_CACHE: "1" });
    expect(cli.run(COMMAND)).toEqual(expected);
    expect(cli.cacheFiles("config")).toHaveLength(1);
    const file = join(cli.cache, "foodctl", cli.cacheFiles("config")[0]!);
    const written = readFileSync(file);
    expect(cli.run(COMMAND)).toEqual(expected);
    expect(readFileSync(file).equals(written)).toBe(true);
    // A damaged cold cache is ignored and written again.
    writeFileSync(file, written.subarray(0, 40));
    expect(cli.run(COMMAND)).toEqual(expected);
    const rewritten = readFileSync(file);
    expect(rewritten.length).toBeGreaterThan(40);
    expect(cacheParts(rewritten).checksum).toBe(checksum(rewritten.subarray(4)));
    // A cold file edited to the same length runs as edited, under a cache of its own.
    const source = readFileSync(cli.cold("config"), "utf8");
    const edited = source.replace('"(none: the token\'s own user)"', '"(NONE: the token\'s own user)"');
    expect(edited.length).toBe(source.length);
    expect(edited).not.toBe(source);
    writeFileSync(cli.cold("config"), edited);
    const result = cli.run(["config", "list"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("(NONE: the token's own user)");
    expect(cli.cacheFiles("config")).toHaveLength(2);
  });

  it("maps an unexpected error's stack trace to the sources under --verbose or FOODCTL_DEBUG=1, running from the cache", async () => {
    const server = http.createServer((_request, response) => response.end("<html>not JSON</html>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const cli = privateCli();
      const payload = Buffer.from(JSON.stringify({ sub: "101", role: "APIUser", exp: 4_102_444_800 })).toString("base64url");
      const env = {
        FOODCTL_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        FOODCTL_TOKEN: `eyJhbGciOiJIUzI1NiJ9.${payload}.c2ln`,
        XDG_CACHE_HOME: cli.cache,
      };
      // Spawned, not spawnSync: the server answers from this process.
      const show = (args: string[], extra: Record<string, string> = {}) =>
        collect(
          spawn(process.execPath, [join(cli.root, "bin", "foodctl.js"), "intake", "show", "1002", ...args], {
            env: baseEnv({ ...env, ...extra }),
            stdio: ["ignore", "pipe", "pipe"],
          }),
        );
      const plain = await show([]);
      expect(plain.code).toBe(1);
      expect(plain.stderr).not.toMatch(/\n\s+at /);
      const cache = readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!));
      for (const result of [await show(["--verbose"]), await show([], { FOODCTL_DEBUG: "1" })]) {
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/at .*src\/commands\/intake\/show\.ts:\d+:\d+/);
        expect(result.stderr).not.toMatch(/foodctl\.cjs:\d+/);
      }
      // Both ran from the cache the first run wrote (the same command: not written again).
      expect(readFileSync(join(cli.cache, "foodctl", cli.cacheFiles()[0]!)).equals(cache)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
