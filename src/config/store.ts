/**
 * The config file: profiles with api-url, user, timeout and a token. Reading is a plain
 * JSON read (every command does it); writing goes through conf (atomic write,
 * file mode 0600), loaded only by the commands that write.
 */
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { usageError } from "../errors.js";
import { xdgFolder } from "../home.js";
import { checkRecord } from "../records/check.js";
import type { Profile } from "../records/config.js";
import * as validators from "../records/validators/config.js";

export { CONFIG_KEYS, type ConfigKey } from "./keys.js";

export type { Profile };
export interface ConfigData {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = "default";

export const configDir = (env: NodeJS.ProcessEnv): string => xdgFolder(env, "XDG_CONFIG_HOME", ".config");

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), "config.json");
}

/** A config file is settings, not data: anything larger is refused unread. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Refuses (exit 2, naming it) a config file or folder that is a link, not ours, or not the right kind of file. */
export function checkOwnEntry(stats: Stats, path: string, what: "file" | "folder", uid: number | undefined = process.getuid?.()): void {
  if (stats.isSymbolicLink()) {
    throw usageError(`config ${what} ${path} is a symbolic link: refusing to read or write through it`, {
      hint: `replace it with a real ${what}`,
    });
  }
  if (what === "folder" ? !stats.isDirectory() : !stats.isFile()) {
    throw usageError(`config ${what} ${path} is not a regular ${what}`, { hint: "remove it or point XDG_CONFIG_HOME elsewhere" });
  }
  if (uid !== undefined && stats.uid !== uid) {
    const hint = "it may hold someone else's token: use your own XDG_CONFIG_HOME";
    throw usageError(`config ${what} ${path} belongs to another user (uid ${stats.uid})`, { hint });
  }
}

/** The file's text, or null when there is none: a regular file we own of at most MAX_CONFIG_BYTES, never through a link. */
function readConfigText(path: string): string | null {
  try {
    checkOwnEntry(lstatSync(dirname(path)), dirname(path), "folder");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let fd: number;
  try {
    // Non-blocking, so a FIFO cannot hold the open; no-follow, so a link is seen as one.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") checkOwnEntry(lstatSync(path), path, "file");
    throw usageError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    checkOwnEntry(stats, path, "file");
    if (stats.size > MAX_CONFIG_BYTES) throw usageError(`config file ${path} is over ${MAX_CONFIG_BYTES} bytes: not a foodctl config`);
    // A regular file of this user's (checked above), read to its end: it may have grown since fstat.
    const bytes = readFileSync(fd);
    if (bytes.length > MAX_CONFIG_BYTES) throw usageError(`config file ${path} is over ${MAX_CONFIG_BYTES} bytes: not a foodctl config`);
    return bytes.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** Reads the config file; a missing file is an empty config, a corrupt one a usage error naming it. */
export function readConfig(path: string): ConfigData {
  const text = readConfigText(path);
  if (text === null) return { profiles: {} };
  const fix = `fix it or remove it (\`rm ${path}\`) and log in again`;
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw usageError(`config file ${path} is not valid JSON`, { hint: fix });
  }
  const checked = checkRecord(validators.ConfigFile, data);
  if (!checked.valid) {
    // What the value must be, never the value itself: it may be a token.
    const { path: keys, expected } = checked.problems[0]!;
    const where = keys.join(".");
    throw usageError(`config file ${path} has an invalid value${where ? ` at ${where}` : ""}: expected ${expected}`, { hint: fix });
  }
  return { profiles: checked.data.profiles ?? {} };
}

/**
 * Runs a read-change-write of the config file holding a lock file beside it, so two
 * `foodctl config set` at once both land instead of one silently undoing the other.
 */
async function withConfigLock<T>(dir: string, path: string, work: () => Promise<T>): Promise<T> {
  // Loaded here, as conf is: every command reads the config, only the few that write it take the lock.
  const [{ withFileLock }, { diskFullHint }] = await Promise.all([import("../lock.js"), import("../files.js")]);
  const lock = `${path}.lock`;
  return withFileLock(
    lock,
    {
      cannotCreate: (error) => usageError(`cannot write in ${dir}: ${error.message}`, { hint: diskFullHint(error) }),
      busy: () =>
        usageError(`config file ${path} is being changed by another foodctl`, {
          hint: `try again; if no foodctl is running, remove ${lock}`,
        }),
    },
    work,
  );
}

/**
 * Changes one profile and writes the whole file atomically with mode 0600 in a 0700 folder.
 * The file is read again first (under the lock), so a corrupt file is refused and never
 * overwritten, and a concurrent writer's change is kept.
 */
export async function updateProfile(
  env: NodeJS.ProcessEnv,
  profileName: string,
  change: (profile: Profile) => Profile | undefined,
): Promise<void> {
  const dir = configDir(env);
  const path = configPath(env);
  readConfig(path); // refuse a corrupt file before creating anything beside it
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { default: Conf } = await import("conf");
  await withConfigLock(dir, path, async () => {
    const current = readConfig(path);
    const next = change({ ...(current.profiles[profileName] ?? {}) });
    const profiles = { ...current.profiles };
    if (next === undefined) delete profiles[profileName];
    else profiles[profileName] = next;
    writeProfiles(Conf, dir, path, profiles);
  });
}

function writeProfiles(Conf: typeof import("conf").default, dir: string, path: string, profiles: Record<string, Profile>): void {
  const store = new Conf<{ profiles: Record<string, Profile> }>({
    cwd: dir,
    configName: "config",
    projectSuffix: "",
    configFileMode: 0o600,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
  });
  store.store = { profiles };
  // The temp-file rename keeps the mode, but a file created by another tool may not: make sure.
  chmodSync(path, 0o600);
}
