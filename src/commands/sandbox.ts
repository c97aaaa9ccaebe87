/**
 * `foodctl sandbox`: runs the local emulator of the API in the foreground until SIGINT or
 * SIGTERM, prints its URL and a token per seeded user, and logs one line per request on stderr.
 */
import { EXIT } from "../errors.js";
import type { IO } from "../io.js";
import { renderTable, renderTsv } from "../output/table.js";
import type { SandboxHandle, SeededUserInfo } from "../sandbox/server.js";

export interface SandboxCommandOptions {
  port: number;
  host: string;
  state?: string;
  json: boolean;
  env: boolean;
  as?: string;
  rateLimit?: number;
  latencyMs?: number;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

function fail(io: IO, message: string, exitCode: number): number {
  io.stderr.write(`error: ${message}\n`);
  return exitCode;
}

function exportLines(url: string, user: SeededUserInfo): string {
  return `export FOODCTL_API_URL=${url}\nexport FOODCTL_TOKEN=${user.token}\n`;
}

function printStartup(io: IO, handle: SandboxHandle, options: SandboxCommandOptions, asUser: SeededUserInfo): void {
  if (options.env) {
    io.stdout.write(exportLines(handle.url, asUser));
    return;
  }
  if (options.json) {
    const users = handle.users.map(({ id, name, role, plan, token }) => ({ id, name, role, plan, token }));
    io.stdout.write(`${JSON.stringify({ url: handle.url, users })}\n`);
    return;
  }
  const rows = handle.users.map((user) => [user.id, user.name, user.role, user.plan ?? "-", user.token]);
  if (!io.stdout.isTTY) {
    io.stdout.write(`${handle.url}\n`);
    io.stdout.write(renderTsv(rows));
    return;
  }
  io.stdout.write(`foodctl sandbox listening on ${handle.url}\n`);
  io.stdout.write(renderTable(io.stdout, { head: ["id", "name", "role", "plan", "token"], rows, color: io.color.stdout }));
  io.stdout.write(
    `export FOODCTL_API_URL=${handle.url} FOODCTL_TOKEN=${asUser.token}  # ${asUser.name} (${asUser.role}, ${asUser.plan ?? "no plan"})\n`,
  );
  io.stdout.write("Requests are logged on stderr; Ctrl-C stops the sandbox.\n");
}

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export async function sandboxCommand(io: IO, options: SandboxCommandOptions): Promise<number> {
  const { SEED_USERS } = await import("../sandbox/seed.js");
  const asName = options.as ?? SEED_USERS.find((user) => user.role === "APIUser")!.name;
  if (!SEED_USERS.some((user) => user.name === asName)) {
    return fail(io, `unknown sandbox user "${asName}" (known: ${SEED_USERS.map((user) => user.name).join(", ")})`, EXIT.usage);
  }

  const { startSandbox, StateFileError } = await import("../sandbox/server.js");
  let handle: SandboxHandle;
  try {
    handle = await startSandbox({
      port: options.port,
      host: options.host,
      statePath: options.state,
      rateLimit: options.rateLimit,
      latencyMs: options.latencyMs,
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (error instanceof StateFileError) return fail(io, error.message, EXIT.usage);
    const where = `${options.host}:${options.port}`;
    if (errorCode(error) === "EADDRINUSE") {
      return fail(io, `port ${options.port} on ${options.host} is already in use; choose another with --port (0 picks a free one)`, EXIT.unavailable);
    }
    return fail(io, `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`, EXIT.unavailable);
  }

  const stopped = waitForStopSignal();
  printStartup(io, handle, options, handle.users.find((user) => user.name === asName)!);
  await stopped;
  try {
    await handle.close();
  } catch (error) {
    return fail(io, `the sandbox did not close cleanly: ${error instanceof Error ? error.message : String(error)}`, EXIT.failure);
  }
  if (io.stderr.isTTY) io.stderr.write("sandbox stopped\n");
  return EXIT.ok;
}
