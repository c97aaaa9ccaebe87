/**
 * The user's home folder: $HOME, else the account's (node:os is required only then: loading it
 * costs every start, and $HOME is nearly always set).
 */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || (require("node:os") as typeof import("node:os")).homedir();
}
