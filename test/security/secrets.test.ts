/**
 * The token never shows: every command, on its success and failure paths, with --verbose,
 * --dry-run and --json errors, runs with a known token against a sandbox, and neither the token
 * nor its signature part appears in stdout or stderr — except stdout of `auth token`.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type SandboxHandle } from "../../src/sandbox/server.js";
import { runFoodctl, runTempDir, tempConfigHome, type CliResult } from "../helpers/cli.js";
import { TINY_PNG } from "../faults/fixtures.js";
import { faults, startFaultServer } from "../helpers/faultServer.js";

let sandbox: SandboxHandle;
/** alice's token, stored in the profile by `auth login` in `storedHome`. */
let token: string;
/** A token the sandbox did not sign (its signature is wrong): refused with 401, still secret. */
let forged: string;
let storedHome: string;
let files: { photo: string; notImage: string; jsonl: string; csv: string; badJsonl: string };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = sandbox.tokenFor("alice");
  const [header, payload] = token.split(".");
  forged = `${header}.${payload}.${Buffer.alloc(32, 7).toString("base64url")}`;
  storedHome = tempConfigHome();
  const login = await runFoodctl(["auth", "login", "--with-token"], { stdin: `${token}\n`, env: { XDG_CONFIG_HOME: storedHome } });
  expect(login.code, login.stderr).toBe(0);
  const dir = runTempDir("foodctl-secrets-");
  files = {
    photo: join(dir, "photo.png"),
    notImage: join(dir, "notes.txt"),
    jsonl: join(dir, "fixes.jsonl"),
    csv: join(dir, "fixes.csv"),
    badJsonl: join(dir, "bad.jsonl"),
  };
  writeFileSync(files.photo, TINY_PNG);
  writeFileSync(files.notImage, "not an image\n");
  writeFileSync(files.jsonl, '{"image_id": 1003, "quantity": {"manual1": 90}}\n{"image_id": 1001, "quantity": 300}\n');
  writeFileSync(files.csv, "image_id,user_id,position,quantity,salt,sugar,oil,measures\n1003,,manual2,55,,,,\n");
  writeFileSync(files.badJsonl, '{"image_id": 1003, "quantity": {"manual1": -5}}\nnot json\n');
});
afterAll(async () => {
  await sandbox?.close();
});

/** A config home of its own holding the stored token (commands that write config get a copy). */
function copyOfStoredHome(): string {
  const home = tempConfigHome();
  cpSync(storedHome, home, { recursive: true });
  return home;
}

type TokenSource = "env" | "profile" | "forged-env" | "none";

interface Run {
  name: string;
  args: (api: string) => string[];
  source: TokenSource;
  stdin?: () => string | Buffer;
  /** The exit code this path ends with, so the test knows it ran the path it names. */
  exit: number;
}

function envFor(source: TokenSource): Record<string, string> {
  if (source === "env") return { FOODCTL_TOKEN: token, XDG_CONFIG_HOME: tempConfigHome() };
  if (source === "forged-env") return { FOODCTL_TOKEN: forged, XDG_CONFIG_HOME: tempConfigHome() };
  if (source === "profile") return { XDG_CONFIG_HOME: copyOfStoredHome() };
  return { XDG_CONFIG_HOME: tempConfigHome() };
}

const signature = () => token.split(".")[2]!;

function expectNoSecret(result: CliResult, options: { stdoutMayHoldToken?: boolean } = {}): void {
  for (const secret of [token, signature(), forged, forged.split(".")[2]!]) {
    expect(result.stderr.includes(secret), `stderr shows a token:\n${result.stderr}`).toBe(false);
    if (!options.stdoutMayHoldToken) expect(result.stdout.includes(secret), `stdout shows a token:\n${result.stdout}`).toBe(false);
  }
}

const api = (url: string) => ["--api-url", url];

