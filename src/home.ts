/**
 * foodctl's folders in the user's XDG base folders. The home folder is $HOME, else the account's
 * (from node:os, asked only when $HOME is not set).
 */
import { join } from "node:path";

/** foodctl's folder in an XDG base folder: `$<variable>/foodctl` when it is set, else `<home>/<fallback>/foodctl`. */
export function xdgFolder(env: NodeJS.ProcessEnv, variable: "XDG_CONFIG_HOME" | "XDG_STATE_HOME", ...fallback: string[]): string {
  const home = () => env.HOME || (require("node:os") as typeof import("node:os")).homedir();
  return join(env[variable] || join(home(), ...fallback), "foodctl");
}
