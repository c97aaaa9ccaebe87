/**
 * What the end-to-end tests of the changing commands share: a sandbox on a free port per test
 * file, foodctl run (in process unless a test asks for a real one) against it as one of the seeded users, and request counts by route so
 * a test can name exactly which requests a command sent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { IntakeRecord } from "../../../src/sandbox/render.js";
import { startSandbox, type SandboxHandle } from "../../../src/sandbox/server.js";
import { runEither, type AnyRunOptions, type CliResult } from "../../helpers/cli.js";

export { expectExit } from "../../helpers/cli.js";

export const GET_INTAKE = "GET /v2/intake/:image_id";
export const POST_QUANTITY = "POST /v2/nutrition/confirm/quantity";
export const POST_DISPLAY_IMAGE = "POST /v2/intake/:image_id/display_image";
export const DELETE_DISPLAY_IMAGE = "DELETE /v2/intake/:image_id/display_image";

export interface RunOptions extends Omit<AnyRunOptions, "env"> {
  /** The seeded user whose token is sent; default alice. */
  as?: string;
  env?: Record<string, string | undefined>;
}

export interface TestSandbox {
  handle: SandboxHandle;
  url: string;
  token(name: string): string;
  cli(args: string[], options?: RunOptions): Promise<CliResult>;
  /** Starts counting; the returned function gives the requests since, by route (zeros left out). */
  countRequests(): () => Record<string, number>;
  intake(imageId: number): IntakeRecord;
  /** A fresh folder, removed when the sandbox closes. */
  tempDir(): string;
  close(): Promise<void>;
}

export async function startTestSandbox(): Promise<TestSandbox> {
  const handle = await startSandbox({ port: 0 });
  const dirs: string[] = [];
  const sandbox: TestSandbox = {
    handle,
    url: handle.url,
    token: (name) => handle.tokenFor(name),
    cli(args, options = {}) {
      const { as = "alice", env = {}, ...rest } = options;
      return runEither(args, { ...rest, env: { FOODCTL_API_URL: handle.url, FOODCTL_TOKEN: handle.tokenFor(as), ...env } });
    },
    countRequests() {
      const start = handle.stats().requests;
      return () => {
        const now = handle.stats().requests;
        const delta: Record<string, number> = {};
        for (const [route, count] of Object.entries(now)) {
          const sent = count - (start[route] ?? 0);
          if (sent !== 0) delta[route] = sent;
        }
        return delta;
      };
    },
    intake(imageId) {
      const record = handle.intake(imageId);
      if (record === undefined) throw new Error(`the sandbox has no intake ${imageId}`);
      return record as IntakeRecord;
    },
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), "foodctl-change-"));
      dirs.push(dir);
      return dir;
    },
    async close() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await handle.close();
    },
  };
  return sandbox;
}

/** Neither stream shows any seeded user's token. */
export function expectNoToken(sandbox: TestSandbox, result: CliResult): void {
  for (const user of sandbox.handle.users) {
    expect(result.stdout).not.toContain(user.token);
    expect(result.stderr).not.toContain(user.token);
  }
}

export function itemOf(intake: IntakeRecord, position: number | string) {
  const recipe = intake.recipe_per_item?.find((item) => item.food_item_position === position);
  const nutrition = intake.nutritional_info_per_item?.find((item) => item.food_item_position === position);
  if (!recipe || !nutrition) throw new Error(`intake ${intake.image_id} has no item ${String(position)}`);
  return { recipe, nutrition };
}

/** The parts of an intake that a display-image change must leave alone (docs/api.md, display image rule 2). */
const UNTOUCHED_BY_DISPLAY_IMAGES = [
  "image_id",
  "timestamp",
  "occasion",
  "user_comment",
  "foodName",
  "serving_size",
  "nutritional_info",
  "recipe",
  "salt",
  "sugar",
  "nutritional_info_per_item",
  "recipe_per_item",
] as const;

export function foodsAndNutrition(intake: IntakeRecord) {
  return Object.fromEntries(UNTOUCHED_BY_DISPLAY_IMAGES.map((key) => [key, intake[key]]));
}
