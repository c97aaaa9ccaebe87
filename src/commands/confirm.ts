/** A yes/no question on the terminal (stderr), default no. */
import type { Context } from "../context.js";
import { interruptedError, usageError } from "../errors.js";

/** Refuses to go on without a terminal to ask on, unless --yes (or --dry-run) says not to ask. */
export function requireAnswerable(ctx: Context, options: { yes: boolean; dryRun: boolean }, what: string): void {
  const interactive = ctx.io.stdin.isTTY === true && ctx.io.stderr.isTTY === true;
  if (!options.yes && !options.dryRun && !interactive) {
    throw usageError(`not on a terminal: pass --yes to ${what}`, { hint: "nothing was sent" });
  }
}

/** True for yes. Ctrl-C at the prompt is an interruption (exit 130), not an answer. */
export async function askYesNo(ctx: Context, message: string): Promise<boolean> {
  const { default: confirm } = await import("@inquirer/confirm");
  try {
    return await confirm(
      { message, default: false },
      { input: ctx.io.stdin as NodeJS.ReadableStream, output: ctx.io.stderr as unknown as NodeJS.WritableStream, signal: ctx.signal },
    );
  } catch (error) {
    const name = (error as Error).name;
    if (name === "ExitPromptError" || name === "AbortPromptError") throw interruptedError("interrupted at the prompt: nothing was sent");
    throw error;
  }
}
