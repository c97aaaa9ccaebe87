/**
 * Long output on a terminal goes through a pager (docs/cli.md, the pager): FOODCTL_PAGER, else
 * PAGER, else `less -FRX` when it is installed. Loaded only when a terminal's output is longer
 * than its screen. Quitting the pager before the end is a normal end: what it did not read is dropped.
 */
import { spawn } from "node:child_process";
import type { IO } from "../io.js";
import { styler } from "./style.js";

/** How the pager is started: a chosen one through the shell (it may carry arguments), the default as it is. */
export type PagerCommand = { shell: string } | { file: "less"; args: ["-FRX"] };

/** The pager, or null for none: an empty FOODCTL_PAGER or PAGER, or `cat`, turns paging off. */
export function pagerCommand(env: NodeJS.ProcessEnv): PagerCommand | null {
  const chosen = env.FOODCTL_PAGER ?? env.PAGER;
  if (chosen === undefined) return { file: "less", args: ["-FRX"] };
  const shell = chosen.trim();
  return shell === "" || shell === "cat" ? null : { shell };
}

/** The shell's answer when it found no such command (127) or could not run it (126): nothing was shown. */
const NOT_RUN = new Set([126, 127]);

/**
 * Hands `text` to the pager on the terminal and waits until it quits. False when there is no
 * pager, or it could not be started (nothing was shown: the caller writes the text itself).
 */
export async function pageText(io: IO, text: string): Promise<boolean> {
  const command = pagerCommand(io.env);
  if (command === null) return false;
  // Like git: less and lv keep colour and quit on a short screen unless the user set them up otherwise.
  const env = { ...io.env, LESS: io.env.LESS ?? "FRX", LV: io.env.LV ?? "-c" };
  const stdio: ["pipe", "inherit", "inherit"] = ["pipe", "inherit", "inherit"];
  // A missing `less` is a spawn error (ENOENT); a chosen pager that is missing is the shell's 127.
  const child =
    "shell" in command ? spawn("/bin/sh", ["-c", command.shell], { stdio, env }) : spawn(command.file, command.args, { stdio, env });
  const ended = new Promise<{ started: boolean; code: number | null }>((resolve) => {
    child.once("error", () => resolve({ started: false, code: null }));
    child.once("close", (code) => resolve({ started: true, code }));
  });
  // A pager that quits before reading everything closes its end: EPIPE here is the reader's choice.
  child.stdin.on("error", () => {});
  child.stdin.end(text);
  const { started, code } = await whileIgnoringInterrupts(ended);
  if (!started) return false;
  if ("shell" in command && code !== null && NOT_RUN.has(code)) {
    const warning = styler(io.color.stderr).yellow("warning:");
    io.stderr.write(`${warning} the pager "${command.shell}" could not be run (exit ${code}); printing without it\n`);
    return false;
  }
  return true;
}

/**
 * Ctrl-C in the pager reaches foodctl too (one process group): it is the pager's to answer (less
 * stops a search), so foodctl neither stops nor leaves the pager behind on the terminal, as git does.
 */
async function whileIgnoringInterrupts<T>(pending: Promise<T>): Promise<T> {
  const saved = process.listeners("SIGINT");
  process.removeAllListeners("SIGINT");
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    return await pending;
  } finally {
    process.off("SIGINT", ignore);
    for (const listener of saved) process.on("SIGINT", listener);
  }
}
