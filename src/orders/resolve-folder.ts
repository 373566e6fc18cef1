/**
 * A sheet's folder, resolved once for the many attachments opened in it: its real path, and
 * whether it lies on a local disk (open-attachment.ts reads a small file of a local folder at
 * once; a network share, or anything not known to be local, through the thread pool).
 */
import { readFile, realpath, stat, statfs } from 'node:fs/promises';

import type { ResolvedFolder } from './open-attachment.js';

/**
 * File systems on a disk of this machine, by the magic number statfs(2) gives (linux/magic.h):
 * ext2–4, XFS, Btrfs, tmpfs, overlayfs (a container's own files), ZFS, F2FS, bcachefs. NFS, SMB,
 * FUSE (sshfs), 9p and virtiofs (a host's folder in a VM or container) are not among them.
 */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e,
]);

/** Whether `real` (a real path) is on a local disk; false off Linux, or when statfs cannot say. */
export async function onLocalDisk(real: string): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  // Where statfs is refused (a sandbox's seccomp), the folder is read as a share is.
  const stats = await statfs(real).catch(() => undefined);
  return stats !== undefined && LOCAL_FILE_SYSTEMS.has(stats.type);
}

/**
 * Resolves a folder once per `scope` (a sheet) and remembers it; at most `limit` are remembered.
 * Remembered per sheet, not per path: a path through a link that is later pointed elsewhere (a
 * `today` folder) leads a later sheet to where it leads then, never to an earlier sheet's folder.
 * A folder that is not there now may be there later: its failure is not remembered.
 */
export function folderOf(limit = 256): (root: string, scope?: string) => Promise<ResolvedFolder> {
  const known = new Map<string, Promise<ResolvedFolder>>();
  return (root, scope = '') => {
    const key = `${scope}\0${root}`;
    let folder = known.get(key);
    if (folder === undefined) {
      if (known.size >= limit) known.clear();
      folder = resolve(root);
      known.set(key, folder);
      void folder.catch(() => {
        if (known.get(key) === folder) known.delete(key);
      });
    }
    return folder;
  };
}

async function resolve(root: string): Promise<ResolvedFolder> {
  const real = await realpath(root);
  // A share mounted below a local folder is not local: its files are not read at once either.
  const local = (await onLocalDisk(real)) && !(await mountBelow(real));
  return { real, local, dev: (await stat(real)).dev };
}

/** Whether anything is mounted below `real` (Linux: /proc/self/mountinfo); true when unknown. */
async function mountBelow(real: string): Promise<boolean> {
  // Unreadable (no procfs): not known to be free of mounts, so not read at once.
  const table = await readFile('/proc/self/mountinfo', 'utf8').catch(() => undefined);
  if (table === undefined) return true;
  const prefix = real.endsWith('/') ? real : `${real}/`;
  for (const line of table.split('\n')) {
    const point = line.split(' ')[4];
    if (point === undefined) continue;
    // Spaces, tabs, line breaks and backslashes in a mount point are written as octal escapes.
    const unescaped = point.replace(/\\([0-7]{3})/g, (_, octal: string) =>
      String.fromCharCode(parseInt(octal, 8)),
    );
    if (unescaped.startsWith(prefix)) return true;
  }
  return false;
}
