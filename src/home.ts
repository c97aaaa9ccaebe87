/**
 * The user's home folder: $HOME, else the account's (from node:os, asked only when $HOME is
 * not set).
 */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || (require("node:os") as typeof import("node:os")).homedir();
}
