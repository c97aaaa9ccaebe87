/**
 * `--dry-run --curl`: the printed line, run with sh, sends the request foodctl itself sends
 * (method, target, headers, body; for an upload the file part), with values full of quotes,
 * dollar signs and backticks; the token is never printed, and is read when the line runs:
 * from FOODCTL_TOKEN, or from `foodctl auth token --profile NAME`.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { png } from "../fixtures/images.js";
import { shellQuote } from "../../src/sanitize.js";
import { baseEnv, cliBin, collect, expectExit, runCli, runFoodctl, runTempDir, type CliResult } from "../helpers/cli.js";
import { startWireRecorder, type WireRecorder, type WireRequest } from "../helpers/wireRecorder.js";
import { startTestSandbox, type TestSandbox } from "./change/harness.js";

/** An API URL path prefix that a shell would expand or split if it were not quoted. */
const PREFIX = '/it\'s $HOME "q" `id`';
/** The same prefix as the request target carries it. */
const SENT_PREFIX = new URL(`http://h${PREFIX}`).pathname;

let sandbox: TestSandbox;
let recorder: WireRecorder;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  recorder = await startWireRecorder({ forwardTo: sandbox.url, prefix: SENT_PREFIX });
  token = sandbox.token("alice");
});
afterAll(async () => {
  await recorder.close();
  await sandbox.close();
});
afterEach(() => void recorder.requests.splice(0));

const apiUrl = () => recorder.url.replace(SENT_PREFIX, PREFIX);

function foodctl(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runFoodctl(args, { env: { FOODCTL_API_URL: apiUrl(), FOODCTL_TOKEN: token, ...env } });
}

/** Runs the printed line with sh, as a colleague would paste it. */
function runWithSh(line: string, env: Record<string, string>, stdin?: Buffer): Promise<CliResult> {
  return collect(spawn("sh", ["-c", line], { env: baseEnv(env), stdio: ["pipe", "pipe", "pipe"] }), { stdin });
}

/** The one curl line of a dry run: stdout holds it and nothing else; the token is nowhere. */
async function curlLine(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await foodctl([...args, "--dry-run", "--curl"], env);
  expectExit(result, 0);
  expect(result.stdout).toMatch(/^curl [^\n]*\n$/);
  expect(result.stdout + result.stderr).not.toContain(token);
  expect(result.stderr).toContain("dry run: nothing was sent");
  return result.stdout;
}

/** The requests that change something (not the reads before and after). */
const writes = () => recorder.requests.filter((request) => request.method !== "GET");

/** What both must agree on: every header but the connection's own. */
function comparable(request: WireRequest) {
  const { host, connection, ...headers } = request.headers;
  void host;
  void connection;
  return { method: request.method, target: request.target, headers, body: request.body.toString("latin1") };
}

/** A multipart body's parts with their boundaries taken out (each client picks its own). */
function multipartParts(request: WireRequest) {
  const type = request.headers["content-type"] ?? "";
  const boundary = /boundary=(.+)$/.exec(type)![1]!;
  return request.body
    .toString("latin1")
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => part.replace(/\r\n$/, ""));
}

async function sentByCurl(line: string, env: Record<string, string>): Promise<WireRequest> {
  const result = await runWithSh(line, env);
  expectExit(result, 0);
  expect(writes()).toHaveLength(1);
  const [request] = writes();
  recorder.requests.splice(0);
  return request!;
}

async function sentByFoodctl(args: string[]): Promise<WireRequest> {
  expectExit(await foodctl(args), 0);
  expect(writes()).toHaveLength(1);
  const [request] = writes();
  recorder.requests.splice(0);
  return request!;
}

