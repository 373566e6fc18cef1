/**
 * An expected fault of the machine (docs/design.md "Outages, said once"): a folder the process may
 * not write, a full disk, too many open files. Node says them as an `ErrnoException` with a code;
 * a person should read one line naming the folder and what to do, never a stack trace. Of layer 0:
 * it imports only the kinds of error.
 */
import { dirname } from 'node:path';

import { UserError } from './errors.js';

type Variant = 'access' | 'full' | 'files' | 'database';

/** Which message each code is said with (`cli.error.machine.<variant>`). */
const VARIANTS: Readonly<Record<string, Variant>> = {
  EACCES: 'access',
  EPERM: 'access',
  EROFS: 'access',
  ENOSPC: 'full',
  EDQUOT: 'full',
  EMFILE: 'files',
  ENFILE: 'files',
  // The embedded sandbox's SQLite (the only one) says a full disk its own way, with no path: where
  // it opens its database, the fault is marked with it (writingIn), and said with DATA_DIR.
  SQLITE_FULL: 'database',
};

/** Calls that name a folder themselves; any other names a file, said by the folder it is in. */
const ON_FOLDERS = new Set(['mkdir', 'rmdir', 'scandir', 'opendir']);

/** The path a fault was met at, where Node gives none (a write to an open file). */
const AT = Symbol('machine fault at');

interface ErrnoLike {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  dest?: unknown;
  [AT]?: string;
}

/**
 * `work`, whose machine fault without a path of its own (ENOSPC on a write) is marked with the
 * file it was writing, so that the line said of it names that file's folder.
 */
export async function writingIn<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && variantOf(error) !== undefined) {
      const errno = error as ErrnoLike;
      if (typeof errno.path !== 'string') errno[AT] ??= path;
    }
    throw error;
  }
}

function variantOf(error: Error): Variant | undefined {
  const code = (error as ErrnoLike).code;
  return typeof code === 'string' ? VARIANTS[code] : undefined;
}

/** The folder a fault is about: the folder made, or the one holding the file written. */
function folderOf(error: ErrnoLike): string | undefined {
  const marked = error[AT];
  if (marked !== undefined) return dirname(marked);
  // A copy names its source and its destination: the destination is what was written.
  const path = typeof error.dest === 'string' ? error.dest : error.path;
  if (typeof path !== 'string') return undefined;
  return typeof error.syscall === 'string' && ON_FOLDERS.has(error.syscall) ? path : dirname(path);
}

const ENGLISH = {
  access: (folder: string, code: string) =>
    `${folder}: this process may not write there (${code}). Let the user it runs as write to that folder (chown or chmod), or set DATA_DIR (or the folder's own setting) to a folder it may write.`,
  full: (folder: string, code: string) =>
    `the disk of ${folder} is full (${code}): free space there, or move the folder to a larger disk, then start again.`,
  database: (folder: string, code: string) =>
    `the disk of ${folder} is full (${code}): the embedded sandbox cannot write its database there. Free space on that disk, or set DATA_DIR to a folder on a larger disk, then start again.`,
  files: (folder: string, code: string) =>
    `too many open files (${code}) at ${folder}: raise the limit of open files (ulimit -n, or LimitNOFILE= in the systemd unit), then start again.`,
};

/**
 * The fault as a person's error (`machine`, with the folder), or undefined when `error` is no
 * fault of the machine: that is said as it is, unexpected.
 */
export function machineFault(error: unknown): UserError | undefined {
  if (!(error instanceof Error)) return undefined;
  const variant = variantOf(error);
  if (variant === undefined) return undefined;
  const code = String((error as ErrnoLike).code);
  const folder = folderOf(error as ErrnoLike) ?? 'a folder of the importer';
  return new UserError('machine', ENGLISH[variant](folder, code), {
    cause: error,
    variant,
    values: { folder, code },
  });
}
