import type { Stats } from 'node:fs';
import { type Said, said } from '../sheets/said.js';
import { mkdir, readdir, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { isMappingFile } from '../orders/mapping-files.js';
import { copyInside, lstatIfThere } from '../orders/open-attachment.js';
import { sheetFormat } from '../sheets/read-sheet.js';
import { inboxWaits } from '../policy.js';

/** Files that editors, browsers and copy tools leave while they work: never sheets. */
const PASSING = [/^~\$/, /^\.~lock/, /\.tmp$/i, /\.part$/i, /\.crdownload$/i, /^\./];

/**
 * A file the hot folder takes: a sheet by its extension, and not a temporary or hidden file, nor
 * a `mapping.json` (the mapping of the sheets beside it, though it ends in `.json`).
 */
export function isSheetCandidate(path: string): boolean {
  const name = basename(path);
  return sheetFormat(name) !== undefined && !isIgnoredPath(name) && !isMappingFile(name);
}

/** Spreadsheets the importer does not read (an .xlsx or .xlsm it does). */
const WORKBOOKS = /\.(xls|xlsb|ods|numbers)$/i;

/**
 * What to tell the user about a file dropped as a sheet in a format the importer does not read
 * (an old or foreign spreadsheet), or undefined for any other file (documents are expected beside
 * sheets).
 */
export function unreadableFormatHint(path: string): Said | undefined {
  const name = basename(path);
  if (!WORKBOOKS.test(name) || isIgnoredPath(name)) return undefined;
  return said('sheets.notTaken.format', { name });
}

/** Paths the watcher need not look at: temporary, lock and hidden files and folders. */
export function isIgnoredPath(path: string): boolean {
  const name = basename(path);
  return PASSING.some((pattern) => pattern.test(name));
}

/**
 * Waits until a file has kept its size and modification time for `stableMs` (a copy in progress
 * keeps changing them). Resolves false if the file disappears, or is still changing at `deadline`.
 */
export async function waitStable(
  path: string,
  stableMs: number,
  options: { deadline?: number; signal?: AbortSignal; now?: () => number } = {},
): Promise<boolean> {
  const now = options.now ?? Date.now;
  const step = inboxWaits(stableMs).settleLookMs;
  let last = await fileSignature(path);
  let since = now();
  for (;;) {
    if (last === null) return false;
    if (now() - since >= stableMs) return true;
    if (options.deadline !== undefined && now() > options.deadline) return false;
    await sleep(step, undefined, options.signal ? { signal: options.signal } : undefined);
    const current = await fileSignature(path);
    if (current !== last) {
      last = current;
      since = now();
    }
  }
}

/** A file's size and modification time, to tell whether it changed; null when it is no file. */
export async function fileSignature(path: string): Promise<string | null> {
  const stats = await statIfThere(path);
  return stats?.isFile() ? `${stats.size}:${stats.mtimeMs}` : null;
}

/** A path's stats, or undefined when nothing is there. */
export async function statIfThere(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether something is there (a link is followed). */
export async function exists(path: string): Promise<boolean> {
  return (await statIfThere(path)) !== undefined;
}

/**
 * Moves a file (creating the target's folder). A rename is atomic, and the first of several
 * watchers to rename a sheet is the one that takes it; a rename moves a link as a link, never
 * what it points to. Across file systems it is a copy of the file itself (a link is refused,
 * as open-attachment.ts refuses it), then the original removed.
 */
export async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyInside(dirname(from), basename(from), to);
    await unlink(from);
  }
}

export { lstatIfThere };

/**
 * Removes a folder the intake emptied, once it has stayed empty for `graceMs` (someone copying
 * into it would have changed it). `'wait'`: empty, but too recently changed; `'kept'`: it holds
 * something, or is gone. Only an empty folder is ever removed: rmdir refuses any other.
 */
export async function removeIfEmpty(
  dir: string,
  graceMs: number,
  now: number,
  /** When it last changed but for our own removals in it (else its modification time). */
  changedAt?: number,
): Promise<'removed' | 'wait' | 'kept'> {
  // lstat: a link to a folder is no folder the intake emptied, and rmdir would refuse it anyway.
  const stats = await lstatIfThere(dir);
  if (!stats?.isDirectory()) return 'kept';
  if ((await readdir(dir)).length > 0) return 'kept';
  if (now - (changedAt ?? stats.mtimeMs) < graceMs) return 'wait';
  try {
    await rmdir(dir);
    return 'removed';
  } catch (error) {
    // Something arrived, or it went (or became a link), between the look and the removal: it
    // is not ours to tidy.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT' || code === 'ENOTDIR')
      return 'kept';
    throw error;
  }
}
