/** Running `foodctl smoke` in process (the shared runFoodctl) against a sandbox or a fault server. */
import { runFoodctl, type CliResult } from "../helpers/cli.js";

/** foodctl with this API and token, no retries unless asked. */
export function runAgainstApi(
  apiUrl: string,
  token: string,
  args: string[],
  options: { tty?: boolean; retries?: number } = {},
): Promise<CliResult> {
  return runFoodctl(["--api-url", apiUrl, "--retries", String(options.retries ?? 0), ...args], {
    env: { FOODCTL_TOKEN: token },
    tty: options.tty ?? false,
  });
}

/** The piped output's rows: step → its result and detail. */
export function stepRows(stdout: string): Map<string, { result: string; detail: string }> {
  const rows = stdout
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));
  return new Map(rows.map(([step, result, , detail]) => [step!, { result: result!, detail: detail ?? "" }]));
}
