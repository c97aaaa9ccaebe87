/**
 * A folder of foodctl's own that only this user can change (the journal's): made 0700, checked
 * once, then reached through the descriptor opened when it was checked, so a folder swapped for a
 * link afterwards is never written through. The folders above it must not let another user rename
 * their entries (owned by this user or root, and not writable by group or others unless sticky):
 * otherwise that user could swap the folder for a link to a file of the victim's choosing.
 */
import { closeSync, constants, existsSync, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, realpathSync } from "node:fs";
import { dirname, join, parse, resolve } from "node:path";

/** Why a folder cannot be used: said with the folder's path by the caller. */
export class UnsafeFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeFolderError";
  }
}

/**
 * The first folder on the way to `path` (itself included) whose entries another user may rename,
 * and why; null when there is none. A link on the way is checked where it leads too.
 */
export function renamableByOthers(path: string, links = 0): string | null {
  const uid = process.geteuid?.();
  if (uid === undefined) return null;
  const absolute = resolve(path);
  const { root } = parse(absolute);
  const parts = absolute.slice(root.length).split("/").filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth++) {
    const folder = join(root, ...parts.slice(0, depth));
    let info;
    try {
      info = lstatSync(folder);
    } catch {
      // Not made yet: it and what is below it will be made by this user, 0700.
      return null;
    }
    if (info.isSymbolicLink()) {
      const beyond = links > 8 ? `${folder}: too many links` : renamableByOthers(realpathSync(folder), links + 1);
      if (beyond !== null) return beyond;
      continue;
    }
    if (info.uid !== uid && info.uid !== 0) return `${folder} belongs to another user (uid ${info.uid}), who may rename what is in it`;
    if ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0) {
      const who = (info.mode & 0o002) !== 0 ? "anyone" : "its group";
      return `${folder} may be changed by ${who} (mode ${(info.mode & 0o7777).toString(8)}, no sticky bit), who may rename what is in it`;
    }
  }
  return null;
}

/** A private folder held open: `at(name)` is a path to an entry that goes through the descriptor. */
export interface PrivateFolder {
  readonly path: string;
  at(name: string): string;
  close(): void;
}

/** Whether paths through a descriptor (/proc/self/fd/N/name) work here; elsewhere the folder is checked again before each use. */
const byDescriptor = () => existsSync("/proc/self/fd");

/**
 * Makes `path` (0700) when missing and opens it, checked: a folder of this user's (made private
 * if it was not), with no folder above it that another user may rename entries in (a link on the
 * way, or the folder itself as a link, is checked where it leads). Throws UnsafeFolderError when it cannot be used; a file system
 * error as it is.
 */
export function openPrivateFolder(path: string): PrivateFolder {
  const unsafe = renamableByOthers(dirname(path));
  if (unsafe !== null) throw new UnsafeFolderError(unsafe);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const real = realpathSync(path);
  if (real !== resolve(path)) {
    const beyond = renamableByOthers(dirname(real));
    if (beyond !== null) throw new UnsafeFolderError(beyond);
  }
  const fd = openSync(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const info = fstatSync(fd);
    const uid = process.geteuid?.();
    if (uid !== undefined && info.uid !== uid) throw new UnsafeFolderError(`${path} belongs to another user (uid ${info.uid})`);
    if ((info.mode & 0o077) !== 0) fchmodSync(fd, 0o700);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const { dev, ino } = fstatSync(fd);
  const viaDescriptor = byDescriptor();
  return {
    path,
    at: (name) => {
      if (viaDescriptor) return `/proc/self/fd/${fd}/${name}`;
      // No descriptor paths: the folder must still be the one opened.
      const now = lstatSync(path);
      if (!now.isDirectory() || now.dev !== dev || now.ino !== ino) throw new UnsafeFolderError(`${path} was replaced while in use`);
      return join(path, name);
    },
    close: () => closeSync(fd),
  };
}
