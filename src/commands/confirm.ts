/** Questions on the terminal (stderr), through inquirer: a yes/no (default no), and the prompt of any other question. */
import type { Context } from "../context.js";
import { interruptedError, usageError } from "../errors.js";

/** Refuses to go on without a terminal to ask on, unless --yes (or --dry-run) says not to ask. */
export function requireAnswerable(ctx: Context, options: { yes: boolean; dryRun: boolean }, what: string): void {
  const interactive = ctx.io.stdin.isTTY === true && ctx.io.stderr.isTTY === true;
  if (!options.yes && !options.dryRun && !interactive) {
    throw usageError(`not on a terminal: pass --yes to ${what}`, { hint: "nothing was sent" });
  }
}

type PromptContext = { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; signal: AbortSignal };

/** An inquirer prompt on stdin and stderr. Ctrl-C at it is an interruption (exit 130, `interrupted`), not an answer. */
export async function prompt<T>(ctx: Context, ask: (on: PromptContext) => Promise<T>, interrupted: string): Promise<T> {
  try {
    return await ask({
      input: ctx.io.stdin as NodeJS.ReadableStream,
      output: ctx.io.stderr as unknown as NodeJS.WritableStream,
      signal: ctx.signal,
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === "ExitPromptError" || name === "AbortPromptError") throw interruptedError(interrupted);
    throw error;
  }
}

/** True for yes. */
export async function askYesNo(ctx: Context, message: string): Promise<boolean> {
  const { default: confirm } = await import("@inquirer/confirm");
  return prompt(ctx, (on) => confirm({ message, default: false }, on), "interrupted at the prompt: nothing was sent");
}
