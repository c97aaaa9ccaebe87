/** What `foodctl sandbox` prints: export lines, the start line for scripts, the users table (docs/sandbox.md, starting it). */
import type { OutputStream } from "../io.js";
import { styler } from "./style.js";
import { renderTable, renderTsv } from "./table.js";

export interface SandboxUserView {
  id: number;
  name: string;
  role: string;
  plan: string | null;
  token: string;
  opaque_token?: string;
  /** Ids of the APIUsers a manager or company acts for. */
  manages: readonly number[];
}

/** The shell lines `--env` and `--detach` print: source them or `eval` them. */
export interface EnvExport {
  url: string;
  token: string;
  /** FOODCTL_USER, for a manager's or a company's token. */
  user?: number;
}

export function renderEnvLines(env: EnvExport): string {
  const user = env.user === undefined ? "" : `export FOODCTL_USER=${env.user}\n`;
  return `export FOODCTL_API_URL=${env.url}\nexport FOODCTL_TOKEN=${env.token}\n${user}`;
}

/** The `--json` start line: one object, the URL and every user with both tokens. */
/** The warning of a sandbox reachable from the network (docs/sandbox.md, safety), for stderr. */
export function renderNetworkWarning(warning: string, color: boolean): string {
  return `${styler(color).yellow("warning:")} ${warning}\n`;
}

export function renderStartJson(url: string, users: SandboxUserView[], extra: Record<string, unknown> = {}): string {
  const list = users.map(({ id, name, role, plan, token, opaque_token }) => ({
    id,
    name,
    role,
    plan,
    token,
    ...(opaque_token === undefined ? {} : { opaque_token }),
  }));
  return `${JSON.stringify({ url, ...extra, users: list })}\n`;
}

/** `sandbox stop --json`: one line, as the start line is. */
export function renderStopJson(record: { pid: number; port: number; url: string }, stale: boolean): string {
  return `${JSON.stringify({ stopped: !stale, stale, pid: record.pid, port: record.port, url: record.url })}\n`;
}

/**
 * On a terminal: the URL, the users (tokens cut to the width unless `--wide`), one export line
 * to copy and how to stop. Piped: the URL, then one tab-separated row per user with the whole token.
 */
export function renderStartText(stream: OutputStream, color: boolean, url: string, users: SandboxUserView[], env: EnvExport): string {
  const rows = users.map((user) => [user.id, user.name, user.role, user.plan ?? "-", user.manages.join(",") || "-", user.token]);
  if (!stream.isTTY) return `${url}\n${renderTsv(rows.map((row) => row.filter((_, index) => index !== 4)))}`;
  const s = styler(color);
  const exportLine = `export FOODCTL_API_URL=${env.url} FOODCTL_TOKEN=${env.token}${env.user === undefined ? "" : ` FOODCTL_USER=${env.user}`}`;
  return [
    `foodctl sandbox listening on ${s.bold(url)}\n`,
    renderTable(stream, { head: ["id", "name", "role", "plan", "acts for", "token"], rows, alignRight: [0], flexible: [5], color }),
    `\n${exportLine}\n`,
    s.dim("Whole tokens: --json or --wide. Requests are logged on stderr; Ctrl-C stops the sandbox.\n"),
  ].join("");
}

/** After `--detach`: the export lines, then a comment a shell ignores with the PID and how to stop it. */
export function renderDetached(view: { pid: number; url: string; log: string }, env: EnvExport, stop: string): string {
  return `${renderEnvLines(env)}# foodctl sandbox: PID ${view.pid} on ${view.url}, log ${view.log}; stop it with: ${stop}\n`;
}
