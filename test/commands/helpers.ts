/** In-process command runs (the suite's `runFoodctl`) in a config folder of the test's choosing. */
import { runFoodctl, tempConfigHome, type CliResult } from "../helpers/cli.js";

export const OPAQUE_TOKEN = "3f9c2b7a1d0e4c5f8a6b9d2e1f3a4b5c6d7e8f90";

/** Fresh config folders, inside the run's folder (removed with it). */
export function configHomes(): () => string {
  return tempConfigHome;
}

export function runIn(
  home: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { tty?: boolean; stdin?: string } = {},
): Promise<CliResult> {
  return runFoodctl(args, {
    env: { XDG_CONFIG_HOME: home, ...env },
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.tty ? { tty: true } : {}),
  });
}