describe("--dry-run --curl, run with sh against the sandbox", () => {
  it("set-quantity: the same request, the token read from FOODCTL_TOKEN", async () => {
    const before = [1, 3].map(
      (position) => sandbox.intake(1002).recipe_per_item?.find((item) => item.food_item_position === position)?.serving_size,
    );
    const line = await curlLine(["intake", "set-quantity", "1002", "1=155", "3=180.5"]);
    expect(line).toContain('"authorization: Bearer $FOODCTL_TOKEN"');
    recorder.requests.splice(0);
    const byCurl = await sentByCurl(line, { FOODCTL_TOKEN: token });
    const grams = (position: number) =>
      sandbox.intake(1002).recipe_per_item?.find((item) => item.food_item_position === position)?.serving_size;
    expect(grams(1)).toBe(155);
    // Back as the dry run found it: foodctl sends no value an intake holds already.
    expectExit(await sandbox.cli(["intake", "set-quantity", "1002", `1=${before[0]}`, `3=${before[1]}`, "--no-journal"]), 0);
    const byFoodctl = await sentByFoodctl(["intake", "set-quantity", "1002", "1=155", "3=180.5", "--no-verify"]);
    expect(comparable(byCurl)).toEqual(comparable(byFoodctl));
    expect(byCurl.headers.authorization).toBe(`Bearer ${token}`);
    expect(byCurl.target.startsWith(SENT_PREFIX)).toBe(true);
  });

  it("set-quantity with a profile's stored token: the line asks `foodctl auth token --profile` for it", async () => {
    const home = runTempDir();
    const env = { XDG_CONFIG_HOME: home };
    expectExit(await runFoodctl(["auth", "login", "--with-token", "--profile", "support"], { env, stdin: `${token}\n` }), 0);
    const result = await runFoodctl(["intake", "set-quantity", "1001", "300", "--profile", "support", "--dry-run", "--curl"], {
      env: { ...env, FOODCTL_API_URL: apiUrl() },
    });
    expectExit(result, 0);
    expect(result.stdout).toContain('"authorization: Bearer $(foodctl auth token --profile support)"');
    expect(result.stdout + result.stderr).not.toContain(token);
    // A `foodctl` on the PATH, as where the line is pasted.
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "foodctl"), `#!/bin/sh\nexec "${process.execPath}" "${cliBin()}" "$@"\n`);
    chmodSync(join(bin, "foodctl"), 0o755);
    recorder.requests.splice(0);
    const byCurl = await sentByCurl(result.stdout, { ...env, PATH: `${bin}:${process.env.PATH}` });
    expect(byCurl.headers.authorization).toBe(`Bearer ${token}`);
    expect(JSON.parse(byCurl.body.toString("utf8"))).toEqual({ imageId: 1001, quantity: 300 });
    expect(sandbox.intake(1001).serving_size).toBe(300);
  });

  it("fails as a script expects: -sS --fail-with-body, so an error answer exits 22 with its body on stdout", async () => {
    const line = await curlLine(["intake", "set-quantity", "1002", "1=154"]);
    expect(line).toMatch(/^curl -sS --fail-with-body /);
    const refused = await runWithSh(line, { FOODCTL_TOKEN: "not-a-token" });
    expect(refused.code).toBe(22);
    expect(refused.stdout).toMatch(/^\{.*\}\s*$/s);
    expect(refused.stderr).toMatch(/^curl: \(22\) .*401/);
    expect(writes()).toHaveLength(1);
  });

  describe("a stored token, read by the foodctl that printed the line", () => {
    /** PATH where the line runs: curl and sh, and no foodctl unless `bin` holds one. */
    const path = (bin?: string) => [bin, "/usr/bin", "/bin"].filter(Boolean).join(":");
    let env: Record<string, string | undefined>;
    beforeAll(async () => {
      env = { XDG_CONFIG_HOME: runTempDir(), FOODCTL_API_URL: apiUrl(), npm_lifecycle_event: undefined };
      expectExit(await runFoodctl(["auth", "login", "--with-token", "--profile", "support"], { env, stdin: `${token}\n` }), 0);
    });
    // A value the intake does not hold yet (foodctl sends none it holds already): each test's own.
    const dryRun = async (extra: Record<string, string | undefined>, grams = "301") => {
      const result = await runCli(["intake", "set-quantity", "1001", grams, "--profile", "support", "--dry-run", "--curl"], {
        env: { ...env, ...extra },
      });
      expectExit(result, 0);
      return result.stdout;
    };
    const thisProgram = () => `$(${shellQuote(process.execPath)} ${shellQuote(cliBin())} auth token --profile support)`;

    it("with no foodctl on the PATH (a checkout, npx), the line runs this foodctl by its paths, and works", async () => {
      const line = await dryRun({ PATH: path() });
      expect(line).toContain(`"authorization: Bearer ${thisProgram()}"`);
      recorder.requests.splice(0);
      const byCurl = await sentByCurl(line, { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!, PATH: path() });
      expect(byCurl.headers.authorization).toBe(`Bearer ${token}`);
      expect(sandbox.intake(1001).serving_size).toBe(301);
    });

    it("with a foodctl on the PATH, the line names it; under npm (npx, a script), whose PATH the shell lacks, it does not", async () => {
      const bin = join(runTempDir(), "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "foodctl"), `#!/bin/sh\nexec "${process.execPath}" "${cliBin()}" "$@"\n`);
      chmodSync(join(bin, "foodctl"), 0o755);
      expect(await dryRun({ PATH: path(bin) }, "302")).toContain('"authorization: Bearer $(foodctl auth token --profile support)"');
      expect(await dryRun({ PATH: path(bin), npm_lifecycle_event: "npx" }, "302")).toContain(`"authorization: Bearer ${thisProgram()}"`);
    });
  });

  it("the dry run shows the headers the curl line sends, in its order (the token masked)", async () => {
    const args = ["intake", "set-quantity", "1002", "1=153"];
    const line = await curlLine(args);
    const shown = await foodctl([...args, "--dry-run"]);
    expectExit(shown, 0);
    const dryRunHeaders = shown.stdout.split("\n\n")[0]!.split("\n").slice(1);
    const curlHeaders = [...line.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)].map((match) => match[1] ?? match[2]!);
    expect(dryRunHeaders[0]).toBe("accept: application/json");
    expect(curlHeaders.map((header) => header.replace("Bearer $FOODCTL_TOKEN", "Bearer ****"))).toEqual(dryRunHeaders);
  });

  it("display-image attach: the same file part, from a path full of quotes, dollar signs and backticks", async () => {
    const dir = join(runTempDir(), 'it\'s $HOME `id` "dir"');
    mkdirSync(dir);
    const path = join(dir, "pl$te 'one'.png");
    const image = png(5, 3);
    writeFileSync(path, image);
    const line = await curlLine(["display-image", "attach", "1005", path]);
    recorder.requests.splice(0);
    const byCurl = await sentByCurl(line, { FOODCTL_TOKEN: token });
    expect(sandbox.intake(1005).processed_image_size).toBeDefined();
    const byFoodctl = await sentByFoodctl(["display-image", "attach", "1005", path, "--no-verify", "--no-journal"]);
    const { headers: curlHeaders, body: _curlBody, ...curlRest } = comparable(byCurl);
    const { headers: foodctlHeaders, body: _foodctlBody, ...foodctlRest } = comparable(byFoodctl);
    expect(curlRest).toEqual(foodctlRest);
    expect(curlHeaders.authorization).toBe(foodctlHeaders.authorization);
    expect(curlHeaders["user-agent"]).toBe(foodctlHeaders["user-agent"]);
    expect(curlHeaders["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const [curlPart] = multipartParts(byCurl);
    const [foodctlPart] = multipartParts(byFoodctl);
    // The part's headers and bytes: field, file name, type and the image itself.
    const read = (part: string) => {
      const [head, ...body] = part.split("\r\n\r\n");
      return {
        disposition: /content-disposition: form-data; name="image"; filename="(.*)"/i.exec(head!)?.[1],
        type: /content-type: (.*)/i.exec(head!)?.[1],
        bytes: Buffer.from(body.join("\r\n\r\n"), "latin1"),
      };
    };
    expect(read(curlPart!).type).toBe("image/png");
    expect(read(curlPart!)).toEqual(read(foodctlPart!));
    expect(read(curlPart!).bytes.equals(image)).toBe(true);
  });

  it("display-image attach - : the line reads the image from its own stdin", async () => {
    const image = png(7, 2);
    const result = await runFoodctl(["display-image", "attach", "1005", "-", "--dry-run", "--curl"], {
      env: { FOODCTL_API_URL: apiUrl(), FOODCTL_TOKEN: token },
      stdin: image,
    });
    expectExit(result, 0);
    expect(result.stdout).toContain("'image=@-;type=image/png;");
    expect(result.stderr).toContain("reads the image from its stdin");
    recorder.requests.splice(0);
    expectExit(await runWithSh(result.stdout, { FOODCTL_TOKEN: token }, image), 0);
    expect(sandbox.intake(1005).processed_image_size).toEqual({ width: 7, height: 2 });
  });

  it("api: the same request, with fields and a header full of quotes, dollar signs, backticks, line breaks and non-ASCII", async () => {
    const hostile = 'it\'s "$HOME" `id` $(id) \\ ; & | ü 🍜\nnext line';
    const args = [
      "api",
      "nutrition/confirm/quantity",
      "-F",
      "imageId=1001",
      "-F",
      "quantity=310",
      "-f",
      `note=${hostile}`,
      "-H",
      'X-Note: it\'s "$HOME" `id`',
    ];
    const line = await curlLine(args);
    recorder.requests.splice(0);
    const byCurl = await sentByCurl(line, { FOODCTL_TOKEN: token });
    expect(JSON.parse(byCurl.body.toString("utf8"))).toEqual({ imageId: 1001, quantity: 310, note: hostile });
    const byFoodctl = await sentByFoodctl(args);
    expect(comparable(byCurl)).toEqual(comparable(byFoodctl));
    expect(sandbox.intake(1001).serving_size).toBe(310);
  });

  it("api --input: the line reads the same file when it runs", async () => {
    const file = join(runTempDir(), "it's $body.json");
    writeFileSync(file, JSON.stringify({ imageId: 1001, quantity: 305 }));
    const line = await curlLine(["api", "nutrition/confirm/quantity", "--input", file]);
    expect(line).toContain("--data-binary");
    recorder.requests.splice(0);
    const byCurl = await sentByCurl(line, { FOODCTL_TOKEN: token });
    const byFoodctl = await sentByFoodctl(["api", "nutrition/confirm/quantity", "--input", file]);
    expect(comparable(byCurl)).toEqual(comparable(byFoodctl));
  });

  it("intake apply: one curl line per request, in file order; run whole with sh, they send the batch", async () => {
    const file = join(runTempDir(), "batch.csv");
    writeFileSync(file, "image_id,position,quantity,salt\n1002,1,161,low\n1002,2,121,\n1001,,251,\n");
    const result = await foodctl(["intake", "apply", file, "--dry-run", "--curl"]);
    expectExit(result, 0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^curl .*"authorization: Bearer \$FOODCTL_TOKEN"/);
    expect(result.stdout + result.stderr).not.toContain(token);
    recorder.requests.splice(0);
    expectExit(await runWithSh(result.stdout, { FOODCTL_TOKEN: token }), 0);
    expect(writes().map((request) => JSON.parse(request.body.toString("utf8")) as unknown)).toEqual([
      { imageId: 1002, quantity: { "1": 161, "2": 121 }, salt: { "1": "low" } },
      { imageId: 1001, quantity: 251 },
    ]);
    expect(sandbox.intake(1001).serving_size).toBe(251);
  });

  it("undo --last: the line puts the intake back", async () => {
    const home = runTempDir();
    const env = { XDG_STATE_HOME: home };
    const before = sandbox.intake(1001).serving_size;
    expectExit(await foodctl(["intake", "set-quantity", "1001", "333"], env), 0);
    const line = await curlLine(["undo", "--last"], env);
    expect(JSON.parse(/--data-raw '(.*)'$/.exec(line.trim())![1]!)).toEqual({ imageId: 1001, quantity: before });
    expect(sandbox.intake(1001).serving_size).toBe(333);
    expectExit(await runWithSh(line, { FOODCTL_TOKEN: token }), 0);
    expect(sandbox.intake(1001).serving_size).toBe(before);
  });

  it.each([
    [["intake", "set-modifiers", "1002", "1", "--salt", "high"], undefined, '"salt":{"1":"high"}'],
    [["intake", "edit", "1003", "--file", "-"], "position quantity\nmanual1 351\nmanual2 100\n", '"quantity":{"manual1":351}'],
    [["display-image", "remove", "1005"], undefined, "-X DELETE "],
  ])("%j prints one curl line and sends nothing but its read", async (args, stdin, expected) => {
    const result = await runFoodctl([...args, "--dry-run", "--curl"], { env: { FOODCTL_API_URL: apiUrl(), FOODCTL_TOKEN: token }, stdin });
    expectExit(result, 0);
    expect(result.stdout).toMatch(/^curl [^\n]*"authorization: Bearer \$FOODCTL_TOKEN"[^\n]*\n$/);
    expect(result.stdout).toContain(expected);
    expect(result.stdout + result.stderr).not.toContain(token);
    expect(writes()).toEqual([]);
  });

  it("refuses --curl without --dry-run and with --json (exit 2), sending nothing", async () => {
    for (const args of [
      ["intake", "set-quantity", "1002", "1=150", "--curl"],
      ["intake", "set-quantity", "1002", "1=150", "--curl", "--dry-run", "--json"],
    ]) {
      const result = await foodctl(args);
      expectExit(result, 2);
      expect(result.stdout).toBe("");
    }
    expect(recorder.requests).toEqual([]);
  });
});
