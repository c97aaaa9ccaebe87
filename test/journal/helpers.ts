/** In-process runs of foodctl against an in-process sandbox, with a private config and journal folder. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { run } from "../../src/main.js";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../src/sandbox/server.js";
import { bufferIO } from "../helpers/bufferIO.js";
import type { Clock } from "../../src/clock.js";

export interface JournalSandbox {
  handle: SandboxHandle;
  home: string;
  journalPath: string;
  /** Runs foodctl in process as a seeded user (default alice); stdin is not a terminal. */
  cli(
    args: string[],
    options?: { as?: string; stdin?: Buffer; clock?: Clock; tty?: boolean; env?: Record<string, string> },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** `intake show --json` as parsed JSON. */
  show(imageId: number, as?: string): Promise<{ intake_info: Record<string, unknown> & { image_url?: string } }>;
  file(name: string, content: string | Buffer): string;
  close(): Promise<void>;
}

export async function startJournalSandbox(options: SandboxOptions = {}): Promise<JournalSandbox> {
  const handle = await startSandbox({ ...options, port: 0 });
  const home = mkdtempSync(join(tmpdir(), "foodctl-journal-"));
  const sandbox: JournalSandbox = {
    handle,
    home,
    journalPath: join(home, "foodctl", "journal.jsonl"),
    async cli(args, { as = "alice", stdin, clock, tty, env: extra } = {}) {
      const env = {
        FOODCTL_API_URL: handle.url,
        FOODCTL_TOKEN: handle.tokenFor(as),
        XDG_CONFIG_HOME: home,
        XDG_STATE_HOME: home,
        ...extra,
      };
      const buffers = bufferIO({ env, tty: tty ?? false });
      if (stdin) buffers.io.stdin = Object.assign(Readable.from([stdin]), { isTTY: false });
      const code = await run(args, { io: buffers.io, signal: new AbortController().signal, clock });
      return { code, stdout: buffers.stdout(), stderr: buffers.stderr() };
    },
    async show(imageId, as) {
      const result = await sandbox.cli(["intake", "show", String(imageId), "--json"], { as });
      if (result.code !== 0) throw new Error(result.stderr);
      return JSON.parse(result.stdout);
    },
    file(name, content) {
      const path = join(home, name);
      writeFileSync(path, content);
      return path;
    },
    async close() {
      rmSync(home, { recursive: true, force: true });
      await handle.close();
    },
  };
  return sandbox;
}

/** The journal as `foodctl journal --json` gives it, newest first. */
export async function journalEntries(sandbox: JournalSandbox): Promise<any[]> {
  const result = await sandbox.cli(["journal", "--json"]);
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

export function journalText(sandbox: JournalSandbox): string {
  return readFileSync(sandbox.journalPath, "utf8");
}

/** Fetches an image URL's bytes (no token: the sandbox serves images openly). */
export async function imageBytes(url: string): Promise<Buffer> {
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}