const runs: Run[] = [
  // auth
  { name: "auth login --with-token", source: "none", args: () => ["auth", "login", "--with-token"], stdin: () => token, exit: 0 },
  {
    name: "auth login --with-token --json --verbose",
    source: "none",
    args: () => ["auth", "login", "--with-token", "--json", "--verbose"],
    stdin: () => `  ${token}\n`,
    exit: 0,
  },
  {
    name: "auth login --with-token with FOODCTL_TOKEN also set",
    source: "env",
    args: () => ["auth", "login", "--with-token"],
    stdin: () => token,
    exit: 0,
  },
  {
    name: "auth login --with-token, token with a word appended (not one token)",
    source: "none",
    args: () => ["auth", "login", "--with-token", "--verbose"],
    stdin: () => `${token} junk`,
    exit: 4,
  },
  {
    name: "auth login --with-token --json, two tokens on stdin",
    source: "none",
    args: () => ["auth", "login", "--with-token", "--json"],
    stdin: () => `${token}\n${token}\n`,
    exit: 4,
  },
  { name: "auth login without a terminal", source: "env", args: () => ["auth", "login", "--verbose"], exit: 2 },
  { name: "auth status (profile)", source: "profile", args: () => ["auth", "status"], exit: 0 },
  { name: "auth status --json --verbose (env)", source: "env", args: () => ["auth", "status", "--json", "--verbose"], exit: 0 },
  { name: "auth status with no token", source: "none", args: () => ["auth", "status", "--json"], exit: 4 },
  { name: "auth logout --verbose", source: "profile", args: () => ["auth", "logout", "--verbose"], exit: 0 },
  { name: "auth logout --json", source: "profile", args: () => ["auth", "logout", "--json"], exit: 0 },
  { name: "auth token with no token", source: "none", args: () => ["auth", "token", "--json"], exit: 4 },
  // config
  { name: "config list", source: "profile", args: (url) => [...api(url), "config", "list"], exit: 0 },
  { name: "config list --json --verbose", source: "env", args: (url) => [...api(url), "config", "list", "--json", "--verbose"], exit: 0 },
  { name: "config get api-url", source: "profile", args: (url) => [...api(url), "config", "get", "api-url"], exit: 0 },
  { name: "config get token (refused)", source: "profile", args: () => ["config", "get", "token", "--verbose"], exit: 2 },
  { name: "config get token --json (refused)", source: "env", args: () => ["config", "get", "token", "--json"], exit: 2 },
  { name: "config set api-url", source: "profile", args: (url) => ["config", "set", "api-url", url, "--verbose"], exit: 0 },
  { name: "config set user --json", source: "profile", args: () => ["config", "set", "user", "101", "--json"], exit: 0 },
  { name: "config set token <token> (refused)", source: "profile", args: () => ["config", "set", "token", token], exit: 2 },
  { name: "config set timeout bad --json", source: "profile", args: () => ["config", "set", "timeout", "soon", "--json"], exit: 2 },
  { name: "config unset user", source: "profile", args: () => ["config", "unset", "user", "--verbose"], exit: 0 },
  { name: "config path", source: "profile", args: () => ["config", "path", "--json"], exit: 0 },
  // intake list / show
  {
    name: "intake list --verbose (profile)",
    source: "profile",
    args: (url) => [...api(url), "intake", "list", "--verbose", "--from", "2026-11-01", "--to", "2026-11-30"],
    exit: 0,
  },
  {
    name: "intake list --json (env)",
    source: "env",
    args: (url) => [...api(url), "intake", "list", "--json", "--from", "2026-11-01", "--to", "2026-11-30"],
    exit: 0,
  },
  {
    name: "intake list --from garbage",
    source: "env",
    args: (url) => [...api(url), "intake", "list", "--from", "someday", "--json"],
    exit: 2,
  },
  {
    name: "intake list with a forged token --verbose (401)",
    source: "forged-env",
    args: (url) => [...api(url), "intake", "list", "--verbose"],
    exit: 4,
  },
  { name: "intake show --verbose", source: "env", args: (url) => [...api(url), "intake", "show", "1002", "--verbose"], exit: 0 },
  { name: "intake show --json", source: "profile", args: (url) => [...api(url), "intake", "show", "1002", "--json"], exit: 0 },
  {
    name: "intake show of another user's intake --json --verbose (403)",
    source: "env",
    args: (url) => [...api(url), "intake", "show", "2001", "--json", "--verbose"],
    exit: 5,
  },
  {
    name: "intake show unknown --verbose",
    source: "profile",
    args: (url) => [...api(url), "intake", "show", "999999", "--verbose"],
    exit: 6,
  },
  {
    name: "intake show with a forged token --json (401)",
    source: "forged-env",
    args: (url) => [...api(url), "intake", "show", "1002", "--json", "--verbose"],
    exit: 4,
  },
  { name: "intake show with the token as the id", source: "env", args: (url) => [...api(url), "intake", "show", token], exit: 2 },
  {
    name: "intake show with the token as the id --json",
    source: "env",
    args: (url) => [...api(url), "intake", "show", token, "--json"],
    exit: 2,
  },
  {
    name: "intake show over plain http to a remote host",
    source: "env",
    args: () => ["--api-url", "http://example.com", "intake", "show", "1002", "--verbose"],
    exit: 2,
  },
  { name: "intake show with no API URL", source: "profile", args: () => ["intake", "show", "1002", "--json"], exit: 2 },
  {
    name: "intake show with a closed port --verbose",
    source: "env",
    args: () => ["--api-url", "http://127.0.0.1:9", "--retries", "0", "intake", "show", "1002", "--verbose"],
    exit: 8,
  },
  // changes
  {
    name: "set-quantity --verbose",
    source: "env",
    args: (url) => [...api(url), "intake", "set-quantity", "1002", "1=150", "--verbose"],
    exit: 0,
  },
  {
    name: "set-quantity --json (profile)",
    source: "profile",
    args: (url) => [...api(url), "intake", "set-quantity", "1002", "2=90", "--json"],
    exit: 0,
  },
  {
    name: "set-quantity --dry-run --verbose",
    source: "env",
    args: (url) => [...api(url), "intake", "set-quantity", "1002", "1=120", "--dry-run", "--verbose"],
    exit: 0,
  },
  {
    name: "set-quantity --dry-run --json",
    source: "profile",
    args: (url) => [...api(url), "intake", "set-quantity", "1002", "1=120", "--dry-run", "--json"],
    exit: 0,
  },
  {
    name: "set-quantity unknown position --json --verbose",
    source: "env",
    args: (url) => [...api(url), "intake", "set-quantity", "1002", "9=100", "--json", "--verbose"],
    exit: 7,
  },
  {
    name: "set-quantity with a forged token --verbose",
    source: "forged-env",
    args: (url) => [...api(url), "intake", "set-quantity", "1001", "300", "--verbose"],
    exit: 4,
  },
  {
    name: "set-modifiers --verbose",
    source: "env",
    args: (url) => [...api(url), "intake", "set-modifiers", "1002", "1", "--salt", "low", "--verbose"],
    exit: 0,
  },
  {
    name: "set-modifiers --dry-run --json",
    source: "profile",
    args: (url) => [...api(url), "intake", "set-modifiers", "1002", "--all-items", "--oil", "high", "--dry-run", "--json"],
    exit: 0,
  },
  {
    name: "set-modifiers bad level --json",
    source: "env",
    args: (url) => [...api(url), "intake", "set-modifiers", "1002", "1", "--salt", "lots", "--json"],
    exit: 2,
  },
  { name: "apply --verbose", source: "env", args: (url) => [...api(url), "intake", "apply", files.jsonl, "--verbose"], exit: 0 },
  {
    name: "apply --dry-run --verbose (csv)",
    source: "profile",
    args: (url) => [...api(url), "intake", "apply", files.csv, "--dry-run", "--verbose"],
    exit: 0,
  },
  {
    name: "apply from stdin --json",
    source: "env",
    args: (url) => [...api(url), "intake", "apply", "-", "--format", "jsonl", "--json"],
    stdin: () => '{"image_id": 1003, "quantity": {"manual2": 40}}\n',
    exit: 0,
  },
  {
    name: "apply with invalid lines --json",
    source: "env",
    args: (url) => [...api(url), "intake", "apply", files.badJsonl, "--json"],
    exit: 2,
  },
  {
    name: "apply with a forged token --verbose",
    source: "forged-env",
    args: (url) => [...api(url), "intake", "apply", files.jsonl, "--verbose"],
    exit: 4,
  },
  {
    name: "display-image attach --verbose",
    source: "env",
    args: (url) => [...api(url), "display-image", "attach", "1003", files.photo, "--verbose"],
    exit: 0,
  },
  {
    name: "display-image attach --dry-run --json",
    source: "profile",
    args: (url) => [...api(url), "display-image", "attach", "1003", files.photo, "--dry-run", "--json"],
    exit: 0,
  },
  {
    name: "display-image attach to a segmentation intake --json --verbose",
    source: "env",
    args: (url) => [...api(url), "display-image", "attach", "1002", files.photo, "--json", "--verbose"],
    exit: 7,
  },
  {
    name: "display-image attach a text file",
    source: "env",
    args: (url) => [...api(url), "display-image", "attach", "1003", files.notImage, "--verbose"],
    exit: 2,
  },
  {
    name: "display-image attach from stdin --json",
    source: "profile",
    args: (url) => [...api(url), "display-image", "attach", "1003", "-", "--json"],
    stdin: () => TINY_PNG,
    exit: 0,
  },
  {
    name: "display-image remove --yes --verbose",
    source: "env",
    args: (url) => [...api(url), "display-image", "remove", "1005", "--yes", "--verbose"],
    exit: 0,
  },
  {
    name: "display-image remove --dry-run --json",
    source: "profile",
    args: (url) => [...api(url), "display-image", "remove", "1005", "--yes", "--dry-run", "--json"],
    exit: 0,
  },
  {
    name: "display-image remove without --yes off a terminal",
    source: "env",
    args: (url) => [...api(url), "display-image", "remove", "1005", "--json"],
    exit: 2,
  },
  {
    name: "display-image remove with a forged token --json --verbose",
    source: "forged-env",
    args: (url) => [...api(url), "display-image", "remove", "1005", "--yes", "--json", "--verbose"],
    exit: 4,
  },
  // completion and usage errors
  { name: "completion bash", source: "env", args: () => ["completion", "bash"], exit: 0 },
  { name: "completion zsh", source: "profile", args: () => ["completion", "zsh"], exit: 0 },
  { name: "completion fish", source: "env", args: () => ["completion", "fish"], exit: 0 },
  { name: "completion with an unknown shell --json", source: "env", args: () => ["completion", "tcsh", "--json"], exit: 2 },
  { name: "--token=<token> is an unknown option", source: "none", args: () => [`--token=${token}`, "auth", "status"], exit: 2 },
  {
    name: "--token <token> is an unknown option --json",
    source: "none",
    args: (url) => [...api(url), "--token", token, "intake", "list", "--json"],
    exit: 2,
  },
  { name: "auth login <token> takes no argument", source: "none", args: () => ["auth", "login", token], exit: 2 },
  {
    name: "auth login --with-token <token> takes no argument --json",
    source: "none",
    args: () => ["auth", "login", "--with-token", token, "--json"],
    exit: 2,
  },
  { name: "an unknown command given the token", source: "env", args: () => ["intakes", token], exit: 2 },
];

