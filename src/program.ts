/**
 * The command tree: names, options, help and examples live here so `--help` needs no command
 * module; each action loads its module only when it runs.
 */
import { Command, Option } from "commander";
import type { Context, GlobalOptions } from "./context.js";
import { usageError } from "./errors.js";
import { decideColor, type IO } from "./io.js";
import { VERSION } from "./version.js";

// For main.ts: importing commander there too would split it into a chunk of its own (one more file to load).
export { CommanderError } from "commander";

export interface ProgramState {
  exitCode: number;
}

type Arg = string | string[] | undefined;
type Action = (ctx: Context, args: Arg[], options: Record<string, unknown>) => Promise<number | void>;

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
}

export function buildProgram(io: IO, state: ProgramState, signal: AbortSignal): Command {
  const wire = (command: Command, action: Action) =>
    command.action(async (...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      const options = self.opts();
      const globals = self.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
      io.color = {
        stdout: decideColor(io.stdout, io.env, globals.color === false),
        stderr: decideColor(io.stderr, io.env, globals.color === false),
      };
      const args = received.slice(0, -2) as Arg[];
      // Loaded here, not at the top: `--help` and usage errors never need config, zod or the client.
      const { Context } = await import("./context.js");
      const ctx = new Context(io, { ...globals, json: globals.json === true, verbose: globals.verbose === true, color: globals.color !== false }, signal);
      state.exitCode = (await action(ctx, args, options)) ?? 0;
    });

  const program = new Command("foodctl")
    .description("Fix food intakes through the intake-management API: quantities, salt/sugar/oil levels, display images.")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addHelpCommand(false)
    .showSuggestionAfterError(true)
    .option("--profile <name>", "config profile (env FOODCTL_PROFILE)")
    .option("--api-url <url>", "base URL of the API (env FOODCTL_API_URL)")
    .option("--user <id>", "act for this APIUser, sent as user_id (env FOODCTL_USER)")
    .option("--json", "machine output: one JSON document on stdout, errors as JSON on stderr")
    .option("--timeout <seconds>", "per-request timeout (env FOODCTL_TIMEOUT; default 30)")
    .option("--retries <n>", "extra attempts for network errors, 429 and 502/503/504 (default 2)")
    .option("--verbose", "HTTP trace on stderr, Authorization masked (env FOODCTL_DEBUG=1)")
    .option("--no-color", "no colour (also NO_COLOR; FORCE_COLOR forces it)")
    .addHelpText(
      "after",
      examples(
        "foodctl sandbox                                   # a local API to try everything on",
        "foodctl auth login --with-token < token.txt",
        "foodctl intake list --from 2026-11-01",
        "foodctl intake show 1002",
        "foodctl intake set-quantity 1002 1=150 2=80.5",
        "foodctl intake set-modifiers 1002 1 --salt low",
        "foodctl display-image attach 1003 photo.jpg",
      ) + "\nToken: FOODCTL_TOKEN, else the profile's stored token (there is no token flag).\nExit codes: 0 ok, 2 usage, 3 cancelled, 4 auth, 5 forbidden, 6 not found, 7 rejected, 8 unavailable, 9 partial, 130 interrupted.\n",
    );

  // auth
  const auth = program
    .command("auth")
    .description("log in, inspect and forget the API token")
    .addHelpText("after", examples("foodctl auth login --with-token < token.txt", "foodctl auth status", "foodctl auth logout"));
  wire(
    auth
      .command("login")
      .description("store a JWT in the profile (hidden prompt on a terminal, or stdin with --with-token)")
      .option("--with-token", "read the token from stdin")
      .addHelpText("after", examples("foodctl auth login", "echo \"$TOKEN\" | foodctl auth login --with-token --profile staging")),
    async (ctx, _args, options) => (await import("./commands/auth/login.js")).loginCommand(ctx, { withToken: options.withToken === true }),
  );
  wire(
    auth
      .command("status")
      .description("profile, API URL, token source, subject, role and expiry; exit 4 without a usable token")
      .addHelpText("after", examples("foodctl auth status", "foodctl auth status --json | jq .expires_at")),
    async (ctx) => (await import("./commands/auth/status.js")).statusCommand(ctx),
  );
  wire(
    auth.command("logout").description("forget the stored token of the profile").addHelpText("after", examples("foodctl auth logout --profile staging")),
    async (ctx) => (await import("./commands/auth/logout.js")).logoutCommand(ctx),
  );
  wire(
    auth.command("token").description("print the token, for scripts").addHelpText("after", examples("curl -H \"Authorization: Bearer $(foodctl auth token)\" ...")),
    async (ctx) => (await import("./commands/auth/token.js")).tokenCommand(ctx),
  );

  // config
  const config = program
    .command("config")
    .description("read and change profile settings: api-url, user, timeout")
    .addHelpText("after", examples("foodctl config set api-url https://api.example.com", "foodctl config list --profile staging", "foodctl config path"));
  wire(
    config.command("list").description("the settings of the profile and where each comes from").addHelpText("after", examples("foodctl config list", "foodctl config list --profile staging --json")),
    async (ctx) => (await import("./commands/config/config.js")).configList(ctx),
  );
  wire(
    config.command("get").argument("<key>", "api-url, user or timeout").description("print one setting").addHelpText("after", examples("foodctl config get api-url")),
    async (ctx, [key]) => (await import("./commands/config/config.js")).configGet(ctx, key as string),
  );
  wire(
    config
      .command("set")
      .argument("<key>", "api-url, user or timeout")
      .argument("<value>")
      .description("store a setting in the profile (creates the profile)")
      .addHelpText("after", examples("foodctl config set api-url https://api.example.com", "foodctl config set user 101 --profile support")),
    async (ctx, [key, value]) => (await import("./commands/config/config.js")).configSet(ctx, key as string, value as string),
  );
  wire(
    config.command("unset").argument("<key>", "api-url, user or timeout").description("remove a setting from the profile").addHelpText("after", examples("foodctl config unset user")),
    async (ctx, [key]) => (await import("./commands/config/config.js")).configUnset(ctx, key as string),
  );
  wire(
    config.command("path").description("print the config file's path").addHelpText("after", examples("foodctl config path")),
    async (ctx) => (await import("./commands/config/config.js")).configPathCommand(ctx),
  );

  // intake
  const intake = program
    .command("intake")
    .description("find, inspect and correct intakes")
    .addHelpText("after", examples("foodctl intake list --from 2026-11-01", "foodctl intake show 1002", "foodctl intake set-quantity 1002 1=150"));
  wire(
    intake
      .command("list")
      .description("the user's intakes, oldest first: id, time, occasion, kind, foods, kcal, display image")
      .option("--from <date>", "from this date or time (YYYY-MM-DD or ISO 8601, UTC)")
      .option("--to <date>", "up to this date or time (a bare date includes the whole day)")
      .addHelpText("after", examples("foodctl intake list", "foodctl intake list --from 2026-11-01 --to 2026-11-07", "foodctl intake list --json | jq '.intakes_list[].image_id'")),
    async (ctx, _args, options) => (await import("./commands/intake/list.js")).listCommand(ctx, { from: options.from as string | undefined, to: options.to as string | undefined }),
  );
  wire(
    intake
      .command("show")
      .argument("<image_id>", "the intake's id (from `intake list`)")
      .description("one intake: summary, items (position, food, grams, salt, sugar, oil, measures, kcal), totals")
      .addHelpText("after", examples("foodctl intake show 1002", "foodctl intake show 1002 --json | jq .intake_info.serving_size", "foodctl intake show 2001 --user 102")),
    async (ctx, [imageId]) => (await import("./commands/intake/show.js")).showCommand(ctx, imageId as string),
  );
  wire(
    intake
      .command("set-quantity")
      .argument("<image_id>", "the intake's id")
      .argument("<values...>", "recognition-only: total grams (a positive integer); itemized: <pos>=<grams> per item")
      .description("change quantities; the recipe is rescaled and nutrition recalculated")
      .option("--dry-run", "print the request that would be sent and send nothing")
      .option("--no-verify", "skip reading the intake again after the change")
      .addHelpText("after", examples("foodctl intake set-quantity 1001 320", "foodctl intake set-quantity 1002 1=150 2=80.5", "foodctl intake set-quantity 1003 manual2=40 --dry-run")),
    async (ctx, [imageId, values], options) =>
      (await import("./commands/intake/setQuantity.js")).setQuantityCommand(ctx, imageId as string, values as string[], options),
  );
  wire(
    intake
      .command("set-modifiers")
      .argument("<image_id>", "the intake's id")
      .argument("[positions...]", "item positions (1, 2, … or manual1, …); required for itemized intakes unless --all-items")
      .description("change salt, sugar, oil levels and measures (item-level ones need the Monitor plan or higher)")
      .option("--salt <level>", "none, low, medium or high")
      .option("--sugar <level>", "none, low, medium or high")
      .option("--oil <level>", "none, low, medium or high (itemized intakes only)")
      .option("--measures <system>", "metric or imperial (itemized intakes only)")
      .option("--all-items", "apply to every item of the intake")
      .option("--strict", "exit 7 when a requested modifier did not take effect")
      .option("--dry-run", "print the request that would be sent and send nothing")
      .option("--no-verify", "skip reading the intake again after the change")
      .addHelpText("after", examples("foodctl intake set-modifiers 1002 1 2 --salt none", "foodctl intake set-modifiers 1002 --all-items --oil low --measures imperial", "foodctl intake set-modifiers 1001 --sugar none")),
    async (ctx, [imageId, positions], options) =>
      (await import("./commands/intake/setModifiers.js")).setModifiersCommand(ctx, imageId as string, (positions as string[] | undefined) ?? [], options),
  );
  wire(
    intake
      .command("apply")
      .argument("<file>", "JSON Lines or CSV file of changes, or - for stdin")
      .description("apply many changes from JSON Lines or CSV; one JSON result per change on stdout")
      .addOption(new Option("--format <format>", "input format (default: from the file extension)").choices(["jsonl", "csv"]))
      .option("--concurrency <n>", "changes in flight at once, 1 to 64 (default 4)")
      .option("--continue-on-error", "keep sending after a failed change (a 401 or an unreachable API still stops the batch)")
      .option("--skip-applied <results>", "skip lines whose result in this earlier output was applied (same line and image_id)")
      .option("--strict", "count a change whose modifiers did not take effect as failed")
      .option("--dry-run", "validate and print the requests without sending")
      .option("--no-verify", "skip the read before and after each change")
      .addHelpText("after", examples("foodctl intake apply fixes.jsonl > results.jsonl", "foodctl intake apply fixes.csv --continue-on-error", "foodctl intake apply fixes.jsonl --skip-applied results.jsonl >> results.jsonl", "foodctl intake apply - --format csv --dry-run < fixes.csv")),
    async (ctx, [file], options) => (await import("./commands/intake/apply.js")).applyCommand(ctx, file as string, options),
  );

  // display-image
  const displayImage = program
    .command("display-image")
    .description("attach or remove the display image of a manual intake")
    .addHelpText("after", examples("foodctl display-image attach 1003 photo.jpg", "foodctl display-image remove 1005 --yes"));
  wire(
    displayImage
      .command("attach")
      .argument("<image_id>", "a manual intake's id")
      .argument("<file>", "JPEG, PNG, GIF or WebP of at most 1 MiB, or - for stdin")
      .description("attach or replace the presentation image (no recognition, no nutrition change)")
      .option("--dry-run", "print the request that would be sent and send nothing")
      .option("--no-verify", "skip reading the intake again after the change")
      .addHelpText("after", examples("foodctl display-image attach 1003 photo.jpg", "curl -s https://example.com/p.png | foodctl display-image attach 1003 -")),
    async (ctx, [imageId, file], options) => (await import("./commands/display-image/attach.js")).attachCommand(ctx, imageId as string, file as string, options),
  );
  wire(
    displayImage
      .command("remove")
      .argument("<image_id>", "a manual intake's id")
      .description("remove the display image; the intake shows its normal image again")
      .option("-y, --yes", "do not ask (required when not on a terminal)")
      .option("--dry-run", "print the request that would be sent and send nothing")
      .option("--no-verify", "skip reading the intake again after the change")
      .addHelpText("after", examples("foodctl display-image remove 1005", "foodctl display-image remove 1005 --yes --json")),
    async (ctx, [imageId], options) => (await import("./commands/display-image/remove.js")).removeCommand(ctx, imageId as string, options),
  );

  wire(
    program
      .command("sandbox")
      .description("run a local emulator of the API in the foreground, with seeded users and intakes")
      .option("--port <n>", "port, 0 for any free one", "8787")
      .option("--host <addr>", "address to bind", "127.0.0.1")
      .option("--state <file>", "load and save the sandbox's state in this file")
      .option("--env", "print only export lines for FOODCTL_API_URL and FOODCTL_TOKEN")
      .option("--as <user-name>", "whose token --env exports (default: the first APIUser)")
      .option("--rate-limit <rps>", "answer 429 above this many requests per second")
      .option("--latency <ms>", "delay every API answer")
      .addHelpText("after", examples("foodctl sandbox", "foodctl sandbox --env --as alice > sandbox.env & sleep 1; source sandbox.env", "foodctl sandbox --port 0 --state rehearsal.json   # keeps changes across restarts")),
    async (ctx, _args, options) => {
      const { sandboxCommand } = await import("./commands/sandbox.js");
      return sandboxCommand(ctx.io, { ...parseSandboxOptions(options), json: ctx.json });
    },
  );

  wire(
    program
      .command("completion")
      .argument("<shell>", "bash, zsh or fish")
      .description("print a shell completion script")
      .addHelpText("after", examples("source <(foodctl completion bash)", "source <(foodctl completion zsh)", "foodctl completion fish > ~/.config/fish/completions/foodctl.fish")),
    async (ctx, [shell]) => (await import("./commands/completion.js")).completionCommand(ctx, shell as string, program),
  );

  return program;
}

/** Flag values of `foodctl sandbox`, checked before anything starts. */
function parseSandboxOptions(options: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const port = Number(options.port);
  if (!/^[0-9]{1,5}$/.test(String(options.port)) || port > 65535) throw usageError(`--port must be 0 to 65535, got "${String(options.port)}"`);
  const rateText = text(options.rateLimit);
  if (rateText !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(rateText) && Number(rateText) > 0)) {
    throw usageError(`--rate-limit must be a positive number of requests per second, got "${rateText}"`);
  }
  const latencyText = text(options.latency);
  if (latencyText !== undefined && !/^[0-9]{1,6}$/.test(latencyText)) throw usageError(`--latency must be a whole number of milliseconds, got "${latencyText}"`);
  return {
    port,
    host: text(options.host) ?? "127.0.0.1",
    state: text(options.state),
    env: options.env === true,
    as: text(options.as),
    rateLimit: rateText === undefined ? undefined : Number(rateText),
    latencyMs: latencyText === undefined ? undefined : Number(latencyText),
  };
}
