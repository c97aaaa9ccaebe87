/** `foodctl sandbox`: a local emulator of the API, in the foreground or detached; `sandbox stop` (docs/cli.md, The sandbox). */
import { verb, type Noun } from "../spec.js";
import { parseSandboxOptions, parseStopOptions } from "./options.js";

const PORT_OPTION = { flags: "--port <n>", description: "port, 0 for any free one (default 8787)" };
const PID_FILE_OPTION = { flags: "--pid-file <file>", description: "with --detach or stop: record the sandbox here instead of the user's runtime folder" };

const start = verb({
  name: "sandbox",
  description: "run a local emulator of the API, with seeded users and intakes (in the foreground, or --detach)",
  options: [
    PORT_OPTION,
    { flags: "--host <addr>", description: "address to bind", defaultValue: "127.0.0.1" },
    { flags: "--state <file>", description: "load and save the sandbox's state in this file" },
    { flags: "--env", description: "print only export lines (FOODCTL_API_URL, FOODCTL_TOKEN; FOODCTL_USER for a manager), once listening" },
    { flags: "--as <user-name>", description: "whose token --env and --detach export (default: the first APIUser)", complete: { lookup: "sandbox-users" } },
    { flags: "--token-kind <kind>", description: "which of the user's tokens is exported", choices: ["jwt", "opaque"], defaultValue: "jwt" },
    { flags: "--detach", description: "run in the background: return once listening, print the export lines, the PID and how to stop it" },
    PID_FILE_OPTION,
    { flags: "--rate-limit <rps>", description: "answer 429 above this many requests per second" },
    { flags: "--latency <ms>", description: "delay every API answer" },
  ],
  examples: [
    "foodctl sandbox                                        # foreground; Ctrl-C stops it",
    'eval "$(foodctl sandbox --detach --port 0 --as bob)"   # background; exports the URL and a token',
    "foodctl sandbox stop                                   # stop the detached one",
    "foodctl sandbox --port 0 --state rehearsal.json        # keeps changes across restarts",
  ],
  parse: parseSandboxOptions,
  run: async (ctx, options) => (await import("./start.js")).sandboxCommand(ctx, options),
});

const stop = verb({
  name: "stop",
  description: "stop a sandbox started with --detach: the one --port or --pid-file names, the one FOODCTL_API_URL points to, or the only one",
  options: [
    { flags: "--port <n>", description: "the detached sandbox on this port" },
    { flags: "--pid-file <file>", description: "the sandbox recorded in this file (by --detach --pid-file)" },
  ],
  examples: ["foodctl sandbox stop", "foodctl sandbox stop --port 8787", "foodctl sandbox stop --pid-file /tmp/sandbox.pid"],
  parse: parseStopOptions,
  run: async (ctx, options) => (await import("./stop.js")).stopSandbox(ctx, options),
});

export const sandbox: Noun = {
  name: "sandbox",
  description: start.description,
  examples: start.examples,
  verbs: [stop],
  action: start,
};