describe("the token appears nowhere but in `auth token`'s stdout", () => {
  it.concurrent.each(runs)("$name", async ({ args, source, stdin, exit }) => {
    const result = await runFoodctl(args(sandbox.url), { env: envFor(source), ...(stdin ? { stdin: stdin() } : {}) });
    expectNoSecret(result);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(exit);
  });

  it.concurrent.each([
    { source: "profile" as const, args: ["auth", "token"] },
    { source: "env" as const, args: ["auth", "token", "--verbose"] },
    { source: "profile" as const, args: ["auth", "token", "--json"] },
  ])("auth token ($source, $args) prints it on stdout only", async ({ source, args }) => {
    const result = await runFoodctl(args, { env: envFor(source) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(token);
    expectNoSecret(result, { stdoutMayHoldToken: true });
  });
});

describe("the token is not accepted on the command line", () => {
  it("--token x is an unknown option: exit 2, nothing sent", async () => {
    const before = sandbox.stats().total_requests;
    const result = await runFoodctl(["--api-url", sandbox.url, "--token", "x", "intake", "show", "1002"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--token'/);
    expect(sandbox.stats().total_requests).toBe(before);
  });

  it("auth login <token> is refused with exit 2 and stores nothing", async () => {
    const home = tempConfigHome();
    const result = await runFoodctl(["auth", "login", token], { env: { XDG_CONFIG_HOME: home } });
    expect(result.code).toBe(2);
    const status = await runFoodctl(["auth", "status"], { env: { XDG_CONFIG_HOME: home } });
    expect(status.code).toBe(4);
  });
});

describe("a server that echoes the token back", () => {
  it.each([
    { source: "env" as const, status: 401, args: ["intake", "show", "1002"] },
    { source: "profile" as const, status: 401, args: ["intake", "show", "1002", "--json"] },
    { source: "profile" as const, status: 500, args: ["intake", "set-quantity", "1002", "1=150", "--verbose"] },
    { source: "env" as const, status: 400, args: ["intake", "list", "--json", "--verbose"] },
  ])("$status to $args ($source token): the message is shown, the token is not", async ({ source, status, args }) => {
    const server = await startFaultServer();
    try {
      const echo = () => faults.error(status, `refused Bearer ${token} for this request`);
      server.route(args[1] === "list" ? "GET /v2/history/getIntakesList" : "GET /v2/intake/1002", echo());
      const result = await runFoodctl(["--api-url", server.url, "--retries", "0", ...args], { env: envFor(source) });
      expect(server.count()).toBeGreaterThan(0);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${token}`);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/refused Bearer \*\*\*\* for this request/);
      expectNoSecret(result);
    } finally {
      await server.close();
    }
  });
});

describe("a stored opaque token (auth login, not FOODCTL_TOKEN) that the server names outside an error body", () => {
  // 40 hex characters, as the public service issues them: no JWT shape to give it away.
  const opaque = "0123456789abcdef0123456789abcdef01234567";
  const redirect = () => faults.redirect(`https://${opaque}.evil.example/`);

  it.each([
    ["intake show", ["intake", "show", "1002"]],
    ["intake show --json", ["intake", "show", "1002", "--json"]],
    ["smoke --junit", ["smoke", "1002", "--junit"]],
  ])("a 302 Location naming it (%s): masked on stderr, in the --json error, the smoke table and the JUnit file", async (_name, args) => {
    const home = tempConfigHome();
    const login = await runFoodctl(["auth", "login", "--with-token"], { stdin: `${opaque}\n`, env: { XDG_CONFIG_HOME: home } });
    expect(login.code, login.stderr).toBe(0);
    const server = await startFaultServer();
    try {
      server.route("GET /v2/intake/1002", redirect());
      const report = join(runTempDir("foodctl-secrets-"), "smoke.xml");
      const full = args.at(-1) === "--junit" ? [...args, report] : args;
      const result = await runFoodctl(["--api-url", server.url, "--retries", "0", ...full], { env: { XDG_CONFIG_HOME: home } });
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${opaque}`);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("****.evil.example");
      expect(result.stdout + result.stderr).not.toContain(opaque);
      if (full.includes("--junit")) {
        expect(result.stdout).toContain("****.evil.example");
        const xml = readFileSync(report, "utf8");
        expect(xml).toContain("****.evil.example");
        expect(xml).not.toContain(opaque);
      }
    } finally {
      await server.close();
    }
  });
});
