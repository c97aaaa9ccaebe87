/**
 * The record of a detached sandbox (src/sandboxes/records.ts, docs/sandbox.md). The one
 * definition: a record is read only when the validator compiled from this schema (./compiled.ts)
 * passes it, else it is not one of ours. The keys a sandbox of an older foodctl did not write are
 * optional, so `sandbox stop` still finds it.
 */
import * as z from "zod/mini";

export const SandboxRecordSchema = z.object({
  pid: z.number().check(z.int(), z.positive()),
  /** The process's start time (src/processes.ts), so a pid reused by another process is not taken for the sandbox. */
  start: z.optional(z.nullable(z.string().check(z.regex(/^[0-9]{1,20}$/)))),
  url: z.string(),
  port: z.number().check(z.int()),
  log: z.optional(z.string()),
  started_at: z.optional(z.string()),
  /** The flags that start it again as it was (address, state file, limits, whose token), shell-quoted: ` --state /tmp/x.json`. */
  again: z.optional(z.string()),
  /** When `sandbox stop` stopped it or found it gone. */
  stopped_at: z.optional(z.nullable(z.string())),
});

export type SandboxRecordFile = z.infer<typeof SandboxRecordSchema>;
