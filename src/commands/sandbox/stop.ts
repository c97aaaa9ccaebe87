/** `foodctl sandbox stop`: stops a detached sandbox (src/sandboxes/stop.ts) and says which (docs/sandbox.md, in the background). */
import type { Context } from "../../context.js";
import { renderStopJson } from "../../output/sandbox.js";
import type { SandboxStopOptions } from "../../sandboxes/options.js";
import { stopDetached } from "../../sandboxes/stop.js";

export async function stopSandbox(ctx: Context, options: SandboxStopOptions): Promise<number> {
  const { record, stale, reused } = await stopDetached(ctx, options);
  const left = reused ? ` (PID ${record.pid} is another process now, left alone)` : "";
  const kept = options.pidFile === undefined ? "recorded it as stopped" : "removed its stale record";
  const note = stale
    ? `the sandbox on ${record.url} (PID ${record.pid}) was not running${left}; ${kept}`
    : `stopped the sandbox on ${record.url} (PID ${record.pid})`;
  await ctx.print({ jsonBody: renderStopJson(record, stale), note });
  return 0;
}
