/** undo's question on a terminal: "n" is a cancellation (exit 3), Ctrl-C an interruption (exit 130); nothing is sent either way. */
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { run } from "../../src/main.js";
import { bufferIO } from "../helpers/bufferIO.js";
import { journalEntries, startJournalSandbox, type JournalSandbox } from "./helpers.js";

let sandbox: JournalSandbox;
beforeEach(async () => {
  sandbox = await startJournalSandbox();
});
afterEach(() => sandbox.close());

async function answerUndo(keys: string): Promise<{ code: number; stderr: string }> {
  const env = {
    FOODCTL_API_URL: sandbox.handle.url,
    FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
    XDG_CONFIG_HOME: sandbox.home,
    XDG_STATE_HOME: sandbox.home,
  };
  const buffers = bufferIO({ env, tty: true });
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  buffers.io.stdin = stdin;
  // Like process.stderr, it stays open after the prompt lets go of it.
  const stderr = Object.assign(new PassThrough(), { end: () => stderr });
  let shown = "";
  let answered = false;
  stderr.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
    if (!answered && shown.includes("Undo intake set-quantity")) {
      answered = true;
      // One key at a time, as a terminal sends them.
      for (const [index, key] of [...keys].entries()) setTimeout(() => stdin.write(key), 10 * index);
    }
  });
  buffers.io.stderr = Object.assign(stderr, { isTTY: true, columns: 80 });
  const code = await run(["undo", "--last"], { io: buffers.io, signal: new AbortController().signal });
  return { code, stderr: shown };
}

it.each([
  ["answering n", "n\r", 3, "cancelled: nothing was sent"],
  ["Ctrl-C", "\u0003", 130, "interrupted at the prompt: nothing was sent"],
])("%s at undo's question", async (_name, keys, code, message) => {
  expect((await sandbox.cli(["intake", "set-quantity", "1002", "1=150"])).code).toBe(0);
  const posts = () => sandbox.handle.stats().requests["POST /v2/nutrition/confirm/quantity"] ?? 0;
  const sent = posts();
  const result = await answerUndo(keys);
  expect(result.code).toBe(code);
  expect(result.stderr).toContain(message);
  // What will change, before the question: the value now → the one undo puts back.
  expect(result.stderr).toMatch(/intake 1002, now → after the undo:\n {2}1 {2}grams {2}150 → 180\n[^]*Undo intake set-quantity/);
  expect(posts()).toBe(sent);
  expect(await journalEntries(sandbox)).toHaveLength(1);
});
