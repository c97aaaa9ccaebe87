/** `foodctl sandbox`: a local emulator of the API, in the foreground. */
import { usageError } from "../../errors.js";
import { verb, type Noun, type RawInput } from "../spec.js";

/** Flag values of `foodctl sandbox`, checked before anything starts. */
function parseSandboxOptions(input: RawInput) {
  const portText = input.text("port") ?? "";
  const port = Number(portText);
  if (!/^[0-9]{1,5}$/.test(portText) || port > 65535) throw usageError(`--port must be 0 to 65535, got "${portText}"`);
  const rateText = input.text("rateLimit");
  if (rateText !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(rateText) && Number(rateText) > 0)) {
    throw usageError(`--rate-limit must be a positive number of requests per second, got "${rateText}"`);
  }
  const latencyText = input.text("latency");
  if (latencyText !== undefined && !/^[0-9]{1,6}$/.test(latencyText)) {
    throw usageError(`--latency must be a whole number of milliseconds, got "${latencyText}"`);
  }
  return {
    port,
    host: input.text("host") ?? "127.0.0.1",
    state: input.text("state"),
    env: input.flag("env"),
    as: input.text("as"),
    rateLimit: rateText === undefined ? undefined : Number(rateText),
    latencyMs: latencyText === undefined ? undefined : Number(latencyText),
  };
}

const start = verb({
  name: "sandbox",
  description: "run a local emulator of the API in the foreground, with seeded users and intakes",
  options: [
    { flags: "--port <n>", description: "port, 0 for any free one", defaultValue: "8787" },
    { flags: "--host <addr>", description: "address to bind", defaultValue: "127.0.0.1" },
    { flags: "--state <file>", description: "load and save the sandbox's state in this file" },
    { flags: "--env", description: "print only export lines for FOODCTL_API_URL and FOODCTL_TOKEN" },
    { flags: "--as <user-name>", description: "whose token --env exports (default: the first APIUser)", complete: { lookup: "sandbox-users" } },
    { flags: "--rate-limit <rps>", description: "answer 429 above this many requests per second" },
    { flags: "--latency <ms>", description: "delay every API answer" },
  ],
  examples: [
    "foodctl sandbox",
    "foodctl sandbox --env --as alice > sandbox.env & sleep 1; source sandbox.env",
    "foodctl sandbox --port 0 --state rehearsal.json   # keeps changes across restarts",
  ],
  parse: parseSandboxOptions,
  run: async (ctx, options) => (await import("../sandbox.js")).sandboxCommand(ctx.io, { ...options, json: ctx.json }),
});

export const sandbox: Noun = {
  name: "sandbox",
  description: start.description,
  examples: start.examples,
  verbs: [],
  action: start,
};
