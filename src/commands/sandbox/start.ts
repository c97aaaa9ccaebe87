/**
 * `foodctl sandbox`: runs the emulator in the foreground (src/sandboxes/foreground.ts) until Ctrl-C, SIGTERM or the end of the
 * process that started it, or `--detach`ed (src/sandboxes/detach.ts); prints what it started (docs/sandbox.md, starting it).
 */
import { Context } from "../../context.js";
import { failure } from "../../errors.js";
import { shellQuote } from "../../sanitize.js";
import { renderDetached, renderEnvLines, renderNetworkWarning, renderStartJson, renderStartText } from "../../output/sandbox.js";
import type { DetachedSandbox, Started } from "../../sandboxes/detach.js";
import { listen, stopRequested } from "../../sandboxes/foreground.js";
import { DETACHED_ENV, type SandboxCommandOptions } from "../../sandboxes/options.js";
import { checkUserName, chooseExport, userViews } from "../../sandboxes/users.js";

/** The start-up output of a sandbox that listens (in this process, or detached): the JSON line, the export lines or the users. */
function printStarted(ctx: Context, options: SandboxCommandOptions, started: Started, detached?: DetachedSandbox): Promise<void> {
  const { io } = ctx;
  const { url, users, networkWarning, listeningUrl } = started;
  // docs/sandbox.md, safety: a sandbox others can reach says so, in every mode.
  if (networkWarning) io.stderr.write(renderNetworkWarning(networkWarning, io.color.stderr));
  // A detached sandbox's launcher reads the warning from the JSON and prints it.
  const network = networkWarning ? { listening_url: listeningUrl, network_warning: networkWarning } : {};
  const where = detached && { pid: detached.pid, port: detached.port, log: detached.log, pid_file: detached.pidFile };
  // --env prints the export lines, also with --json.
  const out = options.env && ctx.json ? new Context(io, { ...ctx.globals, json: false }, ctx.signal, ctx.services) : ctx;
  const exported = out.json ? undefined : chooseExport(url, users, options);
  if (exported?.note) io.stderr.write(`${exported.note}\n`);
  return out.print({
    jsonBody: renderStartJson(url, users, { ...where, ...network }),
    text: (stream, color) => {
      if (!exported) return "";
      if (detached) return renderDetached(detached, exported.env, stopCommand(options, detached));
      return options.env ? renderEnvLines(exported.env) : renderStartText(stream, color, url, users, exported.env);
    },
  });
}

const stopCommand = (options: SandboxCommandOptions, { port, pidFile }: DetachedSandbox) =>
  options.pidFile === undefined ? `foodctl sandbox stop --port ${port}` : `foodctl sandbox stop --pid-file ${pidFile}`;

/** The flags that start this sandbox again as it was, shell-quoted, for the hint of a command that finds it stopped: its own, and whose token. */
function againFlags(options: SandboxCommandOptions, own: string[]): string {
  const user = options.as === undefined ? [] : ["--as", options.as];
  const kind = options.tokenKind === "jwt" ? [] : ["--token-kind", options.tokenKind];
  return [...own, ...user, ...kind].map((flag) => ` ${shellQuote(flag)}`).join("");
}

export async function sandboxCommand(ctx: Context, options: SandboxCommandOptions): Promise<number> {
  const { SEED_USERS } = await import("../../sandbox/seed.js");
  checkUserName(SEED_USERS, options.as);
  if (options.detach) {
    const { sandboxFlags, startDetached } = await import("../../sandboxes/detach.js");
    const detached = await startDetached(ctx, options, againFlags(options, sandboxFlags(options)));
    await printStarted(ctx, options, detached, detached);
    return 0;
  }
  const handle = await listen(ctx.io, options);
  let why: "signal" | "parent";
  try {
    await printStarted(ctx, options, { ...handle, users: userViews(handle, SEED_USERS) });
    why = await stopRequested(ctx.signal, ctx.io.env[DETACHED_ENV] !== "1");
  } finally {
    await handle.close().catch((error: unknown) => {
      throw failure(`the sandbox did not close cleanly: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  if (why === "parent") ctx.io.stderr.write("sandbox stopped: the process that started it has ended\n");
  else if (ctx.io.stderr.isTTY) ctx.io.stderr.write("sandbox stopped\n");
  return 0;
}
